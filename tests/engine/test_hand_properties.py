"""Invariants over random hands (hypothesis): cards, secrecy, termination, zero sum, replay —
over every rule set and seat count (qq; hunan with 4 seats and a 醒家, 3, and 2 either way;
four14)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine.rules import QQ, RuleSet, get_rule_set
from engine.seat import FACE_UP
from engine.state import Hand, Phase, card_census
from engine.views import PublicView

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
RULES = tuple(map(get_rule_set, (
    "qq", "hunan/4", "hunan/3", "hunan/2/min21", "hunan/2/setaside", "four14",
)))
TABLES = st.sampled_from(RULES).flatmap(
    lambda r: st.tuples(st.just(r), st.integers(0, r.players - 1))
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(table: tuple[RuleSet, int], seed: int, check) -> Hand:
    """A random game; ``check(hand)`` runs after the deal and after every action."""
    rules, dealer = table
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=dealer)
    check(h)
    for _ in range(400):
        if h.is_terminal():
            break
        assert h.public_view().xing not in h.to_act(), "the 醒家 is never asked"
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
            known.update(k for k, up in zip(g.cards, FACE_UP[g.kind], strict=True) if up)
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
    for seat in range(h.players):
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
@given(TABLES, SEEDS)
def test_all_80_cards_accounted_for_after_every_action(table, seed: int) -> None:
    play(table, seed, check_census)


def check_census(h: Hand) -> None:
    census = card_census(h)
    assert census == [4] * 20, f"cards lost or doubled: {census}"


@SETTINGS
@given(TABLES, SEEDS)
def test_no_public_or_other_seat_view_shows_a_hidden_card(table, seed: int) -> None:
    play(table, seed, check_secrecy)


@SETTINGS
@given(TABLES, SEEDS)
def test_every_hand_ends_and_points_sum_to_zero(table, seed: int) -> None:
    """Zero sum with the 醒家 counted in: his 醒筹 come from the losers (or a 荒牌 dealer)."""
    h = play(table, seed, lambda h: None)
    assert sum(h.returns()) == 0
    assert all(h.legal_actions(s) == () for s in range(h.players))
    xing = h.public_view().xing
    if xing is not None:
        assert h.outcome.xing == xing and h.returns()[xing] >= 0


@SETTINGS
@given(TABLES, SEEDS, st.integers(0, 120))
def test_replay_gives_an_identical_state(table, seed: int, cut: int) -> None:
    rules, dealer = table
    h = play(table, seed, lambda h: None)
    log = h.log[:cut]
    a = Hand.replay(rules, seed=seed, dealer=dealer, log=log)
    b = Hand.from_dict(a.to_dict())
    assert a.rules == b.rules
    assert a.public_view() == b.public_view()
    assert all(a.private_view(s) == b.private_view(s) for s in range(h.players))
    assert a.history == b.history and a.outcome == b.outcome


@SETTINGS
@given(SEEDS, st.integers(0, 2))
@example(7782212, 0)  # play goes round to the 吃-er's own next draw within one step
def test_after_a_chi_or_peng_he_discards_whenever_5_5_obliges_him(seed: int, dealer: int) -> None:
    """决定 9 of docs/rules/qq.md: a 吃/碰 is offered only when a card is left to discard if the
    discard rule then obliges one."""
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=dealer)
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        events = h.apply(seat, rng.choice(h.legal_actions(seat)))
        for i, e in enumerate(events):
            if e.kind not in ("chi", "peng"):
                continue
            s = h._seats[e.seat]
            if h.phase == Phase.DISCARD and h._actor == e.seat:
                assert h.legal_actions(e.seat)
            else:  # he went on without discarding: the discard rule must not have obliged him
                # Play may go round to his own next draw in the same step; a draw (or a card
                # sent to the row) leaves his cards as the 吃/碰 left them, so they still tell.
                later = {x.kind for x in events[i + 1 :] if x.seat == e.seat}
                if later <= {"draw", "to_row"}:
                    assert s.card_total <= QQ.discard_threshold(s.ti_pao)


KINDS = st.integers(0, 19)


@st.composite
def few_loose_cards(draw: st.DrawFn) -> tuple[list[int], int]:
    """A seat at rest (20 cards, no 提/跑) with up to four 坎 and two or five loose cards, and
    a card offered to it: the positions where a 吃/碰 may use up every loose card."""
    kans = draw(st.lists(KINDS, min_size=0, max_size=4, unique=True))
    loose_size = draw(st.sampled_from((2, 5)))
    loose = draw(st.lists(KINDS.filter(lambda k: k not in kans), min_size=loose_size,
                          max_size=loose_size).filter(lambda ks: max(Counter(ks).values()) <= 2))
    hand = [0] * 20
    for k in kans:
        hand[k] = 3
    for k in loose:
        hand[k] += 1
    offered = draw(KINDS.filter(lambda k: hand[k] < 3))
    return hand, offered


@SETTINGS
@given(few_loose_cards())
def test_every_chi_or_peng_offered_leaves_a_card_to_discard(position) -> None:
    """决定 9 over constructed positions: the options seat 1 gets on seat 0's discard are exactly
    the 吃/碰 after which he still holds a discardable card."""
    from engine.chi import chi_options
    from engine.melds import Group, GroupKind
    from engine.views import Offer, OfferHow

    hand, card = position
    h = Hand.new(QQ, seed=0)
    for other in (0, 2):  # nobody else holds anything: no 跑 or 胡 pre-empts seat 1
        h._seats[other].hand, h._seats[other].melds = [0] * 20, []
    seat = h._seats[1]
    seat.hand, seat.chou = list(hand), set()
    seat.melds = [Group(GroupKind.CHI, (0, 1, 2))] * ((20 - sum(hand)) // 3)
    h._open_claim(Offer(card, 0, OfferHow.DISCARD), haidi=False)
    waiting = h._claim is not None and h._claim.offer.card == card
    offered = set(h._claim.options.get(1, ())) if waiting else set()

    def keeps_a_discard(used: list[int]) -> bool:
        after = Counter(k for k, n in enumerate(hand) for _ in range(n))
        after.subtract(used)
        return any(0 < after[k] < 3 for k in after)

    def chi_hand_cards(groups: tuple[tuple[int, ...], ...]) -> list[int]:
        used = [k for g in groups for k in g]
        used.remove(card)
        return used

    expected = {A.chi(g) for g in chi_options(hand, card) if keeps_a_discard(chi_hand_cards(g))}
    if hand[card] == 2 and keeps_a_discard([card, card]):
        expected.add(A.PENG)
    assert offered - {A.PASS, A.HU} == expected
