"""Invariants over random hands (hypothesis): cards, secrecy, termination, zero sum, replay."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules import QQ
from engine.state import _FACE_UP, Hand
from engine.views import PublicView

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seed: int, dealer: int, check) -> Hand:
    """A random game; ``check(hand)`` runs after the deal and after every action."""
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=dealer)
    check(h)
    for _ in range(400):
        if h.is_terminal():
            break
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
        check(h)
    assert h.is_terminal(), "every hand ends"
    return h


def publicly_known(h: Hand) -> Counter:
    """What everyone has seen lying face up: discard rows, face-up meld cards, the offer."""
    known: Counter = Counter()
    for s in h._seats:
        known.update(s.discards)
        for g in s.melds:
            known.update(k for k, up in zip(g.cards, _FACE_UP[g.kind], strict=True) if up)
    if h._claim is not None and h._claim.offer.how != "liang":
        known[h._claim.offer.card] += 1
    return known


def shown(view: PublicView) -> Counter:
    seen: Counter = Counter()
    for seat in view.seats:
        seen.update(seat.discards)
        for m in seat.melds:
            seen.update(k for k in m.cards if k is not None)
    if view.offer is not None and view.offer.how != "liang":
        seen[view.offer.card] += 1
    return seen


def check_secrecy(h: Hand) -> None:
    public = h.public_view()
    assert shown(public) == publicly_known(h)
    for seat in range(3):
        private = h.private_view(seat)
        assert private.public == public  # another seat's view adds nothing about the others
        own = Counter(private.hand)
        for m in private.melds:
            own.update(m.cards)
        assert own == Counter(_cards_of(h, seat))
    for e in h.history:
        if e.visible_to is None:
            assert e.kind != "deal"
            if e.kind == "wei":
                assert e.cards == ()


def _cards_of(h: Hand, seat: int) -> list[int]:
    s = h._seats[seat]
    cards = [k for k, n in enumerate(s.hand) for _ in range(n)]
    return cards + [k for g in s.melds for k in g.cards]


@SETTINGS
@given(SEEDS, st.integers(0, 2))
def test_all_80_cards_accounted_for_after_every_action(seed: int, dealer: int) -> None:
    play(seed, dealer, check_census)


def check_census(h: Hand) -> None:
    census = h.card_census()
    assert census == [4] * 20, f"cards lost or doubled: {census}"


@SETTINGS
@given(SEEDS, st.integers(0, 2))
def test_no_public_or_other_seat_view_shows_a_hidden_card(seed: int, dealer: int) -> None:
    play(seed, dealer, check_secrecy)


@SETTINGS
@given(SEEDS, st.integers(0, 2))
def test_every_hand_ends_and_points_sum_to_zero(seed: int, dealer: int) -> None:
    h = play(seed, dealer, lambda h: None)
    assert sum(h.returns()) == 0
    assert h.legal_actions(0) == h.legal_actions(1) == h.legal_actions(2) == ()


@SETTINGS
@given(SEEDS, st.integers(0, 2), st.integers(0, 120))
def test_replay_gives_an_identical_state(seed: int, dealer: int, cut: int) -> None:
    h = play(seed, dealer, lambda h: None)
    log = h.log[:cut]
    a = Hand.replay(QQ, seed=seed, dealer=dealer, log=log)
    b = Hand.from_dict(a.to_dict())
    assert a.public_view() == b.public_view()
    assert all(a.private_view(s) == b.private_view(s) for s in range(3))
    assert a.history == b.history and a.outcome == b.outcome
