"""The club stats picture (/stats) and the season board (/rank's without 等级): every text
fits and is drawable, rows in the order given, the figures as given."""

from __future__ import annotations

import pytest
from support.names import NAMES
from support.scenes import check_scene, decode
from support.snapshots import texts

from bot.store import ClubRow
from engine.rules import title_of
from engine.standings import Place, places
from render.club_stats import TOP, layout_club_stats, render_club_stats
from render.leaderboard import BoardRow, layout_leaderboard
from render.strings import LANGS, pages, title_label


def rows(n: int) -> list[ClubRow]:
    return [ClubRow(i, NAMES[i % len(NAMES)], 12 - i, 40 - 9 * i, i % 3,
                    None if i % 4 == 1 else 10 + i, i % 2) for i in range(n)]


def at(board: list[ClubRow] | list[BoardRow]) -> list[Place]:
    return places([r.points for r in board])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [0, 1, TOP, TOP + 3])
def test_every_text_fits_and_is_drawable(lang: str, n: int) -> None:
    check_scene(layout_club_stats(rows(n), lang, title=NAMES[1] * 3, places=at(rows(n))))
    decode(render_club_stats(rows(n), lang, title="x", places=at(rows(n))))


def test_the_rows_figures_in_order() -> None:
    scene = layout_club_stats(rows(TOP + 1), "zh", title="本群今日战绩",
                              places=at(rows(TOP + 1)))
    assert [k for k in scene.named if k.startswith("name:")] == [f"name:{i}" for i in range(TOP)]
    shown = texts(scene)
    first = rows(2)
    assert "+40" in shown and "+31" in shown and "—" in shown  # Bob's 胡 is none recorded
    assert str(first[0].huxi) in shown
    assert pages("zh")["stats_empty"] in texts(layout_club_stats([], "zh", title="t", places=[]))


def test_a_season_board_has_no_levels() -> None:
    board = [BoardRow("Ann", 50, 10, 4, (5, -5))]
    level = title_label(title_of(50), "zh")
    with_levels = texts(layout_leaderboard(board, "zh", title="t", places=at(board)))
    without = texts(layout_leaderboard(board, "zh", title="t", levels=False, places=at(board)))
    assert level in with_levels and level not in without
    assert not any(pages("zh")["col_level"] in text for text in without)
    assert "Ann" in without and "50" in without
