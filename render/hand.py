"""The hand image a player gets in his private chat.

His hand in columns by point (1..10) as players sort it — 坎 first and framed as locked, then
small before big — the card on offer or just drawn, his own table melds (cards hidden from
the others marked 暗), his 当前胡息, whose turn it is, and his 臭 kinds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import cards as C
from engine.views import OfferHow, PrivateView
from render import fonts
from render import theme as T
from render.scene import Box, Rect, Scene, column_height, render
from render.strings import table
from render.widgets import glow, group_huxi, kind_name, meld_column, pill

M = 24  # outer margin
COL_GAP = 10
MELD_GAP = 16
PANEL_W = 180
HEADER_H = 112
PANEL_FULL_H = 252  # stock, label, card, who
PANEL_STOCK_H = 44  # stock only
FORMAT = "JPEG"  # sent on every move: JPEG encodes ~6x faster than PNG at a similar size


def hand_columns(view: PrivateView) -> list[list[tuple[int, bool]]]:
    """Non-empty point columns, each a list of (kind, locked) from top to bottom."""
    cols = []
    for p in range(1, 11):
        kinds = [k for k in view.hand if C.point(k) == p]
        kinds.sort(key=lambda k: (k not in view.kans, C.is_big(k)))
        if kinds:
            cols.append([(k, k in view.kans) for k in kinds])
    return cols


def _check(view: PrivateView, names: Sequence[str]) -> None:
    if len(names) < len(view.public.seats):
        raise ValueError(f"need {len(view.public.seats)} names, got {len(names)}")


def layout_hand(view: PrivateView, names: Sequence[str], lang: str = "zh") -> Scene:
    _check(view, names)
    s = table(lang)
    cols = hand_columns(view)
    hand_w = max(len(cols) * (T.HAND.w + COL_GAP) - COL_GAP, 0)
    shows = view.public.offer is not None or view.highlight is not None
    panel_h = PANEL_FULL_H if shows else PANEL_STOCK_H
    hand_h = max([panel_h - 16, *(column_height(len(c), T.HAND) for c in cols)])
    melds_w = len(view.melds) * (T.MELD.w + MELD_GAP)
    main_w = max(hand_w, melds_w, 520)
    width = M + main_w + 2 * M + PANEL_W + M

    melds_top = HEADER_H + hand_h + 28
    melds_h = max((column_height(len(m.cards), T.MELD) for m in view.melds), default=0)
    height = melds_top + 40 + (melds_h + 56 if view.melds else 30) + (50 if view.chou else 0) + M
    scene = Scene(width, height)

    _header(scene, view, names, s, width)

    # The hand, in columns by point; 坎 framed.
    x0 = M
    for i, col in enumerate(cols):
        x = x0 + i * (T.HAND.w + COL_GAP)
        scene.column(
            x,
            HEADER_H,
            [k for k, _ in col],
            T.HAND,
            "hand",
            view.seat,
            locked=[lk for _, lk in col],
        )
        n_locked = sum(lk for _, lk in col)
        for start in range(0, n_locked, 3):  # a column may hold a small and a big 坎
            top = HEADER_H + start * T.HAND.step
            last = start + 2 == len(col) - 1
            h = 2 * T.HAND.step + (T.HAND.h if last else T.HAND.step)
            scene.add(
                Box(
                    Rect(x - 3, top - 3, T.HAND.w + 6, h + 6),
                    outline=T.BACK_EDGE,
                    width=3,
                    radius=T.HAND.radius + 2,
                )
            )

    _panel(scene, view, names, s, width - M - PANEL_W)

    # His table melds.
    y = melds_top
    scene.text(M, y, s["my_melds"], 24, bold=True)
    if any(not all(m.face_up) for m in view.melds):
        note_x = M + round(fonts.font(24, bold=True).getlength(s["my_melds"])) + 20
        scene.text(note_x, y + 4, s["hidden_note"], 18, T.TEXT_DIM, max_width=width - M - note_x)
    y += 40
    if not view.melds:
        scene.text(M, y, s["no_melds"], 20, T.TEXT_DIM)
    for i, meld in enumerate(view.melds):
        x = M + i * (T.MELD.w + MELD_GAP)
        meld_column(scene, x, y, meld, T.MELD, view.seat, owner=True)
        scene.text(
            x + T.MELD.w // 2,
            y + melds_h + 6,
            kind_name(meld.kind),
            18,
            anchor="mt",
            max_width=T.MELD.w + MELD_GAP - 2,
        )
        hx = group_huxi(meld)
        if hx:
            scene.text(
                x + T.MELD.w // 2, y + melds_h + 30, str(hx), 18, T.GOLD, bold=True, anchor="mt"
            )
        if not all(meld.face_up):
            pill(scene, x + T.MELD.w - 12, y - 12, s["hidden"], 14, T.BACK)
    if view.chou:
        y = height - M - T.SMALL.h
        label = s["chou"]
        scene.text(M, y + T.SMALL.h // 2, label, 20, T.TEXT_DIM, bold=True, anchor="lm")
        x = M + round(fonts.font(20, bold=True).getlength(label)) + 12
        for k in view.chou:
            scene.card(x, y, k, T.SMALL, "chou", view.seat)
            x += T.SMALL.w + 6
    return scene


def _panel(
    scene: Scene, view: PrivateView, names: Sequence[str], s: Mapping[str, str], px: int
) -> None:
    """Right of the hand: the stock, and the card on offer or just drawn (glowing)."""
    offer = view.public.offer
    shown = offer.card if offer is not None else view.highlight
    top = HEADER_H - 8
    h = PANEL_STOCK_H if shown is None else PANEL_FULL_H
    mid = px + PANEL_W // 2
    scene.add(Box(Rect(px, top, PANEL_W, h), fill=T.FELT_DARK, radius=12))
    stock = s["stock"].format(n=view.public.stock_count)
    scene.text(mid, top + 10, stock, 20, T.TEXT_DIM, anchor="mt", max_width=PANEL_W - 12)
    if shown is None:
        return
    label = s["offer"] if offer is not None else s["just_drawn"]
    scene.text(mid, top + 52, label, 22, T.TEXT, bold=True, anchor="mt", max_width=PANEL_W - 12)
    rect = Rect(mid - T.HAND.w // 2, top + 94, T.HAND.w, T.HAND.h)
    glow(scene, rect)
    scene.card(rect.x, rect.y, shown, T.HAND, "offer")
    if offer is not None:
        how = {
            OfferHow.LIANG: "how_liang",
            OfferHow.DRAW: "how_draw",
            OfferHow.DISCARD: "how_discard",
        }[offer.how]
        who = fonts.name(names[offer.seat], fonts.font(20), PANEL_W - 70)
        scene.text(
            mid, rect.bottom + 16, s[how].format(name=who), 20, anchor="mt", max_width=PANEL_W - 12
        )


def _header(
    scene: Scene, view: PrivateView, names: Sequence[str], st: Mapping[str, str], width: int
) -> None:
    pub = view.public
    huxi = st["huxi"].format(n=view.huxi)
    huxi_w = round(fonts.font(30, bold=True).getlength(huxi))
    scene.text(width - M, 20, huxi, 30, T.GOLD, bold=True, anchor="ra")
    x = M
    if pub.dealer == view.seat:
        x = pill(scene, M, 22, st["dealer"], 22, T.DEALER).right + 10
    title_box = Rect(x, 16, width - M - huxi_w - 24 - x, 42)
    title = st["hand_title"]
    prefix, _, suffix = title.partition("{name}")
    f = fonts.font(28)
    room = title_box.w - f.getlength(prefix + suffix)
    who = fonts.name(names[view.seat], f, max(room, 40))
    scene.text(
        x,
        title_box.y + title_box.h // 2,
        prefix + who + suffix,
        28,
        anchor="lm",
        max_width=title_box.w,
    )
    scene.named[f"name:{view.seat}"] = title_box
    if view.legal:
        scene.text(M, 66, st["your_turn"], 24, T.GOLD, bold=True)
    elif pub.to_act:
        f24 = fonts.font(24)
        each = (width - 2 * M - 140) / len(pub.to_act)
        who_all = st["name_sep"].join(fonts.name(names[i], f24, each) for i in pub.to_act)
        scene.text(
            M, 66, st["to_act"].format(names=who_all), 24, T.TEXT_DIM, max_width=width - 2 * M
        )


def render_hand(view: PrivateView, names: Sequence[str], lang: str = "zh") -> bytes:
    """The private hand image of ``view.seat``; ``names[i]`` is seat i's display name."""
    return render(lambda: layout_hand(view, names, lang), FORMAT)
