"""The winner's 胡息 in his own view at the end of a hand is the settlement's 胡息合计: the
seat picture's 我的胡息 and the settlement picture never disagree."""

from __future__ import annotations

import random

from engine.rules import QQ, get_rule_set
from engine.state import Hand


def won_hands(rule_key: str, wanted: int) -> list[Hand]:
    """``wanted`` hands played by random legal moves that ended in a 胡, by seed."""
    found: list[Hand] = []
    seed = 0
    while len(found) < wanted:
        seed += 1
        rng = random.Random(seed)
        hand = Hand.new(get_rule_set(rule_key), seed=seed, dealer=0, base=3)
        while not hand.is_terminal():
            seat = hand.to_act()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        if hand.outcome is not None and hand.outcome.win is not None:
            found.append(hand)
    return found


def test_the_winners_huxi_at_the_end_is_the_settlements_total() -> None:
    hands = won_hands(QQ.id, 5)
    for hand in hands:
        outcome = hand.outcome
        assert outcome is not None and outcome.win is not None and outcome.winner is not None
        assert hand.private_view(outcome.winner).huxi == outcome.win.huxi
