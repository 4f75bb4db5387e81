"""Engine views built by hand (not played by the engine, so engine changes cannot move the
pictures made of them): a three-seat position with melds of every kind, a fourth seat, a
discarding seat and a 胡 with 名堂.
"""

from __future__ import annotations

from dataclasses import replace

from engine import cards as C
from engine.melds import Group, GroupKind
from engine.views import (
    Event,
    MeldView,
    Offer,
    OfferHow,
    Outcome,
    OutcomeKind,
    PrivateView,
    PublicView,
    SeatView,
    Win,
)

NAMES = ("小明", "Bartholomew Fitzwilliam III", "老王🀄‍🔥", "Zoë")


def cards(text: str) -> tuple[int, ...]:
    return tuple(C.parse_cards(text))


def meld(kind: GroupKind, text: str, up: str) -> MeldView:
    """``up``: one letter per card, U face up, D face down (shown as None to others)."""
    ks = cards(text)
    return MeldView(kind, ks, tuple(u == "U" for u in up))


def public(m: MeldView) -> MeldView:
    return MeldView(
        m.kind, tuple(k if u else None for k, u in zip(m.cards, m.face_up, strict=True)), m.face_up
    )


MELDS = (
    (
        meld(GroupKind.CHI, "一二三", "UUU"),
        meld(GroupKind.PENG, "七七七", "UUU"),
        meld(GroupKind.TI, "拾拾拾拾", "UDDD"),
        meld(GroupKind.WEI, "五五五", "DDD"),
    ),
    (meld(GroupKind.WEI, "捌捌捌", "DDD"), meld(GroupKind.CHOUWEI, "四四四", "UDD")),
    (meld(GroupKind.PAO, "陆陆陆陆", "UUUU"), meld(GroupKind.CHI, "二七十", "UUU")),
)


def public_view(outcome: Outcome | None = None) -> PublicView:
    seats = (
        SeatView(0, 9, tuple(public(m) for m in MELDS[0]), cards("四 叁 九"), 13),
        SeatView(1, 14, tuple(public(m) for m in MELDS[1]), cards("玖"), 0),
        SeatView(2, 13, MELDS[2], cards("壹 六 八 贰 伍 六 九 十 一 拾 柒"), 12),
    )
    return PublicView(
        rule_set="qq",
        dealer=1,
        seats=seats,
        stock_count=12,
        liangzhang=C.parse_card("贰"),
        offer=None if outcome else Offer(C.parse_card("柒"), 2, OfferHow.DISCARD),
        to_act=() if outcome else (0,),
        last_event=Event("discard", 2, cards("柒")),
        move_no=20,
        outcome=outcome,
    )


def private_view() -> PrivateView:
    return PrivateView(
        seat=0,
        public=public_view(),
        hand=cards("一 壹 二 贰 贰 叁 叁 叁 九"),
        kans=cards("叁"),
        melds=MELDS[0],
        huxi=19,
        chou=cards("四 叁"),
        legal=("pass",),
        highlight=C.parse_card("柒"),
    )


FOURTH = SeatView(
    3,
    11,
    (public(meld(GroupKind.TI, "六六六六", "UDDD")), meld(GroupKind.PENG, "玖玖玖", "UUU")),
    cards("一 肆 十 陆 五"),
    9,
)


def discarding_view(n: int) -> PrivateView:
    """Seat 0 must discard at a table of ``n`` seats (the 4th seat holds a hidden 提)."""
    pub = public_view()
    seats = (*pub.seats, FOURTH)[:n]
    last = Event("discard", 1, cards("玖"))
    pub = replace(pub, seats=seats, offer=None, to_act=(0,), dealer=n - 1, last_event=last)
    return replace(private_view(), public=pub, legal=("d:x1", "d:d1"), highlight=cards("九")[0])


# A winning hand of every group kind: 提, 坎, 吃, 碰, a 2-7-10 run, a 绞 and the pair.
WIN_GROUPS = (
    Group(GroupKind.TI, cards("拾拾拾拾")),
    Group(GroupKind.KAN, cards("叁叁叁")),
    Group(GroupKind.CHI, cards("一二三")),
    Group(GroupKind.PENG, cards("七七七")),
    Group(GroupKind.SEQ, cards("贰柒拾")),
    Group(GroupKind.JIAO, cards("九九玖")),
    Group(GroupKind.PAIR, cards("壹壹")),
)


def win_outcome() -> Outcome:
    win = Win(
        WIN_GROUPS,
        huxi=sum(g.huxi for g in WIN_GROUPS),
        mingtang=(("红胡", 2), ("大字胡", 6)),
        fan=8,
        di=7,
        zimo=True,
        haidi=True,
        tianhu=False,
        base=3,
        winner_points=336,
        loser_points=-168,
    )
    return Outcome(OutcomeKind.WIN, (336, -168, -168), winner=0, win=win)
