"""The /rank picture: ten rows at most, names of every script kept in their boxes, 等级 with
its English beside it in English, win rates, and sparklines that follow the points' signs.

Snapshots as in ``support.snapshots`` (regenerate with ``UPDATE_SNAPSHOTS=1`` and look).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.names import NAMES
from support.scenes import check_scene, decode
from support.snapshots import assert_snapshot, texts

from engine.rules import LOWEST_TITLE, TITLES
from engine.standings import Place, places
from render import fonts
from render import theme as T
from render.leaderboard import (
    RECENT,
    BoardRow,
    layout_leaderboard,
    render_leaderboard,
    sparkline,
)
from render.scene import Box, Rect, Scene, Text, paint
from render.strings import LANGS, PAGES, TITLE_EN, pages

POINTS = (161_500, 12_345, 3_456, 530, 88, 30, 0, -60, -1_200, -25_000, -30_000)


def rows(n: int) -> list[BoardRow]:
    return [
        BoardRow(
            NAMES[i],
            POINTS[i],
            hands=10 * i + 3,
            wins=i + 1,
            recent=tuple((-1) ** j * (j * 7 % 23) * (i + 1) for j in range(i * 3)),
        )
        for i in range(n)
    ]


def at(board: list[BoardRow]) -> list[Place]:
    return places([r.points for r in board])


def board(shown: list[BoardRow], lang: str, title: str) -> Scene:
    return layout_leaderboard(shown, lang, title=title, places=at(shown))


CASES: dict[str, Callable[[], Scene]] = {
    "leaderboard_ten_zh": lambda: board(rows(10), "zh", "本群排行 前十"),
    "leaderboard_ten_en": lambda: board(rows(10), "en", "This group · top 10"),
    "leaderboard_one_en": lambda: board(rows(1), "en", "Everyone"),
    "leaderboard_empty_zh": lambda: board([], "zh", "本群排行"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    img = paint(CASES[name]())
    assert_snapshot(name, img)



@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [0, 1, 10, 11])
def test_every_text_fits_and_is_drawable(lang: str, n: int) -> None:
    scene = layout_leaderboard(rows(n), lang, title=NAMES[1] * 3, places=at(rows(n)))
    check_scene(scene)
    decode(render_leaderboard(rows(n), lang, title="x", places=at(rows(n))))


def test_only_the_first_ten_rows_are_drawn_in_the_given_order() -> None:
    scene = layout_leaderboard(rows(11), "en", title="top", places=at(rows(11)))
    assert [k for k in scene.named if k.startswith("name:")] == [f"name:{i}" for i in range(10)]
    ranks = [t.text for t in scene.items if isinstance(t, Text) and t.bold and t.px == 22]
    assert ranks == [str(i) for i in range(1, 11)]
    shown = texts(scene)
    assert "the eleventh, not shown" not in shown
    ys = [scene.named[f"name:{i}"].y for i in range(10)]
    assert ys == sorted(ys) and scene.height > ys[-1] + 40


def test_names_are_cleaned_and_cut_inside_their_boxes() -> None:
    scene = layout_leaderboard(rows(10), "en", title="top", places=at(rows(10)))
    name_texts = {
        (t.x, t.y): t for t in scene.items if isinstance(t, Text) and not t.bold and t.px == 24
    }
    for i in range(10):
        box = scene.named[f"name:{i}"]
        t = name_texts[(box.x, box.y + box.h // 2)]
        assert fonts.font(24).getlength(t.text) <= box.w
        assert set(t.text) <= fonts.coverage()
    long_name = name_texts[(scene.named["name:1"].x, scene.named["name:1"].y + 16)].text
    assert long_name.startswith("Bartholomew") and long_name.endswith("…")
    arabic = name_texts[(scene.named["name:2"].x, scene.named["name:2"].y + 16)].text
    assert set(arabic) == {"?", " "}  # a script the font lacks: '?' a word, no glyph soup
    emoji = name_texts[(scene.named["name:4"].x, scene.named["name:4"].y + 16)].text
    assert emoji == "老王"  # emoji and their joiners are decoration, dropped whole


def test_level_title_is_chinese_with_english_beside_it_in_english() -> None:
    zh, en = texts(layout_leaderboard(rows(3), "zh", title="t", places=at(rows(3)))), texts(
        layout_leaderboard(rows(3), "en", title="t", places=at(rows(3)))
    )
    assert "帝王" in zh and "小地主" in zh and "衙役" in zh
    assert "帝王 Emperor" in en and "小地主 Small landlord" in en and "衙役 Yamen runner" in en


def test_win_rate_and_points() -> None:
    board = [BoardRow("a", 1234, 8, 2), BoardRow("b", -5, 0, 0)]
    shown = texts(layout_leaderboard(board, "zh", title="t", places=at(board)))
    assert "25%" in shown and "1,234" in shown and "—" in shown and "-5" in shown


def test_an_empty_board_says_so() -> None:
    for lang in LANGS:
        assert pages(lang)["board_empty"] in texts(board([], lang, "t"))


def bars(scene: Scene, area: Rect) -> list[Box]:
    return [
        b
        for b in scene.items
        if isinstance(b, Box) and area.contains(b.rect) and b.fill != T.FELT_LINE
    ]


def test_sparkline_follows_signs_and_scales_to_the_largest_hand() -> None:
    scene = Scene(200, 100)
    area = Rect(10, 10, 160, 40)
    sparkline(scene, area, (40, -20, 0, 10))
    up, down, zero, small = bars(scene, area)
    base = area.y + area.h // 2
    assert up.fill == T.WIN and up.rect.bottom == base and up.rect.h == area.h // 2 - 1
    assert down.fill == T.LOSS and down.rect.y == base + 1
    assert down.rect.h == round((area.h // 2 - 1) / 2)
    assert zero.fill == T.TEXT_DIM and small.fill == T.WIN and small.rect.h < up.rect.h
    xs = [b.rect.x for b in (up, down, zero, small)]
    assert xs == sorted(set(xs))


def test_the_sparkline_shows_the_last_twenty_hands_only() -> None:
    recent = tuple(range(1, 26))  # 25 hands, growing: the last 20 are 6..25
    scene = board([BoardRow("a", 5, 25, 25, recent)], "zh", "t")
    drawn = bars(scene, scene.named["spark:0"])
    assert len(drawn) == RECENT
    tallest = max(drawn, key=lambda b: b.rect.h)
    assert tallest is drawn[-1] and drawn[0].rect.h == round(6 / 25 * (drawn[-1].rect.h))


def test_string_tables_match_and_the_regular_font_draws_them() -> None:
    assert PAGES["zh"].keys() == PAGES["en"].keys()
    for lang in LANGS:
        for text in pages(lang).values():
            assert set(text.replace("{", "").replace("}", "")) <= fonts.coverage(), text
    assert set(TITLE_EN) == {title for _, title in TITLES} | {LOWEST_TITLE}
    with pytest.raises(ValueError):
        pages("fr")
