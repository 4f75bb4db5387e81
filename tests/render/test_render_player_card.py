"""The /me picture: the 等级 ladder and its progress bar, the six figures, and the running
total drawn as a line from the first hand (left) to the total now (right).

Snapshots as in ``support.snapshots`` (regenerate with ``UPDATE_SNAPSHOTS=1`` and look).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image
from support.scenes import check_scene, decode
from support.snapshots import assert_snapshot

from engine.rules import TITLES, title_of
from render import theme as T
from render.player_card import (
    PlayerCard,
    chart_points,
    layout_player_card,
    paint_player_card,
    render_player_card,
    running_totals,
    title_span,
)
from render.scene import Rect, Text
from render.strings import LANGS, pages

TIMELINE = tuple((-1) ** (i // 4) * (i * 37 % 90) for i in range(60))
CARD = PlayerCard(
    name="Bartholomew Fitzwilliam 🀄‍🔥",
    points=3_456,
    hands=120,
    wins=48,
    zimo=12,
    best_huxi=41,
    top_mingtang=("红胡", 9),
    timeline=TIMELINE,
)
NEW = PlayerCard("新来的", 0, 0, 0, 0, None, None)
NAMES = ("小明", "محمد", "שלמה", "👨‍👩‍👧‍👦 Family", "Zoë " * 20, "さくら", "Дмитрий")

CASES: dict[str, Callable[[], Image.Image]] = {
    "player_card_zh": lambda: paint_player_card(replace(CARD, name="老王"), "zh"),
    "player_card_en": lambda: paint_player_card(CARD, "en"),
    "player_card_new_zh": lambda: paint_player_card(NEW, "zh"),
    "player_card_negative_en": lambda: paint_player_card(
        replace(CARD, name="שלמה המלך", points=-420, timeline=(100, 50, -300, -270)), "en"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    img = CASES[name]()
    assert_snapshot(name, img)


@pytest.mark.parametrize(
    ("points", "span"),
    [
        (-50, (-50, 30, "短工")),
        (0, (0, 30, "短工")),
        (29, (0, 30, "短工")),
        (30, (30, 60, "长工")),
        (3_456, (3_450, 5_000, "小财主")),
        (103_000, (103_000, 161_000, "帝王")),
        (161_000, (161_000, None, None)),
        (10**9, (161_000, None, None)),
    ],
)
def test_title_span_is_the_step_of_the_ladder_the_points_stand_on(
    points: int, span: tuple[int, int | None, str | None]
) -> None:
    assert title_span(points) == span


def test_title_span_agrees_with_title_of_at_every_threshold() -> None:
    for threshold, title in TITLES:
        assert title_span(threshold)[0] == threshold and title_of(threshold) == title
        for p in (threshold - 1, threshold):
            low, high, next_title = title_span(p)
            assert low <= p and (high is None or p < high)
            assert title_of(max(low, 0)) == title_of(p)
            if next_title is not None:
                assert title_of(high) == next_title  # type: ignore[arg-type]


def texts(card: PlayerCard, lang: str) -> list[str]:
    return [t.text for t in layout_player_card(card, lang).items if isinstance(t, Text)]


def test_progress_bar_fills_the_share_of_the_way_to_the_next_level() -> None:
    scene = layout_player_card(replace(CARD, points=4_225), "zh")  # 衙役 3450 .. 小财主 5000
    bar = scene.named["progress"]
    full = scene.width - 2 * bar.x
    assert bar.w == round(full * (4_225 - 3_450) / (5_000 - 3_450))
    assert "距 小财主 还差 775 分" in texts(replace(CARD, points=4_225), "zh")
    assert "775 points to 小财主 Well-off man" in texts(replace(CARD, points=4_225), "en")
    top = layout_player_card(replace(CARD, points=200_000), "en")
    assert top.named["progress"].w == full
    assert pages("en")["card_top"] in texts(replace(CARD, points=200_000), "en")


def test_the_six_figures() -> None:
    shown = texts(CARD, "zh")
    for value in ("120", "48", "40%", "12", "41", "红胡 ×9"):
        assert value in shown
    assert "小财主" not in shown[:3] and "衙役" in shown and "3,456" in shown
    empty = texts(NEW, "en")
    assert empty.count(pages("en")["card_none"]) == 3  # win rate, best 胡息, top 名堂
    assert pages("en")["card_no_chart"] in empty
    assert "积分走势（60 局）" in shown and pages("en")["card_chart"] in empty


def test_running_totals_end_at_the_points_now() -> None:
    card = replace(CARD, points=100, timeline=(30, -50, 20))
    assert running_totals(card) == [100, 130, 80, 100]
    assert running_totals(replace(card, timeline=())) == [100]


def test_chart_points_span_the_area() -> None:
    area = Rect(100, 50, 401, 101)
    pts = chart_points([0, 30, -10, 20], area)
    assert pts[0][0] == area.x and pts[-1][0] == area.right - 1
    assert pts[1][1] == area.y and pts[2][1] == area.bottom - 1  # highest top, lowest bottom
    assert pts[0][1] > pts[3][1] > pts[1][1]
    flat = chart_points([5, 5, 5], area)
    assert {y for _, y in flat} == {area.y + area.h // 2}


def is_gold(px: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 40 for a, b in zip(px, T.GOLD, strict=True))


def test_the_line_is_drawn_through_the_running_totals() -> None:
    card = replace(CARD, points=50, timeline=(100, -200, 150))  # totals 0 100 -100 50
    scene = layout_player_card(card, "zh")
    img = paint_player_card(card, "zh")
    for x, y in chart_points(running_totals(card), scene.named["chart"]):
        assert is_gold(img.getpixel((x, y)))  # type: ignore[arg-type]
    assert "0" in texts(card, "zh")  # the zero line is labelled when the total crossed it
    assert "chart" not in layout_player_card(NEW, "zh").named


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_names_of_any_script_stay_inside(lang: str, name: str) -> None:
    card = replace(CARD, name=name)
    check_scene(layout_player_card(card, lang))
    assert decode(render_player_card(card, lang)).format == "JPEG"
