"""当前胡息: the owner sees his full 胡息, the others only what lies face up.

``PrivateView.huxi`` counts every table meld (hidden 偎 and 提 included) and each 坎 in hand;
``SeatView.shown_huxi`` counts the melds whose kind the others can see: 吃, 碰, 跑, and 提 and
臭偎, which show one card; a plain 偎 is face down and counts nothing there (docs/rules/qq.md).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.handkit import advance_until, card, hand, take

from engine import actions as A
from engine.melds import Group, GroupKind
from engine.rules import QQ
from engine.state import Hand, Phase
from engine.views import MeldView, PublicView


def seat_one_must_discard(h: Hand) -> bool:
    return h.phase == Phase.DISCARD and h.to_act() == (1,)


def test_a_hidden_wei_counts_for_its_owner_only_and_a_ti_for_everyone() -> None:
    h = hand(dealer="拾", xia="三三三八八", stock="八捌玖三", keep_out={0: "三八", 2: "三八"})
    take(h, 0, A.discard(card("拾")))
    advance_until(h, seat_one_must_discard)  # he drew 八 onto his pair: a face-down 偎
    assert h.private_view(1).huxi == 3 + 3  # 坎 三 in hand, 偎 八
    assert h.public_view().seats[1].shown_huxi == 0
    take(h, 1, h.legal_actions(1)[0])
    advance_until(h, lambda h: len(h._seats[1].melds) == 2)  # he drew 三 onto his 坎: 提
    assert h.private_view(1).huxi == 3 + 9
    assert h.public_view().seats[1].shown_huxi == 9


def test_a_chou_wei_shows_its_kind_so_its_huxi_is_public() -> None:
    h = hand(dealer="九拾", xia="九九", stock="九", keep_out={0: "九", 2: "九"})
    take(h, 0, A.discard(card("九")))
    h.apply(1, A.PASS)  # 忍碰
    advance_until(h, lambda h: h._seats[1].melds)
    assert [m.kind for m in h.private_view(1).melds] == ["chouwei"]
    assert h.public_view().seats[1].shown_huxi == 3
    assert h.private_view(1).huxi == 3


def huxi_seen_in(melds: tuple[MeldView, ...]) -> int:
    """胡息 a viewer can work out from melds: a meld with a card face up shows its kind."""
    total = 0
    for m in melds:
        shown = [k for k in m.cards if k is not None]
        if shown:
            cards = tuple(shown) if len(shown) == len(m.cards) else (shown[0],) * len(m.cards)
            total += Group(m.kind, cards).huxi
    return total


def check_huxi(h: Hand) -> None:
    public: PublicView = h.public_view()
    for seat, s in enumerate(h._seats):
        assert public.seats[seat].shown_huxi == huxi_seen_in(public.seats[seat].melds)
        kans = sum(Group(GroupKind.KAN, (k,) * 3).huxi for k, n in enumerate(s.hand) if n == 3)
        won = h.outcome is not None and h.outcome.win is not None and h.outcome.winner == seat
        # a winner's view shows the settlement's 胡息合计: his whole hand is arranged then
        expected = h.outcome.win.huxi if won else sum(g.huxi for g in s.melds) + kans
        assert h.private_view(seat).huxi == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_shown_huxi_is_what_the_face_up_cards_tell(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=dealer)
    check_huxi(h)
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
        check_huxi(h)
