"""Duplicate-deal duel of two computer players (prints figures; not a test).

Every deal (a seed and a dealer) is played once per seat: player X sits in seat ``r`` and
player Y in all the others, for every ``r``. Over the rotations X has held every seat's cards
once, so the luck of the deal cancels and what is left is the players' skill. A deal's score
is, averaged over its rotations, X's points minus the mean of the Y seats' points in that
hand; the figure printed is its mean over the deals with a 95 % confidence interval (normal
approximation over deals, which are independent). With X = Y it is 0 up to noise.

Also printed: X's decision time (median, p99) over all its decisions: the CPU time of the
worker process (``time.process_time``), so that other jobs on a shared machine do not count.
A 醒家 (hunan, 4 seats) sits out; the rotation puts X there too, which counts for both
players alike.

Run: ``nice python bench/bench_duel.py --x strong --y medium --deals 1000 --rules qq``
(``--rules`` several keys, default every rule set; a player is a level of ``engine.player``
or ``module:function`` taking ``(view, public_events, rng)``).
"""

from __future__ import annotations

import argparse
import importlib
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence

from engine import player as levels
from engine.player.levels import PARTIALS_COUNT_ONCE
from engine.player.play import Style
from engine.rules import get_rule_set
from engine.state import Hand
from engine.views import Event, PrivateView

Player = Callable[[PrivateView, Sequence[Event], random.Random], str]
RULES = ("qq", "hunan/4", "hunan/3", "four14")
# Former levels the bench still plays against; no table offers them. strong-1 is the strong
# level before it weighed what a 听 hand wins (docs/player.md).
BASELINES = {
    "strong-1": levels.Level("strong-1", Style(weights=PARTIALS_COUNT_ONCE, lookahead=3),
                             cost_ms=(2.3, 61)),
}


def player(spec: str) -> Player:
    """A level of ``engine.player`` (``weak`` … ``master``), a former one
    (:data:`BASELINES`: ``strong-1``), the trial ``strong-learned`` or ``module:function``."""
    if spec in levels.LEVELS or spec in BASELINES:
        return {**levels.LEVELS, **BASELINES}[spec].choose
    if spec == "strong-learned":
        spec = "learned_player:choose"
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def play(rules_key: str, seed: int, dealer: int, seats: Sequence[Player], x_seat: int,
         times: list[float]) -> tuple[int, ...]:
    """One hand with ``seats[s]`` deciding for seat ``s``; X's decision times are appended."""
    hand = Hand.new(get_rule_set(rules_key), seed=seed, dealer=dealer)
    rngs = [random.Random(seed * 31 + s) for s in range(len(seats))]
    public: list[Event] = [e for e in hand.history if e.visible_to is None]
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        view = hand.private_view(seat)
        started = time.process_time()
        action = seats[seat](view, public, rngs[seat])
        if seat == x_seat:
            times.append(time.process_time() - started)
        public.extend(e for e in hand.apply(seat, action) if e.visible_to is None)
    assert hand.outcome is not None
    return hand.outcome.points


def duel_deal(job: tuple[str, str, str, int, int]) -> tuple[float, list[float]]:
    """(the deal's score, X's decision times) over every rotation of one deal."""
    rules_key, x_spec, y_spec, seed, dealer = job
    x, y = player(x_spec), player(y_spec)
    n = get_rule_set(rules_key).players
    times: list[float] = []
    total = 0.0
    for r in range(n):
        points = play(rules_key, seed, dealer, [x if s == r else y for s in range(n)], r, times)
        total += points[r] - (sum(points) - points[r]) / (n - 1)
    return total / n, times


def duel(rules_key: str, x_spec: str, y_spec: str, deals: int, seed: int,
         pool: multiprocessing.pool.Pool) -> dict[str, float]:
    rng = random.Random(f"{seed}:{rules_key}")
    n = get_rule_set(rules_key).players
    jobs = [(rules_key, x_spec, y_spec, rng.getrandbits(63), i % n) for i in range(deals)]
    started = time.perf_counter()
    scores: list[float] = []
    times: list[float] = []
    for score, t in pool.imap_unordered(duel_deal, jobs, chunksize=4):
        scores.append(score)
        times.extend(t)
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.inf
    ms = sorted(t * 1000 for t in times)
    return {"margin": mean, "low": mean - half, "high": mean + half, "deals": len(scores),
            "median_ms": statistics.median(ms), "p99_ms": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
            "decisions": len(ms), "seconds": time.perf_counter() - started}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--x", default="strong", help="player X (default strong)")
    ap.add_argument("--y", default="medium", help="player Y (default medium: the baseline)")
    ap.add_argument("--deals", type=int, default=1000, help="deals per rule set (default 1000)")
    ap.add_argument("--rules", nargs="+", default=list(RULES), help="rule-set keys")
    ap.add_argument("--procs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    print(f"X = {args.x}, Y = {args.y}: X's points per hand per seat minus Y's, 95 % interval")
    with multiprocessing.Pool(args.procs) as pool:
        for key in args.rules:
            r = duel(key, args.x, args.y, args.deals, args.seed, pool)
            print(f"{key:9} {r['margin']:+6.2f}  [{r['low']:+6.2f}, {r['high']:+6.2f}]  "
                  f"{r['deals']} deals  X decides in {r['median_ms']:.2f} ms median, "
                  f"{r['p99_ms']:.1f} ms p99 ({r['decisions']} decisions)  {r['seconds']:.0f} s",
                  flush=True)


if __name__ == "__main__":
    main()
