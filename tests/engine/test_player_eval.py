"""The evaluation (engine.player.eval): skipping the count of winning cards never changes a value
where the weights give those cards no value, and changes nothing where they do."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards as C
from engine.player import STRONG
from engine.player.eval import DEFAULT, Evaluator, Holding
from engine.rules import QQ

# 20 cards, 15 胡息 in six 一句话 and 柒捌 open: wins on 陆 or 玖
READY = "一二三壹贰叁贰柒拾四五六肆伍陆七八九柒捌"


def holding(kinds: list[int]) -> Holding:
    return Holding(tuple(C.counts(kinds)), (), frozenset())


def unseen_of(kinds: list[int]) -> list[int]:
    held = C.counts(kinds)
    return [C.COPIES - n for n in held]


def test_a_ready_hand_counts_its_winning_cards_unless_told_not_to() -> None:
    kinds = C.parse_cards(READY)
    ev = Evaluator(QQ, unseen_of(kinds), STRONG.style.weights)
    assert ev.score(holding(kinds)).win_cards > 0
    assert ev.score(holding(kinds), waits=False).win_cards == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), ready=st.booleans())
def test_skipping_the_winning_cards_keeps_the_value(seed: int, ready: bool) -> None:
    rng = random.Random(seed)
    if ready:
        kinds = C.parse_cards(READY)
    else:
        deck = C.full_deck()
        rng.shuffle(deck)
        kinds = deck[:20]
    h, unseen = holding(kinds), unseen_of(kinds)
    for weights in (STRONG.style.weights, DEFAULT):
        ev = Evaluator(QQ, unseen, weights)
        full, lean = ev.score(h), ev.score(h, waits=False)
        assert lean.value == full.value
    medium = Evaluator(QQ, unseen, DEFAULT)
    assert medium.score(h, waits=False) == medium.score(h)  # its weights value the waits
