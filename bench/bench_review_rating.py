"""What the 复盘's rating (``engine.review``, 0–100) gives random play and each computer level:
the anchors its text quotes (``engine.review.RATING_ANCHORS``).

For each player kind (random legal choices, then each level of ``engine.player``, weak … master)
and each rule set, seeded deals are played with that kind at one seat (the seat turns with
the seed) and the strong computer player at the others; that seat's 复盘 is rated, and the
median and the quartiles of its ratings are printed (hands in which it had no decision are
left out). The same deals for every kind.
Run: ``nice -n 10 python bench/bench_review_rating.py [deals per rule set]`` (two processes).
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import sys
import time
from functools import partial

from engine import player
from engine.review import review_hand
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand

RULES = ("qq", "hunan/4", "four14")
KINDS = ("random", *player.LEVELS)


def played_hand(rules: RuleSet, seed: int, seat: int, kind: str) -> Hand:
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    while not h.is_terminal():
        actor = h.to_act()[0]
        legal = h.legal_actions(actor)
        if actor == seat and kind == "random":
            action = rng.choice(legal)
        else:
            events = [e for e in h.history if e.visible_to is None]
            level = kind if actor == seat else "strong"
            action = player.choose(h.private_view(actor), events, rng, level=level)
        h.apply(actor, action)
    return h


def ratings(kind: str, deals: int) -> tuple[list[int], list[float]]:
    """The seat's ratings, and the CPU ms each of its reviews took."""
    out, ms = [], []
    for rule_key in RULES:
        rules = get_rule_set(rule_key)
        for seed in range(deals):
            seat = seed % rules.players
            if seat == rules.xing_seat(seed % rules.players):
                seat = (seat + 1) % rules.players  # the 醒家 makes no choice
            hand = played_hand(rules, seed, seat, kind)
            started = time.process_time()
            rating = review_hand(hand, seat=seat).seat(seat).rating
            ms.append((time.process_time() - started) * 1000)
            if rating is not None:
                out.append(rating)
    return out, ms


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{deals} deals per rule set ({', '.join(RULES)}); rating of the one seat, and the "
          "CPU time of its review (the review plays out the moves off the strong choice)")
    with multiprocessing.Pool(2) as pool:
        for kind, (got, ms) in zip(KINDS, pool.map(partial(ratings, deals=deals), KINDS),
                                   strict=True):
            q1, median, q3 = statistics.quantiles(got, n=4)
            print(f"{kind:>7}: median {median:.0f}  quartiles {q1:.0f}–{q3:.0f}  (n={len(got)})"
                  f"  review {statistics.median(ms):.0f} ms median, {max(ms):.0f} ms max")


if __name__ == "__main__":
    main()
