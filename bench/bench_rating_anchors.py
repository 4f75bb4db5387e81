"""The computer levels' anchors of the skill rating (``bot.table.skill.ANCHORS``): the weak,
medium and strong levels rated freely against one another (prints figures; not a test).

Each simulated hand seats the three levels (at a 4-seat rule set one of them twice, in turn),
in every seat order over the hands, and is one rated match: the seats ranked by their points,
Plackett–Luce as the bot rates (``bot.table.skill.MODEL``), every level a free player that
starts at (25, 25/3). Printed per rule set: each level's mu and sigma after the hands, and
the margin between levels the anchors should keep. The anchors are these mu, rounded.

Run: ``nice python bench/bench_rating_anchors.py --hands 600 --rules qq hunan/3 four14``
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import time

from bot.table.skill import MODEL, ranks
from engine import player
from engine.rules import get_rule_set
from engine.state import Hand

LEVELS = ("weak", "medium", "strong")


def play(job: tuple[str, int, tuple[str, ...]]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """One hand with ``levels[s]`` at seat s: (the levels, the points by seat)."""
    key, seed, levels = job
    hand = Hand.new(get_rule_set(key), seed=seed, dealer=seed % len(levels))
    rng = random.Random(seed)
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        public = [e for e in hand.history if e.visible_to is None]
        hand.apply(seat, player.choose(hand.private_view(seat), public, rng,
                                       level=levels[seat]))
    assert hand.outcome is not None
    return levels, hand.outcome.points


def seatings(players: int) -> list[tuple[str, ...]]:
    """Every order of the levels at the table (one of them twice at 4 seats)."""
    if players == 3:
        return list(itertools.permutations(LEVELS))
    return sorted({p for extra in LEVELS for p in itertools.permutations((*LEVELS, extra))})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--rules", nargs="+", default=["qq", "hunan/3", "four14"])
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20261207)
    args = ap.parse_args()
    with multiprocessing.Pool(args.procs) as pool:
        for key in args.rules:
            orders = seatings(get_rule_set(key).players)
            rng = random.Random(f"{args.seed}:{key}")
            jobs = [(key, rng.getrandbits(63), orders[i % len(orders)])
                    for i in range(args.hands)]
            started = time.perf_counter()
            ratings = {level: MODEL.rating() for level in LEVELS}
            for levels, points in pool.imap(play, jobs, chunksize=4):
                teams = [[ratings[level]] for level in levels]
                after = MODEL.rate(teams, ranks=ranks(points))
                # a level seated twice: its seats' updates averaged
                moved: dict[str, list] = {}
                for level, [r] in zip(levels, after, strict=True):
                    moved.setdefault(level, []).append(r)
                for level, rs in moved.items():
                    ratings[level] = MODEL.rating(mu=sum(r.mu for r in rs) / len(rs),
                                                  sigma=sum(r.sigma for r in rs) / len(rs))
            took = time.perf_counter() - started
            line = "  ".join(f"{level} mu {ratings[level].mu:5.2f} sigma {ratings[level].sigma:4.2f}"
                             for level in LEVELS)
            print(f"{key:8} {args.hands} hands ({took:.0f} s): {line}")


if __name__ == "__main__":
    main()
