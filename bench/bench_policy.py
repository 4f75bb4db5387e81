"""How well ``engine.player`` plays, and how fast it decides (prints figures; not a test).

1. The policy in one seat against two random-legal players, its seat and the dealer rotating:
   win rate and average points per hand of the policy seat against a random seat.
2. Three policies against each other: draw (荒庄) rate, average 胡息 of the wins.
3. Decision time of ``choose`` (median, p90, max) over every policy decision above.

Run: ``python bench/bench_policy.py [hands]`` (default 2000 for each part).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine.player import choose
from engine.rules import QQ
from engine.state import Hand
from engine.views import OutcomeKind


def play(hand: Hand, policy_seats: set[int], rng: random.Random, times: list[float]) -> Hand:
    """Drive ``hand`` to its end: policy seats use ``choose``, the others pick at random."""
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        if seat in policy_seats:
            view = hand.private_view(seat)
            public = [e for e in hand.history if e.visible_to is None]
            started = time.perf_counter()
            action = choose(view, public, rng)
            times.append(time.perf_counter() - started)
        else:
            action = rng.choice(hand.legal_actions(seat))
        hand.apply(seat, action)
    return hand


def versus_random(hands: int, rng: random.Random, times: list[float]) -> None:
    wins = [0, 0]  # policy seat, random seats
    points = [0, 0]
    gained = lost = 0  # the policy seat's points in hands it won / lost
    for i in range(hands):
        me, dealer = i % 3, (i // 3) % 3
        hand = play(Hand.new(QQ, seed=rng.getrandbits(64), dealer=dealer), {me}, rng, times)
        out = hand.outcome
        assert out is not None
        for seat, p in enumerate(out.points):
            points[seat != me] += p
        gained += max(0, out.points[me])
        lost -= min(0, out.points[me])
        if out.kind == OutcomeKind.WIN:
            wins[out.winner != me] += 1
    print(f"policy vs 2 random, {hands} hands (policy seat and dealer rotate):")
    print(f"  policy seat: win rate {wins[0] / hands:.1%}, points/hand {points[0] / hands:+.2f}")
    print(f"  random seat: win rate {wins[1] / (2 * hands):.1%}, "
          f"points/hand {points[1] / (2 * hands):+.2f}")
    print(f"  policy seat: won {gained} points in its wins, lost {lost} in the others' wins")
    ratio = wins[0] / (wins[1] / 2) if wins[1] else float("inf")
    print(f"  win-rate ratio policy/random seat: {ratio:.1f}x")


def self_play(hands: int, rng: random.Random, times: list[float]) -> None:
    draws, huxi, wins, zimo = 0, [], [0, 0, 0], 0
    for i in range(hands):
        hand = play(Hand.new(QQ, seed=rng.getrandbits(64), dealer=i % 3), {0, 1, 2}, rng, times)
        out = hand.outcome
        assert out is not None
        if out.kind == OutcomeKind.DRAW:
            draws += 1
        elif out.win is not None and out.winner is not None:
            wins[out.winner] += 1
            huxi.append(out.win.huxi)
            zimo += out.win.zimo
    print(f"3 policies, {hands} hands: draw rate {draws / hands:.1%}, "
          f"average 胡息 of wins {statistics.fmean(huxi) if huxi else 0:.1f}, "
          f"自摸 {zimo / max(1, len(huxi)):.0%} of wins, wins by seat {wins}")


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(20261129)
    times: list[float] = []
    started = time.perf_counter()
    versus_random(hands, rng, times)
    self_play(hands, rng, times)
    ms = sorted(t * 1000 for t in times)
    print(f"decision time over {len(ms)} decisions: median {statistics.median(ms):.2f} ms, "
          f"p90 {ms[int(0.9 * len(ms))]:.2f} ms, max {ms[-1]:.1f} ms")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
