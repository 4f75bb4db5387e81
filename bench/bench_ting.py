"""Time ``engine.ting.ting`` per call over decision points of random hands, single core.

The bot computes 听 on every decision it shows, so the positions are the private views of the
seats asked to decide in random games (random legal actions). Each position is timed new
(ting's own memo and the analyzer's per-hand results cleared, the split memo kept, as in a
running bot meeting a new position), and asked a second time in a row (the memo answers).
Prints the median and p99. Run: ``python bench/bench_ting.py [games]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine import ting as T
from engine.analyzer import clear_caches
from engine.rules import QQ
from engine.state import Hand
from engine.views import PrivateView


def decision_views(games: int, rng: random.Random) -> list[PrivateView]:
    views = []
    for _ in range(games):
        h = Hand.new(QQ, seed=rng.getrandbits(64), dealer=rng.randrange(3))
        while not h.is_terminal():
            views += [h.private_view(s) for s in h.to_act()]
            seat = rng.choice(h.to_act())
            h.apply(seat, rng.choice(h.legal_actions(seat)))
    return views


def time_ting(views: list[PrivateView], *, fresh: bool) -> list[float]:
    """ms per call; ``fresh`` forgets every memoised hand result before each call, else the
    position is asked once untimed just before (a screen redrawn for the same decision)."""
    out = []
    for view in views:
        if fresh:
            clear_caches(splits=False)
            T._winning_kinds.cache_clear()
        else:
            T.ting(QQ, view)
        t0 = time.perf_counter_ns()
        T.ting(QQ, view)
        out.append((time.perf_counter_ns() - t0) / 1e6)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p99 = ms[int(0.99 * (len(ms) - 1))]
    print(f"{name:<34} n={len(ms):>6}  median {statistics.median(ms):6.3f} ms  "
          f"p99 {p99:6.3f} ms  max {ms[-1]:6.3f} ms")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    views = decision_views(games, random.Random(20261201))
    discarding = [v for v in views if any(a.startswith("d:") for a in v.legal)]
    time_ting(views[:500], fresh=True)  # warm the interpreter and the split memo up
    report("all decisions, new position", time_ting(views, fresh=True))
    report("discard decisions, new position", time_ting(discarding, fresh=True))
    report("all decisions, asked again", time_ting(views, fresh=False))


if __name__ == "__main__":
    main()
