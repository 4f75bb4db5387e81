"""Benchmark: complete random hands per second on one core, per rule set (target ≥ 500).

    python bench/bench_simulate.py [HANDS] [SEED] [RULES_KEY ...]

Without keys it measures qq and every hunan shape. Prints wall-clock and CPU-time rates: on a
busy machine the CPU figure is the fairer one.
"""

from __future__ import annotations

import sys
import time

from engine.rules import get_rule_set
from engine.simulate import run

KEYS = ("qq", "hunan/4", "hunan/3", "hunan/2/min21", "hunan/2/setaside")


def measure(key: str, hands: int, seed: int) -> None:
    rules = get_rule_set(key)
    run(200, seed + 1, rules)  # warm the caches a long-running bot would have warm
    cpu = time.process_time()
    result = run(hands, seed, rules)
    cpu = time.process_time() - cpu
    print(f"{key:18} hands: {hands}  wins: {result['wins']}  draws: {result['draws']}  "
          f"wall: {result['hands_per_second']:.0f} hands/s   cpu: {hands / cpu:.0f} hands/s")


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for key in sys.argv[3:] or KEYS:
        measure(key, hands, seed)


if __name__ == "__main__":
    main()
