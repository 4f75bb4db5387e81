"""four14 invariants over random hands (hypothesis), beyond those every rule set shares
(tests/engine/test_hand_properties.py: census, secrecy, zero sum, replay, every hand ends).

Wins on discards: the discarder is never asked to win on his own discard, and a discard win
names him in ``fed_by`` while all three other seats pay alike; 地胡 is never the dealer's. A 碰
never 跑s a discard (docs/rules/four14.md, 胡牌 · Winning): a discard meeting a seat's 碰 is
judged as one more loose card in that seat's hand.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine import analyzer
from engine import cards as C
from engine.chi import shapes_with
from engine.melds import Group, GroupKind
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


def as_loose_card(hand: list[int], card: int) -> list[int]:
    plus = list(hand)
    plus[card] += 1
    return plus


def check_no_peng_runs_a_discard(h: Hand) -> None:
    """Every seat with a 碰 of a discarded kind may win on it exactly when the card, as one more
    loose hand card, completes a win; and a win it takes keeps the 碰 a 碰."""
    claim = h._claim
    if claim is None or claim.offer.how != OfferHow.DISCARD:
        return
    c = claim.offer.card
    for seat in range(4):
        s = h._seats[seat]
        if seat == claim.offer.seat or s.meld_of(c, GroupKind.PENG) is None:
            continue
        loose = analyzer.analyze(FOUR14, as_loose_card(s.hand, c), s.melds, base=h.base)
        offered = A.HU in claim.options.get(seat, ())
        assert offered == (loose is not None and s.may_win_on(c))
        if offered and seat not in claim.answers:
            won = copy.deepcopy(h)
            for other in won.to_act():  # nearer winners pass, so that this seat's 胡 counts
                if other != seat and won.outcome is None and other in won.to_act():
                    won.apply(other, A.PASS)
            if won.outcome is None and seat in won.to_act():
                won.apply(seat, A.HU)
                assert won.outcome.winner == seat and won.outcome.win == loose
                assert Group(GroupKind.PENG, (c,) * 3) in won.outcome.win.groups


@SETTINGS
@given(SEEDS, DEALERS)
def test_no_win_on_a_discard_turns_a_peng_into_a_pao_of_it(seed: int, dealer: int) -> None:
    play(seed, dealer, check_no_peng_runs_a_discard)


@st.composite
def peng_meets_discard(draw) -> tuple[list[int], list[Group], int]:
    """A four14 holding with a 碰 of the discarded kind and 14 cards, near a win: two cards
    waiting for the discard in a 一句话 or 绞, or a pair a 跑 of it would need as 将."""
    c = draw(st.integers(0, C.KINDS - 1))
    melds = [Group(GroupKind.PENG, (c,) * 3)]
    melds += [Group(GroupKind.PENG, (k,) * 3) for k in draw(st.lists(st.integers(0, 19), max_size=2))]
    if draw(st.booleans()):
        wait = list(draw(st.sampled_from(shapes_with(c))))
        wait.remove(c)
    else:
        wait = [draw(st.integers(0, C.KINDS - 1))] * 2
    size = 14 - 3 * len(melds)
    groups = draw(st.lists(st.sampled_from(SHAPES), min_size=4, max_size=4))
    cards = [*wait, *(k for g in groups for k in g)][:size]
    total = C.counts([*cards, *(k for g in melds for k in g.cards), c])
    assume(max(total) <= C.COPIES and c not in cards)
    return C.counts(cards), melds, c


SHAPES = sorted({shape for k in range(C.KINDS) for shape in shapes_with(k)})


@settings(max_examples=300, deadline=None)
@given(peng_meets_discard())
def test_a_discard_meeting_a_peng_is_judged_as_a_loose_card(holding) -> None:
    hand, melds, c = holding
    win = analyzer.analyze(FOUR14, hand, melds, c, source="discard")
    assert win == analyzer.analyze(FOUR14, as_loose_card(hand, c), melds)
