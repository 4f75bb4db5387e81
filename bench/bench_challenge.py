"""CPU time of a 复式挑战's game (``bot.table.challenges``), per rule set: one press (his
decision, the strong player's choice computed to count it, then the computer seats up to
his next decision) and the rebuild of a whole finished deal from its stored moves (what a
restart or a cache miss costs). The participant plays the strong player's choices, as a
good player would. CPU time (``time.process_time``), single thread. Prints per rule set the
median, p99 and maximum ms per press, and the median ms per rebuilt deal.
Run: ``python bench/bench_challenge.py [deals per rule set]``.
"""

from __future__ import annotations

import statistics
import sys
import time

from bot.table.challenges import HUMAN, Run, strong_choice
from engine.rules import get_rule_set

RULES = ("qq", "hunan/3", "hunan/4", "four14")


def main(deals: int) -> None:
    for key in RULES:
        rules = get_rule_set(key)
        presses: list[float] = []
        rebuilds: list[float] = []
        for seed in range(deals):
            run = Run.rebuild(rules, (seed,), [])
            moves = []
            while not run.finished:
                deal = run.current
                action = strong_choice(deal.hand, deal.seed, HUMAN)
                t0 = time.process_time()
                moves.append(run.play(action))
                presses.append(time.process_time() - t0)
            t0 = time.process_time()
            Run.rebuild(rules, (seed,), moves)
            rebuilds.append(time.process_time() - t0)
        ms = sorted(p * 1000 for p in presses)
        print(f"{key:8} press median {statistics.median(ms):6.1f} ms  p99 "
              f"{ms[int(len(ms) * 0.99)]:6.1f}  max {ms[-1]:6.1f}  ({len(ms)} presses)  "
              f"rebuild a deal median {statistics.median(rebuilds) * 1000:6.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
