"""The picture of a 复盘 moment: the table as the reviewed seat saw it then, the better move marked.

Built from the seat's ``PrivateView`` at that decision (``engine.review.Decision.view``) and
nothing else: below a header it is the seat's own picture (``render.hand``), which shows the
seat's hand face up and every other seat only as the seat saw it — hand counts, face-up melds,
hidden melds as backs, discards. So unlike the /replay picture of a finished hand, which shows
every hand, it cannot show a card the seat could not see then.

The header: 复盘 · 第 k/n 步 (k counted from 1: the move's number, the /replay step that
shows it played; the picture is the table just before it), what the seat played and the
better move, and the moment's flag texts. In the picture the better discard is outlined in
green in the hand, the discard played in red; a better 吃, 碰 or 胡 outlines the card on
offer in green; a better 过 labels it 过 in green, with the take played outlined in red.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from engine import actions as A
from engine.review import Decision, Flag, Review
from engine.rules import get_rule_set
from engine.ting import ting
from render import fonts
from render import theme as T
from render.hand import WIDTH, layout_hand
from render.scene import Box, CardSlot, Format, Item, Rect, Scene, Text, render
from render.strings import pages
from render.widgets import pill

M = 16
TITLE_PX = 32
MOVE_PX = 28
FLAG_PX = 25
LINE_H = 34
FLAG_LINES = 2  # lines at most per flag text
BETTER: T.RGB = (60, 230, 140)  # the better move: its line and its card's outline
PLAYED: T.RGB = (255, 96, 84)  # the move played, where it was not the better one
OUTLINE = 6
PASS_PX = 24  # the 过 label of a better pass
FORMAT: Format = "PNG"  # sent once, with text to read: PNG keeps it sharp
# The header is drawn in the Regular face: the Bold subset holds only the string tables'
# characters (scripts/make_font.py), the Regular one the common hanzi these texts use.

_WORDS = {
    "zh": {"title": "复盘", "played": "你：{move}", "better": "更好：{move}", "agree": "强者同意"},
    "en": {"title": "Review", "played": "You: {move}", "better": "Better: {move}",
           "agree": "The strong player agrees"},
}


def better_move(decision: Decision, flags: Sequence[Flag]) -> str | None:
    """The move to mark: the first flag's, else the strong player's choice when the seat's
    was not as good; None when the seat's move was as good as any."""
    for f in flags:
        if f.better is not None:
            return f.better
    return decision.best if decision.best != decision.played else None


def layout_moment(
    decision: Decision, flags: Sequence[Flag], total: int, names: Sequence[str], lang: str = "zh"
) -> Scene:
    """``decision`` (one seat's, from ``engine.review``) with its ``flags``; ``total``: the
    record's log length; ``names[i]`` seat i's display name."""
    lang = lang if lang in _WORDS else "zh"
    words = _WORDS[lang]
    view = decision.view
    better = better_move(decision, flags)
    flag_lines = [line for f in flags for line in wrap(f.text, FLAG_PX, WIDTH - 2 * M)]
    head = 20 + TITLE_PX + 16 + LINE_H + len(flag_lines) * LINE_H + 14
    inner = layout_hand(view, names, lang, ting=ting(get_rule_set(view.public.rule_set), view))
    scene = Scene(WIDTH, head + inner.height)
    step = pages(lang)["replay_step"].format(k=decision.move_no, n=total)
    scene.text(M, 20 + TITLE_PX // 2, f"{words['title']} · {step}", TITLE_PX, T.GOLD,
               anchor="lm")
    y = 20 + TITLE_PX + 16 + LINE_H // 2
    played = words["played"].format(move=A.label(decision.played, lang))
    scene.text(M, y, played, MOVE_PX, PLAYED if better else T.TEXT, anchor="lm")
    x = M + round(fonts.font(MOVE_PX).getlength(played)) + 28
    mark = words["better"].format(move=A.label(better, lang)) if better else words["agree"]
    scene.text(x, y, mark, MOVE_PX, BETTER, anchor="lm", max_width=WIDTH - M - x)
    for line in flag_lines:
        y += LINE_H
        scene.text(M, y, line, FLAG_PX, T.TEXT, anchor="lm")
    scene.add(Box(Rect(M, head - 8, WIDTH - 2 * M, 2), fill=T.FELT_LINE))
    for item in inner.items:
        scene.add(moved(item, head))
    scene.named.update({k: down(r, head) for k, r in inner.named.items()})
    seat = decision.seat
    if better is not None and A.parse(better).kind == "pass":
        pass_mark(scene, seat, BETTER)
        outline(scene, seat, decision.played, PLAYED)  # the 吃, 碰 or 胡 it should not have
    elif better is not None:
        outline(scene, seat, better, BETTER)
        if A.parse(decision.played).kind == "discard":
            outline(scene, seat, decision.played, PLAYED)
    return scene


def pass_mark(scene: Scene, seat: int, colour: T.RGB) -> None:
    """A 过 marked: a 过 label on the card on offer, over its lower part (a frame would read
    as a card to take; under the card it would cover the hand)."""
    slot = marked_slot(scene, seat, A.PASS)
    if slot is None:
        return
    label = A.label(A.PASS, "zh")  # the game term alone: "过 Pass" is wider than the card
    w = round(fonts.font(PASS_PX, bold=True).getlength(label)) + PASS_PX
    v = slot.visible
    h = round(PASS_PX * 1.5)
    rect = pill(scene, v.x + (v.w - w) // 2, v.bottom - h - 4, label, PASS_PX, colour,
                T.FELT_DARK)
    scene.named[f"mark:{A.PASS}"] = rect


def outline(scene: Scene, seat: int, action: str, colour: T.RGB, gap: int = 0) -> None:
    """The card of ``action`` (:func:`marked_slot`) framed in ``colour``, ``gap`` pixels
    further out (a second frame around the same card)."""
    slot = marked_slot(scene, seat, action)
    if slot is not None:
        rect = slot.visible.grow(OUTLINE + gap)
        scene.named[f"mark:{action}"] = rect
        scene.add(Box(rect, outline=colour, width=OUTLINE, radius=8))


def marked_slot(scene: Scene, seat: int, action: str) -> CardSlot | None:
    """The card an action is shown on: a discard's card in the seat's hand (the lowest of its
    kind, the one shown whole), any other answer's card on offer."""
    parsed = A.parse(action)
    if parsed.kind == "discard":
        mine = [c for c in scene.cards if c.role == "hand" and c.seat == seat
                and c.kind == parsed.card and not c.locked]
        return max(mine, key=lambda c: c.rect.y, default=None)
    return next((c for c in scene.cards if c.role == "offer"), None)


def wrap(text: str, px: int, width: int, lines: int = FLAG_LINES) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` (words kept whole where spaces part
    them, Chinese broken anywhere); the last line cut with "…" if needed."""
    fnt = fonts.font(px)
    out: list[str] = []
    line = ""
    for token in _tokens(text):
        if line and fnt.getlength(line + token) > width:
            out.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    out.append(line)
    if len(out) > lines:
        out = [*out[: lines - 1], fonts.fit("".join(out[lines - 1 :]), fnt, width)]
    return [fonts.fit(t, fnt, width) for t in out]


def _tokens(text: str) -> list[str]:
    """Words of ASCII, single spaces, and every other character alone."""
    return re.findall(r"[!-~]+|\s|[^\x00-\x7f]", text)


def down(r: Rect, dy: int) -> Rect:
    return replace(r, y=r.y + dy)


def moved(item: Item, dy: int) -> Item:
    """``item`` drawn ``dy`` pixels lower."""
    if isinstance(item, CardSlot):
        return replace(item, rect=down(item.rect, dy), visible=down(item.visible, dy))
    if isinstance(item, Text):
        return replace(item, y=item.y + dy)
    return replace(item, rect=down(item.rect, dy))


def render_moment(review: Review, seat: int, step: int, names: Sequence[str]) -> bytes:
    """The picture of ``seat``'s decision at ``step`` of ``review`` (``engine.review``), with
    that moment's flags, in the review's language."""
    decision = review.decision(seat, step)
    flags = [f for f in review.flags_of(seat) if f.step == step]
    return render(lambda: layout_moment(decision, flags, review.steps, names, review.lang), FORMAT)
