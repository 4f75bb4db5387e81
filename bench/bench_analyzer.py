"""Time ``engine.analyzer.analyze`` per call on 21-card hands, single core.

Three kinds of hands: a random deal (20 cards + a card, or a dealer's 21), hands built from
7 random groups (wins are common), and those built hands that do win. Each is timed cold
(every cache cleared before the call) and warm (the split memo kept, as in a running engine,
but not the per-hand result cache), and a repeated question is timed too. Run:
``python bench/bench_analyzer.py [hands] [RULES_KEY]`` (default ``qq``; house rules too, such as
``qq+起胡10+封顶50+无名堂``).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter

from engine import cards as C
from engine.analyzer import analyze, clear_caches
from engine.rules import RuleSet, get_rule_set

SEQS = [(b + p, b + p + 1, b + p + 2) for b in (0, 10) for p in range(8)] + [
    (1, 6, 9),
    (11, 16, 19),
]


def random_deal(rng: random.Random):
    deck = C.full_deck()
    rng.shuffle(deck)
    if rng.random() < 0.5:
        return C.counts(deck[:21]), None, None
    return C.counts(deck[:20]), deck[20], rng.choice(("self", "other"))


def built(rng: random.Random):
    """21 hand cards from 7 random 坎 / 一句话 / 绞 (scoring runs favoured), maybe perturbed."""
    while True:
        cards: list[int] = []
        for _ in range(7):
            roll = rng.random()
            if roll < 0.2:
                cards += [rng.randrange(20)] * 3
            elif roll < 0.35:
                p = rng.randrange(10)
                cards += [p, p, p + 10]
            elif roll < 0.6:
                cards += rng.choice(((0, 1, 2), (10, 11, 12), (1, 6, 9), (11, 16, 19)))
            else:
                cards += rng.choice(SEQS)
        if rng.random() < 0.3:
            cards[rng.randrange(21)] = rng.randrange(20)
        if max(Counter(cards).values()) <= 4:
            break
    if rng.random() < 0.5:
        return C.counts(cards), None, None
    card = cards.pop(rng.randrange(21))
    return C.counts(cards), card, rng.choice(("self", "other"))


def time_calls(rules: RuleSet, cases, *, cold: bool | None) -> list[float]:
    """µs per call; ``cold=None`` keeps every cache (a repeated question)."""
    out = []
    for hand, card, source in cases:
        if cold is not None:
            clear_caches(splits=cold)
        t0 = time.perf_counter_ns()
        analyze(rules, hand, (), card, source=source)
        out.append((time.perf_counter_ns() - t0) / 1000)
    return out


def report(name: str, us: list[float]) -> None:
    us = sorted(us)
    p90 = us[int(0.9 * (len(us) - 1))]
    print(f"{name:<28} n={len(us):>6}  median {statistics.median(us):7.1f} µs  p90 {p90:7.1f} µs")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rules = get_rule_set(sys.argv[2] if len(sys.argv) > 2 else "qq")
    rng = random.Random(20260101)
    deals = [random_deal(rng) for _ in range(n)]
    builds = [built(rng) for _ in range(n)]
    clear_caches()
    wins = [c for c in builds if analyze(rules, c[0], (), c[1], source=c[2]) is not None]
    print(f"rules {rules.key}; built hands that win: {len(wins)} of {n}")
    time_calls(rules, deals[:2000] + builds[:2000], cold=True)  # warm the interpreter up
    for cold in (True, False):
        label = "cold" if cold else "warm"
        report(f"random deal, {label}", time_calls(rules, deals, cold=cold))
        report(f"built, {label}", time_calls(rules, builds, cold=cold))
        report(f"built winners, {label}", time_calls(rules, wins, cold=cold))
        report(f"all of the above, {label}", time_calls(rules, deals + builds, cold=cold))
    time_calls(rules, deals + builds, cold=None)  # ask once, then time asking again
    report("all, asked again (cached)", time_calls(rules, deals + builds, cold=None))


if __name__ == "__main__":
    main()
