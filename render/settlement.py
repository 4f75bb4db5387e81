"""The settlement image at the end of a hand: a win, a 荒庄 or a 逃跑.

A win shows the winner's arrangement (each group with its 胡息), the total 胡息, 底, the 名堂
with their 番, the 自摸/海底/天胡 marks and how the points follow; every version ends with
each seat's points for the hand and, when given, the running totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.rules import level_title
from engine.views import Outcome, OutcomeKind, PublicView, Win
from render import fonts
from render import theme as T
from render.scene import Box, Rect, Scene, column_height, render
from render.strings import table
from render.widgets import kind_name, pill

WIDTH = 840
M = 24
GROUP_ADV = T.MELD.w + 24
GROUPS_PER_ROW = 7
ROW_H = 46
FORMAT = "PNG"  # once per hand: exact colours matter more than ~10 ms


def layout_settlement(
    view: PublicView, names: Sequence[str], totals: Sequence[int] | None = None, lang: str = "zh"
) -> Scene:
    outcome = view.outcome
    if outcome is None:
        raise ValueError("the hand has not ended: view.outcome is None")
    if len(names) < len(view.seats) or (totals is not None and len(totals) < len(view.seats)):
        raise ValueError("need one name (and total) per seat")
    s = table(lang)
    win = outcome.win if outcome.kind == OutcomeKind.WIN else None
    body_h = _win_height(win) if win is not None else 70
    top = 84
    height = top + body_h + 56 + ROW_H * (len(view.seats) + 1) + M
    scene = Scene(WIDTH, height)
    _title(scene, view, outcome, names, s)
    if win is not None:
        _win_body(scene, win, s, top)
    else:
        note = (
            s["draw_note"]
            if outcome.kind == OutcomeKind.DRAW
            else s["escape_note"].format(p=max(outcome.points))
        )
        scene.text(M, top + 10, note, 24, T.TEXT_DIM, max_width=WIDTH - 2 * M)
    _points(scene, view, outcome, names, totals, s, top + body_h + 40)
    return scene


def _group_rows(win: Win) -> tuple[int, int]:
    """(rows of groups, height of one row with its labels): 7 groups a row (a forced 天胡
    may have more)."""
    cards_h = max((column_height(len(g.cards), T.MELD) for g in win.groups), default=0)
    return max(1, -(-len(win.groups) // GROUPS_PER_ROW)), cards_h + 64


def _win_height(win: Win) -> int:
    """Room for the groups with their labels, and for the score panel's lines."""
    rows, row_h = _group_rows(win)
    panel_h = 190 + 32 * max(1, len(win.mingtang))
    return max(rows * row_h, panel_h)


def _title(
    scene: Scene, view: PublicView, outcome: Outcome, names: Sequence[str], s: Mapping[str, str]
) -> None:
    marks: list[str] = []
    if outcome.kind == OutcomeKind.WIN and outcome.winner is not None:
        key, seat = "win_title", outcome.winner
        win = outcome.win
        if win is not None:
            marks = [
                s[m]
                for m, on in (("tianhu", win.tianhu), ("zimo", win.zimo), ("haidi", win.haidi))
                if on
            ]
    elif outcome.kind == OutcomeKind.ESCAPE and outcome.escaper is not None:
        key, seat = "escape_title", outcome.escaper
    else:
        scene.text(M, 20, s["draw_title"], 38, T.GOLD, bold=True)
        return
    marks_w = sum(round(fonts.font(24, True).getlength(m)) + 24 + 10 for m in marks)
    template = s[key]
    prefix, _, suffix = template.partition("{name}")
    f = fonts.font(36)
    box = Rect(M, 16, WIDTH - 2 * M - marks_w - 10, 50)
    who = fonts.name(names[seat], f, max(40, box.w - f.getlength(prefix + suffix)))
    text = scene.text(
        M, box.y + box.h // 2, prefix + who + suffix, 36, T.GOLD, anchor="lm", max_width=box.w
    )
    scene.named[f"name:{seat}"] = box
    x = M + round(f.getlength(text)) + 16
    for m in marks:
        x = pill(scene, x, 24, m, 24, T.DEALER).right + 10


def _win_body(scene: Scene, win: Win, s: Mapping[str, str], top: int) -> None:
    _, row_h = _group_rows(win)
    cards_h = row_h - 64
    for i, g in enumerate(win.groups):
        x = M + 8 + (i % GROUPS_PER_ROW) * GROUP_ADV
        y = top + (i // GROUPS_PER_ROW) * row_h
        scene.column(x, y, list(g.cards), T.MELD, "group")
        cx = x + T.MELD.w // 2
        scene.text(
            cx,
            y + cards_h + 8,
            kind_name(g.kind),
            18,
            T.TEXT_DIM,
            anchor="mt",
            max_width=GROUP_ADV - 4,
        )
        scene.text(cx, y + cards_h + 34, str(g.huxi), 20, T.GOLD, bold=True, anchor="mt")
    # Score panel on the right.
    px = M + 8 + GROUPS_PER_ROW * GROUP_ADV + 8
    pw = WIDTH - M - px
    scene.add(Box(Rect(px, top - 8, pw, _win_height(win) - 8), fill=T.FELT_DARK, radius=12))
    x, y = px + 16, top + 6
    scene.text(x, y, s["total_huxi"].format(n=win.huxi), 28, T.GOLD, bold=True, max_width=pw - 32)
    y += 46
    scene.text(x, y, s["di"].format(n=win.di), 24, bold=True, max_width=pw - 32)
    y += 38
    items = [s["fan_item"].format(name=n, n=f) for n, f in win.mingtang] or [s["plain_win"]]
    for item in items:
        scene.text(x, y, item, 22, max_width=pw - 32)
        y += 32
    scene.text(x, y, s["fan_total"].format(n=win.fan), 24, bold=True, max_width=pw - 32)
    y += 40
    scene.text(
        x,
        y,
        s["formula"].format(x=win.di, f=win.fan, d=win.base, p=win.winner_points),
        18,
        T.TEXT_DIM,
        max_width=pw - 32,
    )


def _points(
    scene: Scene,
    view: PublicView,
    outcome: Outcome,
    names: Sequence[str],
    totals: Sequence[int] | None,
    s: Mapping[str, str],
    y: int,
) -> None:
    cols = (M + 16, 470, 620)
    scene.add(
        Box(
            Rect(M, y, WIDTH - 2 * M, ROW_H * (len(view.seats) + 1) + 8),
            fill=T.FELT_DARK,
            radius=12,
        )
    )
    heads = [s["col_seat"], s["col_hand"]] + ([s["col_total"]] if totals is not None else [])
    for cx, head in zip(cols, heads, strict=False):
        scene.text(cx, y + 12, head, 20, T.TEXT_DIM, bold=True)
    for i in range(len(view.seats)):
        ry = y + ROW_H * (i + 1)
        x = cols[0]
        if i == view.dealer:
            x = pill(scene, x, ry + 8, s["dealer"], 18, T.DEALER).right + 6
        tag = "winner" if i == outcome.winner else "escaper" if i == outcome.escaper else None
        if tag is not None:
            x = pill(scene, x, ry + 8, s[tag], 18, T.GOLD, T.FELT_DARK).right + 6
        scene.name(Rect(x, ry + 4, cols[1] - 24 - x, ROW_H - 8), f"row:{i}", names[i], 24)
        p = outcome.points[i]
        colour = T.WIN if p > 0 else T.LOSS if p < 0 else T.TEXT
        scene.text(
            cols[1],
            ry + ROW_H // 2,
            f"{p:+d}" if p else "0",
            26,
            colour,
            bold=True,
            anchor="lm",
        )
        if totals is not None:
            t = totals[i]
            text = scene.text(cols[2], ry + ROW_H // 2, f"{t:,}", 26, bold=True, anchor="lm")
            tx = cols[2] + round(fonts.font(26, True).getlength(text)) + 12
            scene.text(
                tx,
                ry + ROW_H // 2,
                level_title(t),
                20,
                T.TEXT_DIM,
                anchor="lm",
                max_width=WIDTH - M - 16 - tx,
            )


def render_settlement(
    view: PublicView, names: Sequence[str], totals: Sequence[int] | None = None, lang: str = "zh"
) -> bytes:
    """The end-of-hand image. ``view.outcome`` must be set; ``totals[i]`` is seat i's running
    total after this hand (column left out when None)."""
    return render(lambda: layout_settlement(view, names, totals, lang), FORMAT)
