"""The picture of a 复式挑战's first difference: the position where a player's choice first
left the winner's, with both choices marked.

Up to that decision both had seen the very same game, so it is one picture: the player's own
seat picture then (``render.hand``: his hand face up, every other seat only as he saw it),
under a header naming the challenge, the deal and the decision, then each of the two with
his choice. In the picture the winner's choice is framed in green and the player's in red,
as a 复盘 marks the better and the played move (``render.review``): a discard's card in the
hand, a 吃, 碰 or 胡's card on offer (the second frame further out when both answer the same
card), a 过 as a label on that card. A choice of one who had stopped playing there is named
so in the header and marks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import actions as A
from engine.rules import get_rule_set
from engine.ting import ting
from engine.views import PrivateView
from render import fonts
from render import theme as T
from render.hand import WIDTH, layout_hand
from render.review import (
    BETTER,
    FORMAT,
    LINE_H,
    MOVE_PX,
    OUTLINE,
    PLAYED,
    TITLE_PX,
    M,
    down,
    marked_slot,
    moved,
    outline,
    pass_mark,
)
from render.scene import Box, Rect, Scene, render

_WORDS = {
    "zh": {"title": "复式挑战 #{id} · 第 {deal} 局第 {n} 次决定", "stopped": "没有再打"},
    "en": {"title": "复式挑战 #{id} · hand {deal}, decision {n}", "stopped": "stopped here"},
}


def layout_difference(view: PrivateView, challenge_id: int, deal: int, n: int,
                      his: tuple[str, str | None], best: tuple[str, str | None],
                      names: Sequence[str], lang: str = "zh") -> Scene:
    """``view``: the player's seat then; ``deal`` and ``n`` counted from 1; ``his`` and
    ``best``: (name, action; None if he had stopped), the player's and the winner's."""
    lang = lang if lang in _WORDS else "zh"
    words = _WORDS[lang]
    head = 20 + TITLE_PX + 16 + 2 * LINE_H + 14
    inner = layout_hand(view, names, lang, ting=ting(get_rule_set(view.public.rule_set), view))
    scene = Scene(WIDTH, head + inner.height)
    scene.text(M, 20 + TITLE_PX // 2, words["title"].format(id=challenge_id, deal=deal, n=n),
               TITLE_PX, T.GOLD, anchor="lm", max_width=WIDTH - 2 * M)
    y = 20 + TITLE_PX + 16 + LINE_H // 2
    for (name, action), colour in ((best, BETTER), (his, PLAYED)):
        move = words["stopped"] if action is None else A.label(action, lang)
        label = fonts.fit(f"{name}:", fonts.font(MOVE_PX), (WIDTH - 2 * M) // 2)
        scene.text(M, y, label, MOVE_PX, colour, anchor="lm")
        x = M + round(fonts.font(MOVE_PX).getlength(label)) + 12
        scene.text(x, y, move, MOVE_PX, colour, anchor="lm", max_width=WIDTH - M - x)
        y += LINE_H
    scene.add(Box(Rect(M, head - 8, WIDTH - 2 * M, 2), fill=T.FELT_LINE))
    for item in inner.items:
        scene.add(moved(item, head))
    scene.named.update({k: down(r, head) for k, r in inner.named.items()})
    _mark(scene, view.seat, best[1], his[1])
    return scene


def _mark(scene: Scene, seat: int, best: str | None, his: str | None) -> None:
    """The winner's choice in green, the player's in red; a frame on a card the other's
    already frames goes further out."""
    framed: list[object] = []
    for action, colour in ((best, BETTER), (his, PLAYED)):
        if action is None:
            continue
        if A.parse(action).kind == "pass":
            pass_mark(scene, seat, colour)
            continue
        slot = marked_slot(scene, seat, action)
        outline(scene, seat, action, colour, gap=2 * OUTLINE if slot in framed else 0)
        framed.append(slot)


def render_difference(view: PrivateView, challenge_id: int, deal: int, n: int,
                      his: tuple[str, str | None], best: tuple[str, str | None],
                      names: Sequence[str], lang: str = "zh") -> bytes:
    return render(lambda: layout_difference(view, challenge_id, deal, n, his, best, names,
                                            lang), FORMAT)
