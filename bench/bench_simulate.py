"""Benchmark: complete random hands per second on one core (target ≥ 500).

    python bench/bench_simulate.py [HANDS] [SEED]

Prints wall-clock and CPU-time rates: on a busy machine the CPU figure is the fairer one.
"""

from __future__ import annotations

import sys
import time

from engine.simulate import run


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    run(200, seed + 1)  # warm the caches a long-running bot would have warm
    cpu = time.process_time()
    result = run(hands, seed)
    cpu = time.process_time() - cpu
    print(f"hands: {hands}  wins: {result['wins']}  draws: {result['draws']}")
    print(f"wall: {result['hands_per_second']:.0f} hands/s   cpu: {hands / cpu:.0f} hands/s")


if __name__ == "__main__":
    main()
