"""CPU time of one seat's 复盘 (``engine.review.review_hand(hand, seat)``), per rule set.

The bot computes a review per human seat after each settlement, and the budget is 1 s of CPU
per seat and hand. Hands are played out by the computer player at every seat (long, realistic
hands; a random player's hands end early), then each seat is reviewed with the analyzer's
memo cleared first, as for a new hand. CPU time (``time.process_time``), single thread. Prints
per rule set the median, p99 and maximum ms per seat and the decisions a seat had.
Run: ``python bench/bench_review.py [hands per rule set]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine import player
from engine.analyzer import clear_caches
from engine.review import review_hand
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand

RULES = ("qq", "hunan/4", "hunan/3", "hunan/2/min21", "four14")


def played_hand(rules: RuleSet, seed: int) -> Hand:
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    while not h.is_terminal():
        seat = h.to_act()[0]
        events = [e for e in h.history if e.visible_to is None]
        h.apply(seat, player.choose(h.private_view(seat), events, random.Random(seed)))
    return h


def seat_times(rules: RuleSet, hands: int) -> tuple[list[float], list[int]]:
    """(ms per seat review, decisions per seat reviewed)."""
    ms, decisions = [], []
    for seed in range(hands):
        h = played_hand(rules, seed)
        for seat in range(rules.players):
            clear_caches()
            start = time.process_time()
            review = review_hand(h, seat=seat)
            ms.append(1000 * (time.process_time() - start))
            decisions.append(len(review.seat(seat).decisions))
    return ms, decisions


def main(hands: int) -> None:
    print(f"{hands} hands per rule set, every seat reviewed; CPU ms per seat and hand")
    for key in RULES:
        ms, decisions = seat_times(get_rule_set(key), hands)
        p99 = statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]
        print(f"{key:>14}: median {statistics.median(ms):6.1f}  p99 {p99:6.1f}  max {max(ms):6.1f}"
              f"  decisions/seat median {statistics.median(decisions):.0f} max {max(decisions)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
