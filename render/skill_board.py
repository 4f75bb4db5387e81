"""A board of a skill measure: /rank 技术 (the skill rating, 技术评级) and /season 技术 (技术分).

One row a player: place (the first three on gold, silver and bronze; equal figures share a
place, marked ``2=``), name with a note under it (how many matches or reviewed hands the figure rests on),
the figure, and a bar to it on the board's common scale (from a round figure below everyone
shown, so that close figures still part), with a thin line on to where the figure is heading
when the caller gives one (a rating still unsure of itself). The computer levels'
figures are marked across every row as thin lines labelled at the top (弱, 中, 强), so a
player's bar reads against them: the point of a skill measure is how one plays beside them.

Words are drawn in the Regular face (the Bold subset holds only the string tables'
characters); figures in Bold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.standings import Place
from render import theme as T
from render.leaderboard import place_mark
from render.scene import Box, Format, Rect, Scene, render

WIDTH = 780
M = 20
TOP = 10
MIN_ROWS = 3
TITLE_H = 64
HEAD_H = 40
ROW_H = 68
NAME_PX = 24
NOTE_PX = 18
FIGURE_PX = 26
HEAD_PX = 21
NAME_X = M + 64
VALUE_R = 400  # the figures' right edge
BAR_X, BAR_R = 424, WIDTH - M - 16
BAR_H = 14
MARK_INK: T.RGB = (150, 176, 162)
MARK_PX = 19
REACH_INK: T.RGB = (176, 150, 70)  # a dim gold: where a figure is heading
FORMAT: Format = "PNG"  # few colours, and read closely: PNG keeps the thin marks sharp


@dataclass(frozen=True)
class SkillRow:
    """A player: ``place`` (equal figures share one), his name, the figure as shown and as a
    number on the board's scale, and the note under his name."""

    place: Place
    name: str
    figure: str
    value: float
    note: str
    reach: float | None = None  # where the figure is heading (a thin line on from the bar)


@dataclass(frozen=True)
class Marker:
    """A computer level's figure on the scale: its label (弱, 中, 强) and value."""

    label: str
    value: float


def layout_skill_board(rows: Sequence[SkillRow], *, title: str, heads: tuple[str, str, str],
                       markers: Sequence[Marker], top: float, empty: str,
                       bottom: float = 0.0) -> Scene:
    """``heads``: the player, figure and bar columns' heads; the bars' scale runs from
    ``bottom`` to ``top`` (or the largest figure)."""
    shown = list(rows[:TOP])
    body = ROW_H * max(MIN_ROWS, len(shown))
    scene = Scene(WIDTH, TITLE_H + HEAD_H + body + M)
    scene.name(Rect(M, 10, WIDTH - 2 * M, TITLE_H - 16), "title", title, 30, T.GOLD)
    y = TITLE_H + HEAD_H // 2
    scene.text(NAME_X, y, heads[0], HEAD_PX, T.TEXT_DIM, anchor="lm",
               max_width=VALUE_R - 110 - NAME_X)
    scene.text(VALUE_R, y, heads[1], HEAD_PX, T.TEXT_DIM, anchor="rm", max_width=100)
    scene.add(Box(Rect(M, TITLE_H + HEAD_H - 2, WIDTH - 2 * M, 2), fill=T.FELT_LINE))
    scale = (bottom, max(top, *(r.value for r in shown), *(r.reach or 0 for r in shown),
                         *(m.value for m in markers), bottom + 1.0))
    for i, row in enumerate(shown):
        _row(scene, i, row, TITLE_H + HEAD_H + i * ROW_H, scale)
    marks = [m for m in markers if scale[0] <= m.value <= scale[1]]
    if not marks:
        scene.text(BAR_X, y, heads[2], HEAD_PX, T.TEXT_DIM, anchor="lm", max_width=BAR_R - BAR_X)
    for m in marks:
        x = _x(m.value, scale)
        scene.add(Box(Rect(x - 1, TITLE_H + HEAD_H, 2, body), fill=MARK_INK))
        scene.text(x, y, m.label, MARK_PX, MARK_INK, anchor="mm", max_width=40)
        scene.named[f"mark:{m.label}"] = Rect(x - 1, TITLE_H + HEAD_H, 2, body)
    if not shown:
        scene.text(WIDTH // 2, TITLE_H + HEAD_H + body // 2, empty, 24, T.TEXT_DIM,
                   anchor="mm", max_width=WIDTH - 2 * M)
    return scene


def _x(value: float, scale: tuple[float, float]) -> int:
    low, high = scale
    return BAR_X + round((BAR_R - BAR_X) * (max(low, min(value, high)) - low) / (high - low))


def _row(scene: Scene, i: int, row: SkillRow, y: int, scale: tuple[float, float]) -> None:
    if i % 2 == 0:
        scene.add(Box(Rect(M, y + 2, WIDTH - 2 * M, ROW_H - 4), fill=T.FELT_DARK, radius=10))
    mid = y + ROW_H // 2
    place_mark(scene, row.place, mid)
    name_w = VALUE_R - 100 - NAME_X
    scene.name(Rect(NAME_X, y + 4, name_w, 34), f"name:{i}", row.name, NAME_PX)
    scene.text(NAME_X, y + 50, row.note, NOTE_PX, T.TEXT_DIM, anchor="lm", max_width=name_w)
    scene.text(VALUE_R, mid, row.figure, FIGURE_PX, T.GOLD, bold=True, anchor="rm",
               max_width=96)
    track = Rect(BAR_X, mid - BAR_H // 2, BAR_R - BAR_X, BAR_H)
    scene.add(Box(track, fill=T.FELT, radius=BAR_H // 2))
    filled = max(BAR_H, _x(row.value, scale) - BAR_X)
    if row.reach is not None and row.reach > row.value:
        reach = Rect(BAR_X + filled - BAR_H // 2, mid - 2, _x(row.reach, scale) - BAR_X - filled
                     + BAR_H // 2, 4)
        scene.add(Box(reach, fill=REACH_INK))
        scene.add(Box(Rect(reach.right - 3, mid - 8, 6, 16), fill=REACH_INK, radius=3))
        scene.named[f"reach:{i}"] = reach
    scene.add(Box(Rect(BAR_X, track.y, filled, BAR_H), fill=T.GOLD, radius=BAR_H // 2))
    scene.named[f"bar:{i}"] = Rect(BAR_X, track.y, filled, BAR_H)


def render_skill_board(rows: Sequence[SkillRow], *, title: str, heads: tuple[str, str, str],
                       markers: Sequence[Marker], top: float, empty: str,
                       bottom: float = 0.0) -> bytes:
    return render(lambda: layout_skill_board(rows, title=title, heads=heads, markers=markers,
                                             top=top, empty=empty, bottom=bottom), FORMAT)
