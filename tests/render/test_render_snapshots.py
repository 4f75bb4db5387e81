"""Pictures of hand-built positions compared with reference PNGs in ``tests/snapshots/``.

The views are built by hand (not played by the engine) so that engine changes cannot move
them. A snapshot passes when the size is equal, the mean absolute difference per channel is
at most ``MEAN_TOLERANCE`` (anti-aliasing may differ slightly between FreeType builds) and
at most ``STRONG_SHARE`` of the pixels differ strongly (so that one wrong digit still fails).

After an intended change of the pictures, regenerate and look at them:

    UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/render/test_render_snapshots.py
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

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
    Ting,
    Wait,
    Win,
)
from render.hand import layout_hand
from render.scene import Scene, Text, paint
from render.settlement import layout_settlement
from render.table import layout_table

SNAPSHOTS = Path(__file__).parents[1] / "snapshots"
MEAN_TOLERANCE = 0.5  # mean absolute difference per channel, 0..255
STRONG = 48  # a pixel "differs strongly" when some channel differs by more than this
STRONG_SHARE = 0.0001  # of all pixels
NAMES = ("小明", "Bartholomew Fitzwilliam III", "老王🀄‍🔥", "Zoë")
TOTALS = (1234, -560, 88)


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


def waiting_view(n: int) -> PrivateView:
    """The table waits for answers on seat 1's discard; seat 0 has nothing to answer."""
    pub = public_view()
    seats = (*pub.seats, FOURTH)[:n]
    offer = Offer(C.parse_card("陆"), 1, OfferHow.DISCARD)
    pub = replace(pub, seats=seats, offer=offer, to_act=(), waiting=True)
    return replace(private_view(), public=pub, legal=())


TING = Ting(
    waits=(Wait(C.parse_card("六"), 3), Wait(C.parse_card("九"), 0)),
    by_discard=(
        (C.parse_card("一"), (Wait(C.parse_card("六"), 3), Wait(C.parse_card("九"), 0))),
        (C.parse_card("壹"), (Wait(C.parse_card("陆"), 1),)),
    ),
)
WAITS = Ting(waits=TING.waits)


def win_outcome() -> Outcome:
    groups = (
        Group(GroupKind.TI, cards("拾拾拾拾")),
        Group(GroupKind.KAN, cards("叁叁叁")),
        Group(GroupKind.CHI, cards("一二三")),
        Group(GroupKind.PENG, cards("七七七")),
        Group(GroupKind.SEQ, cards("贰柒拾")),
        Group(GroupKind.JIAO, cards("九九玖")),
        Group(GroupKind.PAIR, cards("壹壹")),
    )
    win = Win(
        groups,
        huxi=sum(g.huxi for g in groups),
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


CASES = {
    "hand_zh": lambda: layout_hand(private_view(), NAMES, "zh"),
    "seat3_en": lambda: layout_hand(
        discarding_view(3), NAMES, "en", trustee=frozenset({1}), robots=frozenset({2}), ting=TING
    ),
    "seat4_zh": lambda: layout_hand(
        waiting_view(4), NAMES, "zh", trustee=frozenset({0, 3}), ting=WAITS
    ),
    "seat2_en": lambda: layout_hand(discarding_view(2), NAMES, "en", ting=TING),
    "table_en": lambda: layout_table(public_view(), NAMES, "en"),
    "table_waiting_zh": lambda: layout_table(
        waiting_view(3).public, NAMES, trustee=frozenset({0}), robots=frozenset({2})
    ),
    "settlement_win_zh": lambda: layout_settlement(public_view(win_outcome()), NAMES, TOTALS),
    "settlement_draw_en": lambda: layout_settlement(
        public_view(Outcome(OutcomeKind.DRAW, (0, 0, 0))), NAMES, TOTALS, "en"
    ),
    "settlement_escape_zh": lambda: layout_settlement(
        public_view(Outcome(OutcomeKind.ESCAPE, (30, -60, 30), escaper=1)), NAMES, None
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    scene: Scene = CASES[name]()
    assert_snapshot(name, paint(scene))


def assert_snapshot(name: str, img: Image.Image) -> None:
    """``img`` looks like the stored ``snapshots/<name>.png`` (rewritten, to be looked at,
    when UPDATE_SNAPSHOTS=1)."""
    path = SNAPSHOTS / f"{name}.png"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        img.save(path, optimize=True)
    assert path.exists(), f"missing {path}: run with UPDATE_SNAPSHOTS=1 and look at it"
    ref = Image.open(path).convert("RGB")
    assert ref.size == img.size
    assert similar(ref, img), f"{name} differs from {path}"


def texts(scene: Scene) -> list[str]:
    """The words a scene draws, in drawing order."""
    return [t.text for t in scene.items if isinstance(t, Text)]


def similar(a: Image.Image, b: Image.Image) -> bool:
    diff = ImageChops.difference(a, b)
    mean = max(ImageStat.Stat(diff).mean)
    strong = diff.point(lambda v: 255 if v > STRONG else 0).convert("L")
    share = strong.point(lambda v: 255 if v else 0).histogram()[255] / (a.width * a.height)
    return mean <= MEAN_TOLERANCE and share <= STRONG_SHARE


def test_snapshot_comparison_notices_a_small_change() -> None:
    """One digit of the stock count is enough to fail the comparison."""
    a = paint(layout_table(public_view(), NAMES, "en"))
    assert similar(a, paint(layout_table(public_view(), NAMES, "en")))
    b = paint(layout_table(replace(public_view(), stock_count=11), NAMES, "en"))
    assert not similar(a, b)


def test_a_forced_tianhu_with_many_groups_wraps_them() -> None:
    """A forced 天胡 needs no meld structure: 5 坎 and 3 pairs make 8 groups."""
    groups = tuple(Group(GroupKind.KAN, (k,) * 3) for k in cards("一二三四五")) + tuple(
        Group(GroupKind.PAIR, (k, k)) for k in cards("壹贰叁")
    )
    win = replace(win_outcome().win, groups=groups, tianhu=True)  # type: ignore[type-var]
    outcome = replace(win_outcome(), win=win)
    scene = layout_settlement(public_view(outcome), NAMES, TOTALS)
    slots = [c for c in scene.cards if c.role == "group"]
    assert len(slots) == 21
    panel_x = max(c.rect.right for c in slots)
    assert panel_x < scene.width - 200  # the score panel keeps its room
    assert len({c.rect.x for c in slots}) == 7
    assert slots[-1].rect.y > slots[0].rect.bottom  # the 8th group starts a second row
    assert max(c.rect.bottom for c in slots) < scene.height
