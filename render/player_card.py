"""The player card (/me): 等级 and the way to the next one, figures, and points over time.

Top to bottom: the name; the 等级 with the total points and a bar of the progress from this
等级's threshold to the next (full at the highest); six tiles (hands, wins, win rate, 自摸,
the biggest 胡息, the most frequent 名堂); a line chart of the running total over the hands
given, with its highest and lowest values and the zero line when the total crossed it.

The chart is drawn with Pillow on the painted scene (a polyline is not a scene item): no
plotting library, so nothing heavy to import and the same fonts and colours as every picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

from PIL import Image, ImageDraw

from engine.rules import LOWEST_TITLE, TITLES, title_of
from render import fonts
from render import theme as T
from render.leaderboard import win_rate
from render.scene import _FONT_LOCK, Box, Format, Rect, Scene, encode, paint
from render.strings import pages, title_label

WIDTH = 780
M = 24
NAME_H = 60
TITLE_Y = 84
BAR_Y = 134
BAR_H = 20
TILES_Y = 200
TILE_H = 92
TILE_GAP = 12
TILE_COLS = 3
CHART_Y = TILES_Y + 2 * TILE_H + TILE_GAP + 28
CHART_H = 240
SKILL_H = 64  # the skill rating's tile
AXIS_W = 90  # the value labels left of the chart
LINE_W = 3
FORMAT: Format = "JPEG"  # as the leaderboard: PNG encoding alone would take most of the 30 ms budget


@dataclass(frozen=True)
class PlayerCard:
    """What the bot passes for /me. ``timeline``: the points of each hand, oldest first (the
    chart ends at ``points``; a shortened timeline starts at the total before its first hand).
    ``top_mingtang``: the most frequent 名堂 and how often it was won, or None."""

    name: str
    points: int
    hands: int
    wins: int
    zimo: int
    best_huxi: int | None
    top_mingtang: tuple[str, int] | None
    timeline: tuple[int, ...] = ()
    # the skill rating (技术评级) of the card's rule set: (what it is, in words; its figure),
    # a wide tile under the six; None: no tile
    skill: tuple[str, str] | None = None


def title_span(points: int) -> tuple[int, int | None, str | None]:
    """(the current 等级's threshold, the next one's threshold, the next title); no next
    at the highest 等级. The lowest 等级 counts from 0 (or from a negative total)."""
    ladder = [(min(0, points), LOWEST_TITLE), *reversed(TITLES)]
    current = max(i for i, (threshold, _) in enumerate(ladder) if points >= threshold)
    if current == len(ladder) - 1:
        return ladder[current][0], None, None
    return ladder[current][0], ladder[current + 1][0], ladder[current + 1][1]


def running_totals(card: PlayerCard) -> list[int]:
    """The total before the first hand of the timeline, then after each hand."""
    start = card.points - sum(card.timeline)
    return list(accumulate(card.timeline, initial=start))


def chart_points(totals: Sequence[int], area: Rect) -> list[tuple[int, int]]:
    """``totals`` spread over ``area``: first at the left edge, last at the right, the
    highest at the top and the lowest at the bottom (a flat series in the middle)."""
    lo, hi = min(totals), max(totals)
    span = hi - lo
    last = max(1, len(totals) - 1)
    return [
        (
            area.x + round(i * (area.w - 1) / last),
            area.y + (area.h // 2 if span == 0 else round((hi - v) * (area.h - 1) / span)),
        )
        for i, v in enumerate(totals)
    ]


def _skill_room(card: PlayerCard) -> int:
    return 0 if card.skill is None else SKILL_H + TILE_GAP


def layout_player_card(card: PlayerCard, lang: str = "zh") -> Scene:
    s = pages(lang)
    scene = Scene(WIDTH, CHART_Y + _skill_room(card) + 40 + CHART_H + 40 + M)
    scene.name(Rect(M, 12, WIDTH - 2 * M, NAME_H - 12), "name", card.name, 34, T.GOLD)
    _level(scene, card, s, lang)
    _tiles(scene, card, s)
    if card.skill is not None:
        _skill(scene, *card.skill)
    _chart_frame(scene, card, s, _skill_room(card))
    return scene


def _skill(scene: Scene, words: str, figure: str) -> None:
    """The skill rating's tile: its words in the Regular face (the Bold subset holds only the
    string tables' characters), its figure in Bold."""
    y = TILES_Y + 2 * (TILE_H + TILE_GAP)
    box = Rect(M, y, WIDTH - 2 * M, SKILL_H)
    scene.add(Box(box, fill=T.FELT_DARK, radius=12))
    figure_w = round(fonts.font(30, True).getlength(figure))
    scene.text(M + 16, y + SKILL_H // 2, words, 22, T.TEXT_DIM, anchor="lm",
               max_width=box.w - figure_w - 48)
    scene.text(box.right - 16, y + SKILL_H // 2, figure, 30, T.GOLD, bold=True, anchor="rm")
    scene.named["skill"] = box


def _level(scene: Scene, card: PlayerCard, s: Mapping[str, str], lang: str) -> None:
    title = title_of(card.points)
    scene.text(M, TITLE_Y, s["card_level"], 22, T.TEXT_DIM, anchor="lm")
    x = M + round(fonts.font(22).getlength(s["card_level"])) + 12
    points = f"{card.points:,}"
    points_w = round(fonts.font(30, True).getlength(points))
    scene.text(x, TITLE_Y, title_label(title, lang), 30, T.GOLD, bold=True, anchor="lm",
               max_width=WIDTH - M - points_w - 20 - x)
    ink = T.WIN if card.points > 0 else T.LOSS if card.points < 0 else T.TEXT
    scene.text(WIDTH - M, TITLE_Y, points, 30, ink, bold=True, anchor="rm")
    low, high, next_title = title_span(card.points)
    bar = Rect(M, BAR_Y, WIDTH - 2 * M, BAR_H)
    scene.add(Box(bar, fill=T.FELT_DARK, outline=T.FELT_LINE, radius=BAR_H // 2))
    share = 1.0 if high is None else (card.points - low) / (high - low)
    filled = max(BAR_H, round(bar.w * share))
    scene.add(Box(Rect(bar.x, bar.y, filled, BAR_H), fill=T.GOLD, radius=BAR_H // 2))
    scene.named["progress"] = Rect(bar.x, bar.y, filled, BAR_H)
    if high is None or next_title is None:
        note = s["card_top"]
    else:
        note = s["card_next"].format(title=title_label(next_title, lang), n=high - card.points)
    scene.text(M, BAR_Y + BAR_H + 8, note, 22, T.TEXT_DIM, max_width=WIDTH - 2 * M)


def _tiles(scene: Scene, card: PlayerCard, s: Mapping[str, str]) -> None:
    mingtang = (
        s["card_none"]
        if card.top_mingtang is None
        else s["card_mingtang_n"].format(name=card.top_mingtang[0], n=card.top_mingtang[1])
    )
    best = s["card_none"] if card.best_huxi is None else str(card.best_huxi)
    tiles = (
        ("card_hands", str(card.hands)),
        ("card_wins", str(card.wins)),
        ("card_rate", win_rate(card.hands, card.wins) if card.hands else s["card_none"]),
        ("card_zimo", str(card.zimo)),
        ("card_best", best),
        ("card_mingtang", mingtang),
    )
    w = (WIDTH - 2 * M - (TILE_COLS - 1) * TILE_GAP) // TILE_COLS
    for i, (key, value) in enumerate(tiles):
        x = M + (i % TILE_COLS) * (w + TILE_GAP)
        y = TILES_Y + (i // TILE_COLS) * (TILE_H + TILE_GAP)
        scene.add(Box(Rect(x, y, w, TILE_H), fill=T.FELT_DARK, radius=12))
        scene.text(x + 16, y + 10, s[key], 20, T.TEXT_DIM, max_width=w - 32)
        scene.text(x + 16, y + 40, value, 30, T.TEXT, bold=True, max_width=w - 32)
        scene.named[key] = Rect(x, y, w, TILE_H)


def _chart_frame(scene: Scene, card: PlayerCard, s: Mapping[str, str], below: int) -> None:
    """The chart's title, panel, value labels and zero line (``below`` pixels lower than
    without the skill tile); the line itself is drawn on the painted image (``_draw_line``)
    into ``scene.named["chart"]``."""
    n = len(card.timeline)
    chart_y = CHART_Y + below
    scene.text(M, chart_y, s["card_chart_n"].format(n=n) if n else s["card_chart"], 22,
               T.TEXT_DIM)
    panel = Rect(M, chart_y + 36, WIDTH - 2 * M, CHART_H + 24)
    scene.add(Box(panel, fill=T.FELT_DARK, radius=12))
    totals = running_totals(card)
    if len(totals) < 2:
        scene.text(panel.x + panel.w // 2, panel.y + panel.h // 2, s["card_no_chart"], 22,
                   T.TEXT_DIM, anchor="mm", max_width=panel.w - 32)
        return
    area = Rect(panel.x + AXIS_W, panel.y + 12, panel.w - AXIS_W - 20, CHART_H)
    lo, hi = min(totals), max(totals)
    for value, y in ((hi, area.y), (lo, area.bottom - 1)):
        scene.text(area.x - 12, y, f"{value:,}", 18, T.TEXT_DIM, bold=True, anchor="rm",
                   max_width=AXIS_W - 16)
    if lo < 0 < hi:
        zero = chart_points([hi, 0, lo], area)[1][1]
        scene.add(Box(Rect(area.x, zero, area.w, 1), fill=T.FELT_LINE))
        scene.text(area.x - 12, zero, "0", 18, T.TEXT_DIM, bold=True, anchor="rm")
    scene.named["chart"] = area


def _draw_line(img_draw: ImageDraw.ImageDraw, card: PlayerCard, area: Rect) -> None:
    points = chart_points(running_totals(card), area)
    img_draw.line(points, fill=T.GOLD, width=LINE_W, joint="curve")
    x, y = points[-1]
    img_draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=T.GOLD)


def paint_player_card(card: PlayerCard, lang: str = "zh") -> Image.Image:
    """The card painted, its chart line included (what the snapshot tests compare)."""
    with _FONT_LOCK:  # layout measures text and paint draws it; the line needs no font
        scene = layout_player_card(card, lang)
        img = paint(scene)
    if "chart" in scene.named:
        _draw_line(ImageDraw.Draw(img), card, scene.named["chart"])
    return img


def render_player_card(card: PlayerCard, lang: str = "zh") -> bytes:
    """The /me picture of ``card`` (its name: any text, cleaned and cut to fit)."""
    return encode(paint_player_card(card, lang), FORMAT)
