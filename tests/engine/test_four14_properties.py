"""four14 invariants over random hands (hypothesis), beyond those every rule set shares
(tests/engine/test_hand_properties.py: census, secrecy, zero sum, replay, every hand ends).

Wins on discards: the discarder is never asked to win on his own discard, and a discard win
names him in ``fed_by`` while all three other seats pay alike; 地胡 is never the dealer's.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine.rules import FOUR14
from engine.state import Hand
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


def check_discarder_not_asked(h: Hand) -> None:
    claim = h._claim
    if claim is not None and claim.offer.how == OfferHow.DISCARD:
        assert A.HU not in claim.options.get(claim.offer.seat, ())


@SETTINGS
@given(SEEDS, DEALERS)
def test_a_discard_win_names_its_feeder_and_all_three_others_pay_alike(seed: int, dealer: int) -> None:
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
