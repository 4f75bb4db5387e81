"""The search's verdicts on the strong level's moves: the data ``bench/train_policy.py`` fits.

The strong level plays whole hands at every seat. At each of its discards and claims with a
choice, its best ``--candidates`` moves are played out in the same ``--worlds`` imagined
worlds (:func:`engine.player.search.search`, no candidate dropped), and one JSON line is
written: the rule set, the kind of decision, each move's features
(:func:`learned_player.features`) and its mean gain in points over the strong choice,
with the gain's standard error. Lines are written as hands finish, so a run may be stopped
at any time and what it wrote kept.

Run: ``nice python bench/make_search_data.py --rules qq --hands 300 --out data/qq.jsonl``
(two worker processes by default; some 10 s of one core a qq hand at 16 worlds).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections.abc import Iterator

from learned_player import features, kind_of

from engine import player
from engine.player.play import judge_table
from engine.player.search import Budget, search
from engine.rules import get_rule_set
from engine.state import Hand
from engine.views import Event


def hand_rows(job: tuple[str, int, int, int, int]) -> list[dict]:
    """Every decision's row of one hand played by the strong level at every seat."""
    rules_key, seed, dealer, candidates, worlds = job
    budget = Budget(work=10**12, candidates=candidates, first=10**9, worlds=worlds)
    style = player.STRONG.style
    hand = Hand.new(get_rule_set(rules_key), seed=seed, dealer=dealer)
    public: list[Event] = [e for e in hand.history if e.visible_to is None]
    rows = []
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        view = hand.private_view(seat)
        table, judged = judge_table(view, public, style)
        kind = kind_of(judged)
        if kind is not None and len(judged) > 1:
            _, searched = search(view, public, style, budget)
            by_action = {c.action: c for c in judged}
            if searched:
                rows.append({
                    "rules": view.public.rule_set, "kind": kind,
                    "stock": view.public.stock_count,
                    "moves": [{"action": s.action,
                               "features": features(table, by_action[s.action], kind),
                               "gain": s.gain, "error": s.error, "worlds": s.worlds}
                              for s in searched],
                })
        action = player.choose(view, public)
        public.extend(e for e in hand.apply(seat, action) if e.visible_to is None)
    return rows


def jobs(rules_key: str, hands: int, seed: int, candidates: int,
         worlds: int) -> Iterator[tuple[str, int, int, int, int]]:
    rng = random.Random(f"{seed}:{rules_key}")
    n = get_rule_set(rules_key).players
    for i in range(hands):
        yield rules_key, rng.getrandbits(63), i % n, candidates, worlds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["qq"], help="rule-set keys (default qq)")
    ap.add_argument("--hands", type=int, default=100, help="hands per rule set")
    ap.add_argument("--candidates", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20261203,
                    help="(not the bench's seed: its deals stay unseen by the fit)")
    ap.add_argument("--out", required=True, help="JSON lines, appended to")
    args = ap.parse_args()
    # the rule sets' hands in turn, so that a run stopped early has some of each
    per_rules = [list(jobs(key, args.hands, args.seed, args.candidates, args.worlds))
                 for key in args.rules]
    work = [j for turn in zip(*per_rules, strict=True) for j in turn]
    written = 0
    with multiprocessing.Pool(args.procs) as pool, open(args.out, "a", encoding="utf-8") as out:
        for rows in pool.imap_unordered(hand_rows, work):
            for row in rows:
                out.write(json.dumps(row) + "\n")
            out.flush()
            written += len(rows)
    print(f"{written} decisions written to {args.out}")


if __name__ == "__main__":
    main()
