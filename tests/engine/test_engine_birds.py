"""打鸟 (docs/rules/hunan.md, 打鸟): the bird card names a seat; birds share its result."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards as C
from engine.birds import bird_seat, settle_birds
from engine.rules import QQ, table_rules
from engine.simulate import play_random
from engine.state import Hand
from engine.views import Outcome, OutcomeKind, Win

H4 = table_rules("hunan", 4)


@pytest.mark.parametrize(
    ("cards", "steps"),
    [
        ("一壹五伍九玖", 0),  # the dealer
        ("二贰六陆十拾", 1),  # his 下家
        ("三叁七柒", 2),  # the 醒家, opposite the dealer
        ("四肆八捌", 3),  # his 上家
    ],
)
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bird_seat_by_the_cards_point(cards: str, steps: int, dealer: int) -> None:
    for card in C.parse_cards(cards):
        assert bird_seat(H4, dealer, card) == (dealer + steps) % 4
    if steps == 2:
        assert bird_seat(H4, dealer, C.parse_cards(cards)[0]) == H4.xing_seat(dealer)


def test_no_birds_where_the_rules_have_none() -> None:
    with pytest.raises(ValueError, match="no 打鸟"):
        bird_seat(QQ, 0, C.parse_card("一"))
    with pytest.raises(ValueError, match="no bird seat"):
        settle_birds(QQ, Outcome(OutcomeKind.DRAW, (0, 0, 0)), 0, 1)


def _win(winner: int, loss: int, points: tuple[int, ...], card: str) -> Outcome:
    win = Win((), 21, (), 1, loss, False, False, False, 1, 2 * loss, -loss)
    return Outcome(OutcomeKind.WIN, points, winner=winner, win=win, xing=2,
                   bird_card=C.parse_card(card))


# Dealer 0, 醒家 2; seat 1 wins 3 囤 at 底分 1: seats 0 and 3 pay him 3 and the 醒家 1 each.
WIN = (-4, 6, 2, -4)


def test_birds_on_the_winner_are_paid_by_each_loser_as_he_paid_the_winner() -> None:
    bird, seats = settle_birds(H4, _win(1, 3, WIN, "二"), 0, 2)  # 二: the 下家, seat 1
    assert bird == 6
    assert seats == (-6, 0, 0, -6)


def test_birds_on_a_loser_pay_the_winner_and_the_xing_as_he_did() -> None:
    bird, seats = settle_birds(H4, _win(1, 3, WIN, "肆"), 0, 1)  # 肆: the 上家, seat 3
    assert bird == -4
    assert seats == (0, 3, 1, 0)


def test_birds_on_the_xing_get_his_xing_chips_from_those_who_paid_him() -> None:
    bird, seats = settle_birds(H4, _win(1, 3, WIN, "柒"), 0, 3)  # 柒: the 醒家, seat 2
    assert bird == 2
    assert seats == (-3, 0, 0, -3)


def test_birds_on_the_dealer_after_a_huang_pay_the_xing_like_him() -> None:
    draw = Outcome(OutcomeKind.DRAW, (-1, 0, 1, 0), xing=2, bird_card=C.parse_card("伍"))
    assert settle_birds(H4, draw, 0, 2) == (-1, (0, 0, 2, 0))
    on_xiajia = Outcome(OutcomeKind.DRAW, (-1, 0, 1, 0), xing=2, bird_card=C.parse_card("六"))
    assert settle_birds(H4, on_xiajia, 0, 2) == (0, (0, 0, 0, 0))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 5))
def test_birds_share_their_seats_result_and_the_whole_stays_zero_sum(
    seed: int, dealer: int, birds: int
) -> None:
    """Over random hunan/4 hands (wins, 荒醒 and 逃跑): a bird wins or loses exactly what its
    seat did, and seats plus birds sum to zero."""
    rng = random.Random(seed)
    hand = Hand.new(H4, seed=seed, dealer=dealer, base=rng.choice((1, 2, 5)))
    if rng.random() < 0.2:
        hand.escape(rng.choice([s for s in range(4) if s != H4.xing_seat(dealer)]))
    else:
        play_random(hand, rng)
    outcome = hand.outcome
    assert outcome is not None and outcome.bird_card == hand.deck[-1]
    bird, seats = settle_birds(H4, outcome, dealer, birds)
    assert bird == outcome.points[bird_seat(H4, dealer, outcome.bird_card)]
    assert sum(seats) + birds * bird == 0
