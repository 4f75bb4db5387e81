"""Pictures of hand-built positions compared with reference PNGs in ``tests/snapshots/``.

The views (support.views) are built by hand (not played by the engine) so that engine changes cannot move
them. A snapshot passes when the size is equal, the mean absolute difference per channel is
at most ``support.snapshots.MEAN_TOLERANCE`` (anti-aliasing may differ slightly between FreeType builds) and
at most ``STRONG_SHARE`` of the pixels differ strongly (so that one wrong digit still fails).

After an intended change of the pictures, regenerate and look at them:

    UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/render/test_render_snapshots.py
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.snapshots import assert_snapshot, similar
from support.views import (
    FOURTH,
    NAMES,
    cards,
    discarding_view,
    private_view,
    public_view,
    win_outcome,
)

from engine import cards as C
from engine.melds import Group, GroupKind
from engine.views import (
    Offer,
    OfferHow,
    Outcome,
    OutcomeKind,
    PrivateView,
    Ting,
    Wait,
)
from render.hand import layout_hand
from render.scene import Scene, paint
from render.settlement import layout_settlement
from render.table import layout_table

TOTALS = (1234, -560, 88)


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
