"""Invariants over random four14 hands (hypothesis): census, secrecy, zero sum, replay, the end.

Four seats all playing, and wins on discards: the discarder is never asked to win on his own
discard, and a discard win names him in ``fed_by`` while every other seat pays.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine.rules import FOUR14
from engine.state import _FACE_UP, Hand
from engine.views import OfferHow, OutcomeKind

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
DEALERS = st.integers(0, 3)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seed: int, dealer: int, check) -> Hand:
    """A random four14 hand, wins taken more often than not (so that many hands are won);
    ``check(hand)`` runs after the deal and after every action."""
    rng = random.Random(seed)
    h = Hand.new(FOUR14, seed=seed, dealer=dealer)
    check(h)
    for _ in range(400):
        if h.is_terminal():
            break
        seat = rng.choice(h.to_act())
        legal = h.legal_actions(seat)
        h.apply(seat, A.HU if A.HU in legal and rng.random() < 0.6 else rng.choice(legal))
        check(h)
    assert h.is_terminal(), "every hand ends"
    return h


def check_census(h: Hand) -> None:
    assert h.card_census() == [4] * 20


def check_secrecy(h: Hand) -> None:
    """The public view shows exactly the face-up cards; a seat's view adds only its own."""
    public = h.public_view()
    shown: Counter = Counter()
    for seat in public.seats:
        shown.update(seat.discards)
        for m in seat.melds:
            shown.update(k for k in m.cards if k is not None)
    known: Counter = Counter()
    for s in h._seats:
        known.update(s.discards)
        for g in s.melds:
            known.update(k for k, up in zip(g.cards, _FACE_UP[g.kind], strict=True) if up)
    if public.offer is not None and public.offer.how != OfferHow.LIANG:
        shown[public.offer.card] += 1
        known[h._claim.offer.card] += 1
    assert shown == known
    assert public.to_act == () or not public.waiting  # who is asked is never public
    for seat in range(4):
        private = h.private_view(seat)
        assert private.public == public
        own = Counter(private.hand)
        for m in private.melds:
            own.update(m.cards)
        s = h._seats[seat]
        assert own == Counter([k for k, n in enumerate(s.hand) for _ in range(n)]
                              + [k for g in s.melds for k in g.cards])
    assert all(e.kind != "deal" for e in h.history if e.visible_to is None)


def check_discarder_not_asked(h: Hand) -> None:
    claim = h._claim
    if claim is not None and claim.offer.how == OfferHow.DISCARD:
        assert A.HU not in claim.options.get(claim.offer.seat, ())


@SETTINGS
@given(SEEDS, DEALERS)
def test_all_80_cards_accounted_for_after_every_action(seed: int, dealer: int) -> None:
    play(seed, dealer, check_census)


@SETTINGS
@given(SEEDS, DEALERS)
def test_no_public_or_other_seat_view_shows_a_hidden_card(seed: int, dealer: int) -> None:
    play(seed, dealer, check_secrecy)


@SETTINGS
@given(SEEDS, DEALERS)
def test_every_hand_ends_zero_sum_and_a_discard_win_names_its_feeder(seed: int, dealer: int) -> None:
    h = play(seed, dealer, check_discarder_not_asked)
    o = h.outcome
    assert sum(o.points) == 0 and all(h.legal_actions(s) == () for s in range(4))
    if o.kind == OutcomeKind.WIN:
        last = h.history[-1]
        assert last.kind in ("hu", "tianhu") and last.seat == o.winner
        before = [e for e in h.history[:-1] if e.visible_to is None][-1]
        assert o.fed_by == (before.seat if before.kind == "discard" else None)
        assert o.fed_by != o.winner
        losers = [p for s, p in enumerate(o.points) if s != o.winner]
        assert len(set(losers)) == 1 and losers[0] < 0  # all three others pay alike
        assert not (o.win.dihu and o.winner == dealer)
        assert not (o.win.dihu and o.win.tianhu)


@SETTINGS
@given(SEEDS, DEALERS, st.integers(0, 90))
def test_replay_gives_an_identical_state(seed: int, dealer: int, cut: int) -> None:
    h = play(seed, dealer, lambda h: None)
    a = Hand.replay(FOUR14, seed=seed, dealer=dealer, log=h.log[:cut])
    b = Hand.from_dict(a.to_dict())
    assert b.rules == FOUR14 and a.to_dict()["rules"] == "four14"
    assert a.public_view() == b.public_view()
    assert all(a.private_view(s) == b.private_view(s) for s in range(4))
    assert a.history == b.history and a.outcome == b.outcome
