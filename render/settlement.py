"""The settlement image at the end of a hand: a win, a 荒庄 or a 逃跑, under any rule set.

The title names the winner (with the 天胡/地胡/自摸/海底 marks) and the rules in force. A win
shows the winner's arrangement (each group with its 胡息), the total 胡息, 底 (hunan: 囤) and
the 名堂 with their 番 (hunan: multipliers ×n) and how the points follow (封顶, a house rule,
named where it cut them); every version ends
with each seat's points for the hand (胡, 庄, 点炮, 逃 and 醒家 marked, the 醒家's points being
醒筹, a part paid to or by the birds named: :mod:`engine.points`) and, when given, the running totals; then, at a table with 打鸟, the 鸟牌, the seat it
names and each bird's points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from engine.birds import bird_seat
from engine.points import hand_points, signed
from engine.rules import NO_CAP, RuleSet, get_rule_set, house_options, title_of
from engine.views import Outcome, OutcomeKind, PublicView, Win
from render import fonts
from render import theme as T
from render.scene import Box, Format, Rect, Scene, column_height, render
from render.strings import table
from render.widgets import kind_name, pill, rules_label

WIDTH = 840
M = 24
GROUP_ADV = T.MELD.w + 20  # leaves the score panel room for its formula line at FORMULA_PX
GROUPS_PER_ROW = 7
ROW_H = 46
FORMAT: Format = "PNG"  # once per hand: exact colours matter more than ~10 ms
RULES_PX = 20  # the rules label, right of the title
PANEL_PAD = 36  # the score panel's room below its last line
POINTS_X = 470  # the points column, in the seats' table and the birds'
BIRDS_HEAD = 44  # the 打鸟 panel's title row
FORMULA_PX = 24  # the formula line: about 11 px tall when a phone shows the picture 400 px wide


class Line(NamedTuple):
    """One line of the score panel and the distance to the next."""

    text: str
    px: int
    colour: T.RGB
    bold: bool
    advance: int


def layout_settlement(
    view: PublicView,
    names: Sequence[str],
    totals: Sequence[int] | None = None,
    lang: str = "zh",
    *,
    birds: Sequence[tuple[str, int]] = (),
) -> Scene:
    outcome = view.outcome
    if outcome is None:
        raise ValueError("the hand has not ended: view.outcome is None")
    if len(names) < len(view.seats) or (totals is not None and len(totals) < len(view.seats)):
        raise ValueError("need one name (and total) per seat")
    s = table(lang)
    rules = get_rule_set(view.rule_set)
    win = outcome.win if outcome.kind == OutcomeKind.WIN else None
    lines = score_lines(win, rules, s) if win is not None else []
    body_h = _win_height(win, lines) if win is not None else 70
    top = 84
    points_y = top + body_h + 40
    points_h = ROW_H * (len(view.seats) + 1) + 8
    height = points_y + points_h + M
    if birds:
        height += _birds_height(outcome, birds) + 16
    scene = Scene(WIDTH, height)
    _title(scene, view, outcome, names, s)
    if win is not None:
        _win_body(scene, win, lines, top)
    else:
        scene.text(M, top + 10, _note(view, outcome, s), 24, T.TEXT_DIM, max_width=WIDTH - 2 * M)
    _points(scene, view, outcome, names, totals, s, points_y, len(birds))
    if birds:
        _birds(scene, view, rules, names, birds, s, points_y + points_h + 16)
    return scene


def _note(view: PublicView, outcome: Outcome, s: Mapping[str, str]) -> str:
    """What a hand without a winner came to: 荒庄 (the dealer paying 醒筹 where a 醒家 sits
    out) or 逃跑 (paid to each of the others)."""
    if outcome.kind == OutcomeKind.DISSOLVED:
        return s["dissolved_note"]
    if outcome.kind == OutcomeKind.DRAW:
        if outcome.xing is not None and outcome.points[outcome.xing]:
            return s["draw_note_xing"].format(p=outcome.points[outcome.xing])
        return s["draw_note"]
    paid = sum(p > 0 for p in outcome.points)
    key = {1: "escape_note_one", 2: "escape_note"}.get(paid, "escape_note_many")
    return s[key].format(p=max(outcome.points), n=paid)


def _group_rows(win: Win) -> tuple[int, int]:
    """(rows of groups, height of one row with its labels): 7 groups a row (a forced 天胡
    may have more)."""
    cards_h = max((column_height(len(g.cards), T.MELD) for g in win.groups), default=0)
    return max(1, -(-len(win.groups) // GROUPS_PER_ROW)), cards_h + 64


def _win_height(win: Win, lines: Sequence[Line]) -> int:
    """Room for the groups with their labels, and for the score panel's lines."""
    rows, row_h = _group_rows(win)
    panel_h = 6 + sum(line.advance for line in lines) + PANEL_PAD
    return max(rows * row_h, panel_h)


def score_lines(win: Win, rules: RuleSet, s: Mapping[str, str]) -> list[Line]:
    """The score panel: 胡息, 底 and 番 adding up (qq, four14), or 囤 with 自摸 and the 名堂
    multiplying (hunan); then how the points follow."""
    if rules.mingtang_multiply:
        di = [Line(s["tun"].format(n=win.di), 24, T.TEXT, True, 38)]
        if win.zimo and rules.zimo_bonus:
            di.append(Line(s["tun_zimo"].format(n=rules.zimo_bonus), 20, T.TEXT_DIM, False, 32))
        items = [s["mult_item"].format(name=n, n=f) for n, f in win.mingtang] or [s["plain_mult"]]
        total, formula = s["mult_total"], s["formula_tun"]
    else:
        di = [Line(s["di"].format(n=win.di), 24, T.TEXT, True, 38)]
        items = [s["fan_item"].format(name=n, n=f) for n, f in win.mingtang] or [s["plain_win"]]
        total, formula = s["fan_total"], s["formula"]
    return [
        Line(s["total_huxi"].format(n=win.huxi), 28, T.GOLD, True, 46),
        *di,
        *(Line(item, 22, T.TEXT, False, 32) for item in items),
        Line(total.format(n=win.fan), 24, T.TEXT, True, 40),
        Line(formula.format(x=win.di, f=win.fan, d=win.base), FORMULA_PX, T.TEXT, False, 34),
        *_capped(win, rules, s),
        Line(s["each_pays"].format(p=-win.loser_points), 20, T.TEXT, True, 26),
    ]


def _capped(win: Win, rules: RuleSet, s: Mapping[str, str]) -> list[Line]:
    """封顶 cut each loser's payment: the rule's word, what he would have paid and what he
    pays (regular type: the bold subset holds the string tables' characters only)."""
    if win.uncapped_loser_points is None:
        return []
    word = next(o.current for o in house_options(rules) if NO_CAP in o.choices)
    return [Line(s["capped"].format(word=word, was=-win.uncapped_loser_points,
                                    p=-win.loser_points), 22, T.GOLD, False, 32)]


def _title(
    scene: Scene, view: PublicView, outcome: Outcome, names: Sequence[str], s: Mapping[str, str]
) -> None:
    marks: list[str] = []
    if outcome.kind == OutcomeKind.WIN and outcome.winner is not None:
        key, seat = "win_title", outcome.winner
        win = outcome.win
        if win is not None:
            flags = (
                ("tianhu", win.tianhu),
                ("dihu", win.dihu),
                ("zimo", win.zimo),
                ("haidi", win.haidi),
            )
            marks = [s[m] for m, on in flags if on]
    elif outcome.kind == OutcomeKind.ESCAPE and outcome.escaper is not None:
        key, seat = "escape_title", outcome.escaper
    elif outcome.kind == OutcomeKind.DISSOLVED:
        key, seat = "dissolved_title", None
    else:
        key, seat = "draw_title", None
    rules = rules_label(s, view.rule_set)
    rules_w = round(fonts.font(RULES_PX, True).getlength(rules))
    scene.text(WIDTH - M, 41, rules, RULES_PX, T.TEXT_DIM, bold=True, anchor="rm")
    if seat is None:
        scene.text(M, 20, s[key], 38, T.GOLD, bold=True, max_width=WIDTH - 2 * M - rules_w - 16)
        return
    marks_w = sum(round(fonts.font(24, True).getlength(m)) + 24 + 10 for m in marks)
    template = s[key]
    prefix, _, suffix = template.partition("{name}")
    f = fonts.font(36)
    box = Rect(M, 16, WIDTH - 2 * M - marks_w - 10 - rules_w - 16, 50)
    who = fonts.name(names[seat], f, max(40, box.w - f.getlength(prefix + suffix)))
    text = scene.text(
        M, box.y + box.h // 2, prefix + who + suffix, 36, T.GOLD, anchor="lm", max_width=box.w
    )
    scene.named[f"name:{seat}"] = box
    x = M + round(f.getlength(text)) + 16
    for m in marks:
        x = pill(scene, x, 24, m, 24, T.DEALER).right + 10


def _win_body(scene: Scene, win: Win, lines: Sequence[Line], top: int) -> None:
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
    height = _win_height(win, lines) - 8
    scene.add(Box(Rect(px, top - 8, pw, height), fill=T.FELT_DARK, radius=12))
    x, y = px + 16, top + 6
    for line in lines:
        scene.text(x, y, line.text, line.px, line.colour, bold=line.bold, max_width=pw - 32)
        y += line.advance


def _points(
    scene: Scene,
    view: PublicView,
    outcome: Outcome,
    names: Sequence[str],
    totals: Sequence[int] | None,
    s: Mapping[str, str],
    y: int,
    birds: int,
) -> None:
    """Each seat's points for the hand (:mod:`engine.points`: with what the ``birds`` paid
    or took, as every text of the hand says them) and, when given, his running total."""
    cols = (M + 16, POINTS_X, 620)
    points = hand_points(get_rule_set(view.rule_set), outcome, view.dealer, birds)
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
        for text, fill, ink in row_tags(view, outcome, i, s):
            x = pill(scene, x, ry + 8, text, 18, fill, ink).right + 6
        scene.name(Rect(x, ry + 4, cols[1] - 24 - x, ROW_H - 8), f"row:{i}", names[i], 24)
        shown = _signed(scene, cols[1], ry + ROW_H // 2, points[i].total)
        # his points are 醒筹, not a result of play; a part paid to or by the birds is named
        tags = [s["xing_chips"]] if i == outcome.xing else []
        tags += [s["birds_part"].format(p=signed(points[i].birds))] if points[i].birds else []
        if tags:
            sx = cols[1] + round(fonts.font(26, True).getlength(shown)) + 8
            scene.text(sx, ry + ROW_H // 2, " ".join(tags), 22, T.TEXT_DIM, anchor="lm",
                       max_width=cols[2] - 8 - sx)
        if totals is not None:
            t = totals[i]
            text = scene.text(cols[2], ry + ROW_H // 2, f"{t:,}", 26, bold=True, anchor="lm")
            tx = cols[2] + round(fonts.font(26, True).getlength(text)) + 12
            scene.text(
                tx,
                ry + ROW_H // 2,
                title_of(t),
                20,
                T.TEXT_DIM,
                anchor="lm",
                max_width=WIDTH - M - 16 - tx,
            )


def _birds_height(outcome: Outcome, birds: Sequence[tuple[str, int]]) -> int:
    card = T.MELD.h + 12 if outcome.bird_card is not None else 0
    return BIRDS_HEAD + card + ROW_H * len(birds) + 8


def _birds(
    scene: Scene,
    view: PublicView,
    rules: RuleSet,
    names: Sequence[str],
    birds: Sequence[tuple[str, int]],
    s: Mapping[str, str],
    y: int,
) -> None:
    """打鸟: what it means (app players know it as a stake raise), the 鸟牌 and the seat it
    names, then each bird's points (the same as that seat's)."""
    outcome = view.outcome
    assert outcome is not None
    x, w = M + 16, WIDTH - 2 * M - 32
    scene.add(
        Box(Rect(M, y, WIDTH - 2 * M, _birds_height(outcome, birds)), fill=T.FELT_DARK, radius=12)
    )
    scene.text(x, y + 12, s["birds_title"], 20, T.GOLD, bold=True, max_width=w)
    y += BIRDS_HEAD
    if outcome.bird_card is not None:
        scene.card(x, y, outcome.bird_card, T.MELD, "bird")
        tx = x + T.MELD.w + 16
        scene.text(tx, y + 4, s["bird_card"], 20, T.TEXT_DIM, bold=True)
        seat = bird_seat(rules, view.dealer, outcome.bird_card)
        role = s[_bird_role(view, outcome, seat)]
        prefix = s["bird_follows"].format(role=role, name="")
        f = fonts.font(26)
        who = fonts.name(names[seat], f, w - (tx - x) - f.getlength(prefix))
        scene.text(tx, y + 50, s["bird_follows"].format(role=role, name=who), 26, anchor="lm")
        y += T.MELD.h + 12
    for j, (name, p) in enumerate(birds):
        scene.name(Rect(x, y + 4, POINTS_X - 24 - x, ROW_H - 8), f"bird:{j}", name, 24)
        _signed(scene, POINTS_X, y + ROW_H // 2, p)
        y += ROW_H


def _bird_role(view: PublicView, outcome: Outcome, seat: int) -> str:
    """The string key naming the seat a bird follows by where it sits: 庄家, 醒家, 下家, 上家."""
    if seat == view.dealer:
        return "dealer_seat"
    if seat == outcome.xing:
        return "xing"
    return "next_seat" if (seat - view.dealer) % len(view.seats) == 1 else "prev_seat"


def row_tags(
    view: PublicView, outcome: Outcome, i: int, s: Mapping[str, str]
) -> list[tuple[str, T.RGB, T.RGB]]:
    """The marks before seat ``i``'s name, as (text, fill, ink): 庄, then 胡, 点炮 (the seat
    whose discard was won on), 逃 or 醒家."""
    tags = [(s["dealer"], T.DEALER, T.TEXT)] if i == view.dealer else []
    if i == outcome.winner:
        tags.append((s["winner"], T.GOLD, T.FELT_DARK))
    if i == outcome.fed_by:
        tags.append((s["fed_by"], T.LAST_MOVE, T.FELT_DARK))
    if i == outcome.escaper:
        tags.append((s["escaper"], T.GOLD, T.FELT_DARK))
    if i == outcome.xing:
        tags.append((s["xing"], T.XING, T.TEXT))
    return tags


def _signed(scene: Scene, x: int, y: int, p: int) -> str:
    """Points for the hand, signed and coloured (won red, lost blue), left-middle at (x, y)."""
    colour = T.WIN if p > 0 else T.LOSS if p < 0 else T.TEXT
    return scene.text(x, y, signed(p), 26, colour, bold=True, anchor="lm")


def render_settlement(
    view: PublicView,
    names: Sequence[str],
    totals: Sequence[int] | None = None,
    lang: str = "zh",
    *,
    birds: Sequence[tuple[str, int]] = (),
) -> bytes:
    """The end-of-hand image. ``view.outcome`` must be set; ``totals[i]`` is seat i's running
    total after this hand (column left out when None); ``birds``: each bird's (name, points)
    at a table with 打鸟 (section left out when empty)."""
    return render(lambda: layout_settlement(view, names, totals, lang, birds=birds), FORMAT)
