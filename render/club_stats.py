"""The club stats picture (/stats): a group's members over a day, a week or a season.

One row a member, most points first, on the leaderboard's rows (``render.leaderboard``):
place (shared ones marked ``2=``), name, hands, points, 大赢家 (matches he ended on top of), his biggest 胡 (胡息) and his
自摸 wins; the first :data:`TOP`, and a line saying how many more played. The caller's text
(the caption, or a text after the picture when too long for one) keeps the same figures for
every member, for search and accessibility.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.standings import Place
from render import theme as T
from render.leaderboard import (
    FORMAT,
    HEAD_H,
    HEAD_PX,
    MIN_ROWS,
    NAME_PX,
    ROW_H,
    TITLE_H,
    WIDTH,
    M,
    place_mark,
)
from render.scene import Box, Rect, Scene, render
from render.strings import pages

TOP = 12  # rows shown
FIGURE_PX = 24
FOOT_H = 46  # below the rows, when more played: how many more, in the text
RANK_X, NAME_X = M + 10, M + 64
# right edges of the figure columns: hands, points, 大赢家, biggest 胡, 自摸
COLUMNS = (("col_hands", 392), ("col_points", 494), ("col_top", 592), ("col_huxi", 680),
           ("col_zimo", WIDTH - M - 12))


class StatsRow(Protocol):
    """A member's figures, as the bot's rows hold them: hands played, points, matches
    topped, biggest 胡息 (None: no win with one recorded), 自摸 wins."""

    @property
    def name(self) -> str: ...
    @property
    def hands(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def top(self) -> int: ...
    @property
    def huxi(self) -> int | None: ...
    @property
    def zimo(self) -> int: ...


def layout_club_stats(rows: Sequence[StatsRow], lang: str = "zh", *, title: str,
                      places: Sequence[Place]) -> Scene:
    s = pages(lang)
    shown = list(rows[:TOP])
    body = ROW_H * max(MIN_ROWS, len(shown))
    more = len(rows) - len(shown)
    scene = Scene(WIDTH, TITLE_H + HEAD_H + body + (FOOT_H if more else 0) + M)
    scene.name(Rect(M, 10, WIDTH - 2 * M, TITLE_H - 16), "title", title, 32, T.GOLD)
    _head(scene, s)
    if not shown:
        scene.text(WIDTH // 2, TITLE_H + HEAD_H + body // 2, s["stats_empty"], 24, T.TEXT_DIM,
                   anchor="mm", max_width=WIDTH - 2 * M)
    for i, (row, place) in enumerate(zip(shown, places, strict=False)):
        _row(scene, i, row, place, TITLE_H + HEAD_H + i * ROW_H)
    if more:
        scene.text(WIDTH // 2, TITLE_H + HEAD_H + body + FOOT_H // 2,
                   s["stats_more"].format(n=more), 22, T.TEXT_DIM, anchor="mm",
                   max_width=WIDTH - 2 * M)
    return scene


def _head(scene: Scene, s: Mapping[str, str]) -> None:
    y = TITLE_H + HEAD_H // 2
    dim = T.TEXT_DIM
    scene.text(RANK_X, y, s["col_rank"], HEAD_PX, dim, anchor="lm", max_width=NAME_X - RANK_X)
    scene.text(NAME_X, y, s["col_player"], HEAD_PX, dim, anchor="lm", max_width=200)
    for key, right in COLUMNS:
        scene.text(right, y, s[key], HEAD_PX, dim, anchor="rm", max_width=86)
    scene.add(Box(Rect(M, TITLE_H + HEAD_H - 2, WIDTH - 2 * M, 2), fill=T.FELT_LINE))


def _row(scene: Scene, i: int, row: StatsRow, place: Place, y: int) -> None:
    if i % 2 == 0:
        scene.add(Box(Rect(M, y + 2, WIDTH - 2 * M, ROW_H - 4), fill=T.FELT_DARK, radius=10))
    mid = y + ROW_H // 2
    place_mark(scene, place, mid)
    first_right = COLUMNS[0][1]
    scene.name(Rect(NAME_X, mid - 16, first_right - 60 - NAME_X, 32), f"name:{i}", row.name,
               NAME_PX)
    points_ink = T.WIN if row.points > 0 else T.LOSS if row.points < 0 else T.TEXT
    figures = (str(row.hands), f"{row.points:+,}" if row.points else "0", str(row.top),
               "—" if row.huxi is None else str(row.huxi), str(row.zimo))
    for (key, right), text in zip(COLUMNS, figures, strict=True):
        bold = key == "col_points"
        scene.text(right, mid, text, FIGURE_PX, points_ink if bold else T.TEXT, bold=bold,
                   anchor="rm", max_width=86)


def render_club_stats(rows: Sequence[StatsRow], lang: str = "zh", *, title: str,
                      places: Sequence[Place]) -> bytes:
    """The /stats picture: the first :data:`TOP` of ``rows`` (already ordered) at their
    ``places`` under ``title``, and how many more there are (the caption lists them all)."""
    return render(lambda: layout_club_stats(rows, lang, title=title, places=places), FORMAT)
