"""Median time to render the hand and the table image, encoding included, on one core.

    python bench/bench_render.py [--runs 200]

Targets (issue 3): hand <= 15 ms, table <= 40 ms. Positions come from fixed-seed engine
hands (render.demo); sprite caches are warmed by one untimed run, as in a running bot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.views import OutcomeKind  # noqa: E402
from render import render_hand, render_settlement, render_table  # noqa: E402
from render.demo import NAMES, TOTALS, ended, rich_private, rich_public  # noqa: E402


def median_ms(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    size = len(fn())  # warm caches
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    private, public = rich_private(), rich_public()
    settled = ended(7, OutcomeKind.WIN)
    cases = {
        "hand": (lambda: render_hand(private, NAMES), 15),
        "table": (lambda: render_table(public, NAMES), 40),
        "settlement": (lambda: render_settlement(settled, NAMES, TOTALS), None),
    }
    for name, (fn, target) in cases.items():
        ms, size = median_ms(fn, args.runs)
        goal = f"  (target <= {target} ms)" if target else ""
        print(f"{name:<11} median {ms:6.2f} ms  {size / 1024:6.1f} KiB{goal}")


if __name__ == "__main__":
    main()
