"""听牌 (engine.ting): waits from a seat's private view, and how many are unseen."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.handkit import card, cards

from engine import actions as A
from engine import analyzer
from engine import cards as C
from engine.melds import Group, GroupKind
from engine.rules import FOUR14, QQ
from engine.state import Hand, IllegalAction
from engine.ting import ting, waits_now
from engine.views import MeldView, Offer, OfferHow, PrivateView, PublicView, SeatView, Ting

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def meld(kind: GroupKind, text: str, owner: bool) -> MeldView:
    up = {
        GroupKind.WEI: (False,) * 3, GroupKind.CHOUWEI: (True, False, False),
        GroupKind.TI: (True, False, False, False),
    }.get(kind, (True,) * len(cards(text)))
    return MeldView(kind, tuple(k if owner or u else None for k, u in zip(cards(text), up, strict=True)), up)


def view(
    hand_text: str,
    melds: tuple[tuple[GroupKind, str], ...] = (),
    *,
    legal: tuple[str, ...] = (),
    others: tuple[tuple[GroupKind, str], ...] = (),
    discards: str = "",
    offer: Offer | None = None,
    no_win: str = "",
) -> PrivateView:
    """Seat 0's view: ``others`` lie in seat 1's table area, ``discards`` in seat 2's row."""
    seats = (
        SeatView(0, len(cards(hand_text)), tuple(meld(k, t, False) for k, t in melds), (), 0),
        SeatView(1, 10, tuple(meld(k, t, False) for k, t in others), (), 0),
        SeatView(2, 20, (), tuple(cards(discards)), 0),
    )
    public = PublicView("qq", 1, seats, 10, card("一"), offer, (), None, 0, None)
    hand_cards = tuple(sorted(cards(hand_text), key=C.sort_key))
    return PrivateView(
        seat=0, public=public, hand=hand_cards,
        kans=tuple(k for k in set(hand_cards) if hand_cards.count(k) == 3),
        melds=tuple(meld(k, t, True) for k, t in melds), huxi=0, chou=(), legal=legal,
        highlight=None, no_win=tuple(cards(no_win)),
    )


def wait_cards(t: Ting) -> str:
    return C.format_cards(w.card for w in t.waits)


@pytest.mark.parametrize(
    ("hand_text", "melds", "waits"),
    [
        # a 一句话 missing its middle card
        ("壹壹壹贰贰贰一二三四五六七八九肆伍陆柒玖", (), "捌"),
        # 肆伍 柒捌 ahead of 陆: three cards complete it (叁肆伍 陆柒捌, 肆伍陆 柒捌玖, 肆伍陆 陆柒捌)
        ("壹壹壹贰贰贰一二三四五六七八九肆伍陆柒捌", (), "叁陆玖"),
        # 二七 waiting for 十 (二七十 scores 3)
        ("壹壹壹叁叁叁三四五六七八肆伍陆柒捌玖二七", (), "十"),
        # with a 提 a pair is required: either pair may become the set (偎/碰) or a 绞 (八捌捌,
        # 九玖玖), the other the 将
        ("一二三四五六二七十肆伍陆捌捌玖玖", ((GroupKind.TI, "壹壹壹壹"),), "八九捌玖"),
        # too little 胡息 (6 + 3 < 15): no wait at all
        ("叁叁叁一二三四五六七八九肆伍陆柒捌玖九十", (), ""),
    ],
)
def test_known_waits(hand_text: str, melds, waits: str) -> None:
    assert wait_cards(ting(QQ, view(hand_text, melds))) == waits


def test_four14_a_kind_of_ones_own_peng_waits_on_a_discard_as_a_loose_card() -> None:
    # 碰 九, 碰 四, 一二三 壹贰叁 and 七八: 六 or 九 makes a 一句话; a drawn 九 must 跑 the 碰 and
    # leaves 七八 unmatched, a discarded 九 stays loose (docs/rules/four14.md, 胡牌 · Winning).
    v = view("一二三七八壹贰叁", ((GroupKind.PENG, "九九九"), (GroupKind.PENG, "四四四")))
    assert wait_cards(ting(FOUR14, v)) == "六九"
    assert wait_cards(ting(QQ, v)) == ""  # qq: 7 门子 and 15 胡息, and no discard is won on


def test_a_kan_waits_for_its_fourth_card() -> None:
    # 九九九 坎: the fourth 九 makes a 提 (his draw) or a 跑 (破跑胡), and the pair 十十 the 将;
    # without it, 十 makes the pair a set and 拾 a 绞 十十拾
    t = ting(QQ, view("九九九壹贰叁贰柒拾四五六肆伍陆一二三十十"))
    assert wait_cards(t) == "九十拾"


def test_unseen_counts_every_copy_this_seat_can_see() -> None:
    v = view(
        "壹壹壹贰贰贰一二三四五六七八九肆伍陆柒捌",  # waits 陆 and 玖
        others=((GroupKind.TI, "玖玖玖玖"),),  # one 玖 face up names the whole 提
        discards="陆",
        offer=Offer(card("陆"), 2, OfferHow.DRAW),
    )
    assert [(C.to_char(w.card), w.unseen) for w in ting(QQ, v).waits] == [
        ("叁", 4), ("陆", 1), ("玖", 0),  # 陆: his own, one in a row, the one on offer
    ]


def test_unseen_counts_own_hidden_melds_but_not_another_seats_wei() -> None:
    # his own face-down 偎 of 捌 waits to become a 提: only one 捌 is left unseen
    t = ting(QQ, view("壹壹壹一二三二七十四五六肆伍陆玖玖", ((GroupKind.WEI, "捌捌捌"),)))
    assert [(C.to_char(w.card), w.unseen) for w in t.waits] == [
        ("九", 4), ("壹", 1), ("捌", 1), ("玖", 2),  # 九玖玖; 提/跑 壹 or 捌 with 将 玖玖; 偎/碰 玖
    ]
    # another seat's 偎 shows nothing; its 臭偎 shows one card and so its kind
    waiting = "壹壹壹贰贰贰一二三四五六七八九肆伍陆柒玖"  # waits 捌
    hidden = ting(QQ, view(waiting, others=((GroupKind.WEI, "捌捌捌"),)))
    shown = ting(QQ, view(waiting, others=((GroupKind.CHOUWEI, "捌捌捌"),)))
    assert [w.unseen for w in hidden.waits] == [4]
    assert [w.unseen for w in shown.waits] == [1]


def test_chou_hu_kinds_are_no_waits() -> None:
    t = ting(QQ, view("壹壹壹贰贰贰一二三四五六七八九肆伍陆柒捌", no_win="玖"))
    assert wait_cards(t) == "叁陆"


def test_by_discard_lists_each_discard_that_leaves_the_hand_ting() -> None:
    v = view(
        "壹壹壹贰贰贰一二三四五六七八九肆伍陆柒玖十",
        legal=(A.discard(card("一")), A.discard(card("柒")), A.discard(card("十"))),
    )
    t = ting(QQ, v)
    assert t.waits == ()
    assert [(C.to_char(d), wait_cards(Ting(w))) for d, w in t.by_discard] == [("十", "捌")]


# ----- properties over random hands ------------------------------------------------------------


def random_views(seed: int, dealer: int) -> list[PrivateView]:
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=dealer)
    out = []
    while not h.is_terminal():
        out += [h.private_view(s) for s in range(3)]
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
    return out


def slow_waits(v: PrivateView) -> list[int]:
    """The waits straight from analyzer.analyze, kind by kind (the oracle for ting's shortcuts)."""
    hand_counts = C.counts(v.hand)
    melds = [Group(m.kind, tuple(m.cards)) for m in v.melds]  # type: ignore[arg-type]
    own = C.counts([*v.hand, *(k for m in v.melds for k in m.cards)])  # type: ignore[misc]
    return [
        k for k in range(C.KINDS)
        if k not in v.no_win and own[k] < 4 and any(
            analyzer.analyze(QQ, hand_counts, melds, k, source=src) for src in ("self", "other")
        )
    ]


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_waits_are_the_analyzers_wins_and_by_discard_the_waits_after_each_discard(
    seed: int, dealer: int
) -> None:
    for v in random_views(seed, dealer)[::7]:
        t = ting(QQ, v)
        discards = [A.parse(a).card for a in v.legal if a.startswith("d:")]
        if not discards:
            assert [w.card for w in t.waits] == slow_waits(v)
            continue
        expected = []
        for d in discards:
            after = list(v.hand)
            after.remove(d)
            offer = Offer(d, v.seat, OfferHow.DISCARD)  # after it, the card lies face up
            public = dataclasses.replace(v.public, offer=offer)
            waits = ting(QQ, dataclasses.replace(v, hand=tuple(after), legal=(), public=public)).waits
            if waits:
                expected.append((d, waits))
        assert t.by_discard == tuple(expected)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_waits_now_are_tings_waits(seed: int, dealer: int) -> None:
    """The live page's 听 (``waits_now``) is ``ting``'s own waits, none while discarding."""
    for v in random_views(seed, dealer)[::5]:
        assert waits_now(QQ, v) == ting(QQ, v).waits


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 2), st.integers(0, 2), st.floats(0.1, 0.9))
def test_a_hidden_card_elsewhere_never_changes_ting(
    seed: int, dealer: int, seat: int, cut_frac: float
) -> None:
    """Swap a card of another seat's hand with an undrawn stock card: same view, same 听."""
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=dealer)
    while not h.is_terminal():
        s = rng.choice(h.to_act())
        h.apply(s, rng.choice(h.legal_actions(s)))
    cut = int(len(h.log) * cut_frac)
    real = Hand.replay(QQ, seed=seed, dealer=dealer, log=h.log[:cut])
    deck = list(real.deck)
    other = rng.choice([s for s in range(3) if s != seat])
    start = sum(QQ.dealer_cards if s == dealer else QQ.other_cards for s in
                real._order_from(dealer)[: real._order_from(dealer).index(other)])
    size = (QQ.dealer_cards - 1) if other == dealer else QQ.other_cards  # not the 亮张
    i = rng.randrange(start, start + size)
    j = rng.randrange(len(deck) - real.stock_count, len(deck)) if real.stock_count else None
    if j is None or deck[i] == deck[j]:
        return
    deck[i], deck[j] = deck[j], deck[i]
    try:
        swapped = Hand.replay(QQ, deck=deck, dealer=dealer, log=h.log[:cut])
    except IllegalAction:
        return
    a, b = real.private_view(seat), swapped.private_view(seat)
    if a == b:
        assert ting(QQ, a) == ting(QQ, b)


def test_a_declined_win_is_no_wait_until_the_current_huxi_changes() -> None:
    """臭胡 (docs/rules/qq.md, 行牌: 臭) reaches ting through PrivateView.no_win."""
    from support.handkit import hand

    h = hand(dealer="壹贰叁壹贰叁一二三四五六七八九肆伍陆柒捌玖", xia="壹贰叁二七十贰柒拾一二三四五六肆伍陆柒捌")
    assert A.HU in h.legal_actions(1)  # 天胡 on the 亮张 玖
    before = ting(QQ, h.private_view(1))
    h.apply(1, A.PASS)
    h.apply(0, A.PASS)  # the dealer could win on it too
    after = h.private_view(1)
    assert after.no_win == (card("玖"),)
    assert card("玖") in [w.card for w in before.waits]
    assert card("玖") not in [w.card for w in ting(QQ, after).waits]
