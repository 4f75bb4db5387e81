"""Play complete hands with random legal choices (``python -m engine simulate``)."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from engine.rules import QQ, RuleSet
from engine.state import Hand, next_dealer
from engine.views import OutcomeKind


def play_random(hand: Hand, rng: random.Random) -> Hand:
    """Drive ``hand`` to its end, each waiting seat choosing uniformly among its legal actions."""
    while not hand.is_terminal():
        seat = rng.choice(hand.to_act())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    return hand


def run(hands: int, seed: int, rules: RuleSet = QQ) -> dict[str, Any]:
    """Play ``hands`` hands as one table (dealer passing by the rules) and summarise them."""
    rng = random.Random(seed)
    dealer, draws_in_row = 0, 0
    wins: Counter[str] = Counter()
    mingtang: Counter[str] = Counter()
    draws = tianhu = 0
    started = time.perf_counter()
    for _ in range(hands):
        hand = play_random(Hand.new(rules, seed=rng.getrandbits(64), dealer=dealer), rng)
        outcome = hand.outcome
        assert outcome is not None
        if outcome.kind == OutcomeKind.DRAW:
            draws += 1
        elif outcome.win is not None:
            win = outcome.win
            wins["自摸" if win.zimo else "吃胡"] += 1
            tianhu += win.tianhu
            wins["海底"] += win.haidi
            for name, _ in win.mingtang:
                mingtang[name] += 1
        dealer, draws_in_row = next_dealer(rules, dealer, outcome, draws_in_row)
    elapsed = time.perf_counter() - started
    return {
        "rules": rules.key,
        "hands": hands,
        "seed": seed,
        "wins": sum(v for k, v in wins.items() if k != "海底"),
        "wins_by_kind": dict(wins),
        "mingtang": dict(mingtang),
        "draws": draws,
        "tianhu": tianhu,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1) if elapsed else None,
    }
