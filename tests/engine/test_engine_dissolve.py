"""解散: a hand the seats voted to end is over with no points for anyone,
logged as the engine's own action, so its record replays and verifies."""

from __future__ import annotations

import json
import random

import pytest

from engine import actions as A
from engine import birds
from engine.record import export_hand, verify
from engine.replay import replay_views
from engine.rules import table_rules
from engine.state import Hand, IllegalAction, next_dealer
from engine.views import OutcomeKind


def midway(rules_id: str, seats: int | None, seed: int = 3, moves: int = 6) -> Hand:
    """A hand of ``rules_id`` after a few random legal moves (still running)."""
    hand = Hand.new(table_rules(rules_id, seats), seed=seed, dealer=1 % (seats or 3))
    rng = random.Random(seed)
    for _ in range(moves):
        if hand.is_terminal():
            break
        seat = rng.choice(hand.to_act())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    assert not hand.is_terminal()
    return hand


@pytest.mark.parametrize("rules_id, seats", [("qq", 3), ("hunan", 2), ("hunan", 3),
                                              ("hunan", 4), ("four14", 4)])
def test_a_dissolved_hand_scores_nothing_and_verifies(rules_id: str, seats: int) -> None:
    hand = midway(rules_id, seats)
    hand.dissolve(0)
    outcome = hand.outcome
    assert outcome is not None and outcome.kind == OutcomeKind.DISSOLVED
    assert outcome.points == (0,) * seats  # no 醒筹 either
    assert hand.log[-1] == (0, A.DISSOLVE) and hand.history[-1].kind == "dissolve"
    doc = json.loads(json.dumps(export_hand(hand)))
    verdict = verify(doc)
    assert verdict.ok, verdict.problems
    assert doc["result"]["kind"] == "dissolved"
    # the dealer deals again, and the 荒庄 count is not touched
    assert next_dealer(hand.rules, hand.dealer, outcome, 1) == (hand.dealer, 1)


def test_a_finished_hand_cannot_be_dissolved() -> None:
    hand = midway("qq", 3)
    hand.dissolve(1)
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.dissolve(2)
    assert A.label(A.DISSOLVE, "zh") == "解散"


def test_a_dissolved_hand_replays_step_by_step_and_pays_no_bird() -> None:
    hand = midway("hunan", 4)  # birds fly at hunan with four seats
    hand.dissolve(2)
    assert hand.outcome is not None and hand.outcome.bird_card is not None
    assert birds.payments(hand.outcome, hand.dealer) == []
    assert birds.settle_birds(hand.rules, hand.outcome, hand.dealer, 2)[0] == 0
    last = replay_views(hand.rules.key, hand.seed, hand.dealer, hand.base, hand.log,
                        len(hand.log))
    assert last.finished
