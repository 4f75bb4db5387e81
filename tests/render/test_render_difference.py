"""The 🔍 picture of a 复式挑战 (render/difference.py): both choices marked where they are
made — two discards on their cards in the hand, two answers to one card framed one around
the other, a 过 as a label — and a player who had stopped marks nothing."""

from __future__ import annotations

from collections.abc import Callable

from engine import actions as A
from engine.duplicate import HUMAN, strong_choice
from engine.rules import get_rule_set
from engine.state import Hand
from engine.views import PrivateView
from render.difference import layout_difference, render_difference

RULES = get_rule_set("qq")
NAMES = ["你", "电脑·小明", "电脑·小红"]


def _position(wanted: Callable[[tuple[str, ...]], bool]) -> tuple[PrivateView, str, str]:
    """The first decision of seat 0 (strong choices before it) whose legal moves ``wanted``
    accepts: its view, the strong choice and another move."""
    for seed in range(1, 80):
        hand = Hand.new(RULES, seed=seed)
        while not hand.is_terminal():
            seat = hand.to_act()[0]
            best = strong_choice(hand, seed, seat)
            legal = tuple(hand.legal_actions(seat))
            if seat == HUMAN and wanted(legal):
                return hand.private_view(seat), best, next(a for a in legal if a != best)
            hand.apply(seat, best)
    raise AssertionError("no such position")


def test_two_discards_are_framed_on_their_cards() -> None:
    view, best, his = _position(lambda legal: len(set(legal)) > 3
                                and all(a.startswith("d:") for a in legal))
    scene = layout_difference(view, 7, 1, 5, ("Bob", his), ("Ann", best), NAMES)
    cards = {c.kind: c for c in scene.cards if c.role == "hand"}
    for action in (best, his):
        assert scene.named[f"mark:{action}"].contains(cards[A.parse(action).card].visible)


def test_two_answers_to_one_card_are_framed_one_around_the_other() -> None:
    view, best, his = _position(lambda legal: sum(a.startswith("c:") for a in legal) > 1)
    if A.parse(his).kind != "chi":  # the strong choice was not a 吃: compare two 吃
        his = next(a for a in view.legal if a.startswith("c:") and a != best)
    scene = layout_difference(view, 7, 1, 2, ("Bob", his), ("Ann", best), NAMES)
    inner, outer = scene.named[f"mark:{best}"], scene.named[f"mark:{his}"]
    assert outer.contains(inner) and outer != inner


def test_a_pass_is_a_label_and_a_stop_marks_nothing() -> None:
    view, best, _ = _position(lambda legal: A.PASS in legal and len(legal) > 1)
    scene = layout_difference(view, 7, 1, 2, ("Bob", None), ("Ann", A.PASS), NAMES)
    assert f"mark:{A.PASS}" in scene.named
    assert [k for k in scene.named if k.startswith("mark:")] == [f"mark:{A.PASS}"]
    assert render_difference(view, 7, 1, 2, ("Bob", None), ("Ann", A.PASS), NAMES)[:4] == \
        b"\x89PNG"
