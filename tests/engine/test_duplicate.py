"""engine.duplicate: a 复式挑战's record verifies, and each thing it checks is checked — the
seeds against their committed SHA-256, each deal against its seed and dealer, each player's
points, and every computer move against the strong player's choice."""

from __future__ import annotations

import copy

from engine import duplicate
from engine.duplicate import HUMAN, dealer_of, export_challenge, strong_choice, verify_any
from engine.rules import get_rule_set
from engine.state import Hand

RULES = get_rule_set("qq")
SEEDS = (11, 12)


def _played(seed: int, k: int, deviate_at: int | None = None) -> Hand:
    """Deal ``k`` played out by the strong choice at every seat; the computer's decision
    number ``deviate_at`` (if any) another legal move instead."""
    hand = Hand.new(RULES, seed=seed, dealer=dealer_of(RULES, k))
    robot_decisions = 0
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        action = strong_choice(hand, seed, seat)
        if seat != HUMAN:
            legal = hand.legal_actions(seat)
            if robot_decisions == deviate_at and len(legal) > 1:
                action = next(a for a in legal if a != action)
            robot_decisions += len(legal) > 1
        hand.apply(seat, action)
    return hand


def _doc(deviate_at: int | None = None) -> dict:
    ann = [_played(s, k) for k, s in enumerate(SEEDS)]
    bob = [_played(SEEDS[0], 0), _played(SEEDS[1], 1, deviate_at)]
    return export_challenge(5, RULES, SEEDS, [("Ann", ann), ("Bob", bob)])


def test_an_honest_challenge_verifies() -> None:
    verdict = verify_any(_doc())
    assert verdict.ok and not verdict.problems, verdict
    assert any("computer move" in c for c in verdict.checks)


def test_each_check_finds_what_it_checks() -> None:
    honest = _doc()
    cases = {
        "seeds do not match": lambda d: d.update(seeds=[11, 13]),
        "not the challenge's deal": lambda d: d["players"][0]["hands"][1].update(dealer=2),
        "are not his deals' sum": lambda d: d["players"][1].update(
            points=d["players"][1]["points"] + 1),
    }
    for problem, change in cases.items():
        doc = copy.deepcopy(honest)
        change(doc)
        verdict = verify_any(doc)
        assert not verdict.ok and any(problem in p for p in verdict.problems), (problem, verdict)


def test_a_computer_that_did_not_play_the_strong_choice_is_found() -> None:
    verdict = verify_any(_doc(deviate_at=0))
    assert not verdict.ok
    assert any("Bob, deal 2" in p and "did not play the strong choice" in p
               for p in verdict.problems), verdict


def test_a_hand_record_still_verifies_as_one() -> None:
    from engine.record import export_hand
    assert verify_any(export_hand(_played(SEEDS[0], 0))).ok
    assert export_hand(_played(SEEDS[0], 0))["format"] != duplicate.FORMAT
