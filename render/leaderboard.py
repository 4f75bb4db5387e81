"""The leaderboard picture (/rank): the top ten of a group or of everyone.

One row a player: place (the first three on gold, silver and bronze; a shared place marked
``2=``, :mod:`engine.standings`), name with the 等级 under
it, points, hands, win rate, and a sparkline of the last 20 hands — a bar a hand, up for
points won (red, as on the settlement), down for points lost (blue), scaled to the row's
largest hand so that every player's shape reads. The caller's text caption keeps the same
figures for search and accessibility.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.rules import title_of
from engine.standings import Place
from render import theme as T
from render.scene import Box, Format, Rect, Scene, render
from render.strings import pages, title_label

WIDTH = 780
M = 20
TOP = 10  # rows shown
MIN_ROWS = 3  # room kept below a short board, so that it is not a thin banner in the chat
RECENT = 20  # hands in a sparkline
TITLE_H = 64
HEAD_H = 36
ROW_H = 66
NAME_PX = 24
LEVEL_PX = 18
FIGURE_PX = 24
HEAD_PX = 21  # the column heads (also /stats's): 18 read too small at a phone's width
RANK_X, NAME_X = M + 10, M + 64
POINTS_R, HANDS_R, RATE_R = 440, 516, 590  # right edges of the figure columns
SPARK_X, SPARK_W = 610, WIDTH - M - 10 - 610
BAR_STEP = SPARK_W // RECENT
BAR_W = BAR_STEP - 2
MEDALS: tuple[T.RGB, ...] = ((232, 186, 48), (190, 196, 204), (196, 128, 70))
FORMAT: Format = "JPEG"  # PNG took ~36 ms to encode (over the 30 ms budget), JPEG ~8 ms, same size


@dataclass(frozen=True)
class BoardRow:
    """One player as the bot passes it: display name, total points, hands played and won,
    and the points of each of the last hands, oldest first (only the last 20 are drawn)."""

    name: str
    points: int
    hands: int
    wins: int
    recent: tuple[int, ...] = ()


def win_rate(hands: int, wins: int) -> str:
    return f"{wins / hands:.0%}" if hands else "—"


def layout_leaderboard(rows: Sequence[BoardRow], lang: str = "zh", *, title: str,
                       places: Sequence[Place], levels: bool = True) -> Scene:
    s = pages(lang)
    shown = list(rows[:TOP])
    body = ROW_H * max(MIN_ROWS, len(shown))
    scene = Scene(WIDTH, TITLE_H + HEAD_H + body + M)
    scene.name(Rect(M, 10, WIDTH - 2 * M, TITLE_H - 16), "title", title, 32, T.GOLD)
    _head(scene, s, levels)
    if not shown:
        y = TITLE_H + HEAD_H + body // 2
        scene.text(WIDTH // 2, y, s["board_empty"], 24, T.TEXT_DIM, anchor="mm",
                   max_width=WIDTH - 2 * M)
    for i, (row, place) in enumerate(zip(shown, places, strict=False)):
        _row(scene, i, row, place, lang, TITLE_H + HEAD_H + i * ROW_H, levels)
    return scene


def _head(scene: Scene, s: Mapping[str, str], levels: bool) -> None:
    y = TITLE_H + HEAD_H // 2
    dim = T.TEXT_DIM
    scene.text(RANK_X, y, s["col_rank"], HEAD_PX, dim, anchor="lm", max_width=NAME_X - RANK_X)
    player = s["col_player"] + (" · " + s["col_level"] if levels else "")
    scene.text(NAME_X, y, player, HEAD_PX, dim, anchor="lm",
               max_width=POINTS_R - 100 - NAME_X)
    for right, key in ((POINTS_R, "col_points"), (HANDS_R, "col_hands"), (RATE_R, "col_rate")):
        scene.text(right, y, s[key], HEAD_PX, dim, anchor="rm", max_width=72)
    scene.text(SPARK_X, y, s["col_recent"], HEAD_PX, dim, anchor="lm", max_width=SPARK_W)
    scene.add(Box(Rect(M, TITLE_H + HEAD_H - 2, WIDTH - 2 * M, 2), fill=T.FELT_LINE))


def _row(scene: Scene, i: int, row: BoardRow, place: Place, lang: str, y: int,
         levels: bool) -> None:
    if i % 2 == 0:
        scene.add(Box(Rect(M, y + 2, WIDTH - 2 * M, ROW_H - 4), fill=T.FELT_DARK, radius=10))
    mid = y + ROW_H // 2
    place_mark(scene, place, mid)
    name_w = POINTS_R - 110 - NAME_X
    if levels:
        scene.name(Rect(NAME_X, y + 4, name_w, 32), f"name:{i}", row.name, NAME_PX)
        level = title_label(title_of(row.points), lang)
        scene.text(NAME_X, y + 46, level, LEVEL_PX, T.GOLD, anchor="lm", max_width=name_w)
    else:  # a season's board: 等级 is the all-time record's, not the season's
        scene.name(Rect(NAME_X, mid - 16, name_w, 32), f"name:{i}", row.name, NAME_PX)
    points_ink = T.WIN if row.points > 0 else T.LOSS if row.points < 0 else T.TEXT
    scene.text(POINTS_R, mid, f"{row.points:,}", FIGURE_PX, points_ink, bold=True, anchor="rm",
               max_width=POINTS_R - NAME_X - name_w - 8)
    scene.text(HANDS_R, mid, str(row.hands), FIGURE_PX, anchor="rm", max_width=70)
    scene.text(RATE_R, mid, win_rate(row.hands, row.wins), FIGURE_PX, anchor="rm", max_width=70)
    scene.named[f"spark:{i}"] = sparkline(scene, Rect(SPARK_X, y + 10, SPARK_W, ROW_H - 20),
                                          row.recent[-RECENT:])


def place_mark(scene: Scene, place: Place, mid: int) -> None:
    """A row's place at ``RANK_X`` centred on ``mid``: the first three on their medal's disc,
    a shared place with ``=`` (``2=``: two tied for second both on silver, nobody on bronze)."""
    if place.no <= len(MEDALS):
        scene.add(Box(Rect(RANK_X, mid - 18, 36, 36), fill=MEDALS[place.no - 1], radius=18))
    ink = T.FELT_DARK if place.no <= len(MEDALS) else T.TEXT
    scene.text(RANK_X + 18, mid, str(place), 22, ink, bold=True, anchor="mm",
               max_width=NAME_X - RANK_X - 4)


def sparkline(scene: Scene, area: Rect, points: Sequence[int]) -> Rect:
    """A bar a hand on a middle line: up and red for a gain, down and blue for a loss, a
    dot for 0; heights relative to the largest hand shown. Returns ``area``."""
    half = area.h // 2
    base = area.y + half
    scene.add(Box(Rect(area.x, base, BAR_STEP * RECENT - 2, 1), fill=T.FELT_LINE))
    top = max((abs(p) for p in points), default=0) or 1
    for j, p in enumerate(points):
        x = area.x + j * BAR_STEP
        h = max(2, round(abs(p) / top * (half - 1)))
        if p > 0:
            scene.add(Box(Rect(x, base - h, BAR_W, h), fill=T.WIN))
        elif p < 0:
            scene.add(Box(Rect(x, base + 1, BAR_W, h), fill=T.LOSS))
        else:
            scene.add(Box(Rect(x, base - 1, BAR_W, 3), fill=T.TEXT_DIM))
    return area


def render_leaderboard(rows: Sequence[BoardRow], lang: str = "zh", *, title: str,
                       places: Sequence[Place], levels: bool = True) -> bytes:
    """The /rank picture: the first ten of ``rows`` (already ordered, best first) at their
    ``places`` under ``title`` (the board's name: any text, cleaned and cut to fit); without
    ``levels`` (a season's, /season) no 等级 under the names."""
    return render(lambda: layout_leaderboard(rows, lang, title=title, places=places,
                                             levels=levels), FORMAT)
