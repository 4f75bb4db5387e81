"""The table image posted in the group: everything a spectator may see.

A header with the 亮张, the stock, the card on offer and whose move it is (the seat that must
discard, or "等待表态" while the table waits for answers it must not name); then one band per
seat with its name, dealer, turn and 托管/电脑 marks, the number of cards in hand (never the
cards), its public 胡息, its table melds
(face-down cards as backs: a 臭偎 or 提 shows one card up) and its discard row. The last
move glows orange.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.melds import GroupKind
from engine.views import Event, OfferHow, PublicView
from render import fonts
from render import theme as T
from render.scene import Box, Format, Rect, Scene, column_height, render
from render.strings import table
from render.widgets import (
    Run,
    event_text,
    glow,
    kind_name,
    meld_column,
    pill,
    rules_label,
    seat_mark,
)

WIDTH = 780  # portrait-friendly: phones show photos at their width
M = 20
PAD = 10  # inside a seat band
HEADER_H = 166
NAME_W = 190  # the name panel, left in a band: name, cards in hand, 胡息, marks
NAME_PANEL_H = 124  # its height: the least a band holds below PAD
MELD_ADV = T.TABLE.w + 10
MELD_LABEL_H = 18  # the meld's kind under its column
DISCARD_ADV = T.SMALL.w + 4
DISCARD_ROW = T.SMALL.h + 6
ROW_GAP = 10
XING_ROW_H = 60  # the 醒家's band: a name and a mark, no cards
FORMAT: Format = "JPEG"  # sent on every move: JPEG encodes ~6x faster than PNG at a similar size


def _check(view: PublicView, names: Sequence[str]) -> None:
    if len(names) < len(view.seats):
        raise ValueError(f"need {len(view.seats)} names, got {len(names)}")


Touched = tuple[str, int | None, tuple[int, ...]]  # what the last move touched: see last_move


def last_move(view: PublicView) -> Touched:
    """What the last public event touched: ("offer"|"melds"|"discard"|"", seat, indexes)."""
    ev: Event | None = view.last_event
    if ev is None or ev.seat is None:
        return ("", None, ())
    seat = view.seats[ev.seat]
    if ev.kind in ("discard", "draw", "liang") and view.offer is not None:
        return ("offer", ev.seat, ())
    if ev.kind == "chi":
        n = len(seat.melds)
        return ("melds", ev.seat, tuple(range(max(0, n - len(ev.groups)), n)))
    if ev.kind in (GroupKind.PENG, GroupKind.PAO, GroupKind.TI, GroupKind.WEI, GroupKind.CHOUWEI):
        hits = [
            i
            for i, m in enumerate(seat.melds)
            if m.kind == ev.kind and (not ev.cards or ev.cards[0] in m.cards)
        ]
        return ("melds", ev.seat, tuple(hits[-1:]))
    if ev.kind == "to_row" and seat.discards:
        return ("discard", ev.seat, (len(seat.discards) - 1,))
    return ("", None, ())


def _discards_x(view: PublicView, i: int) -> int:
    """Discards sit right of the melds, in a band (room for three melds at least, so they
    rarely move), not in a row of their own below: a band is as tall as its tallest part."""
    return M + PAD + NAME_W + max(len(view.seats[i].melds), 3) * MELD_ADV + 6


def _discard_cols(view: PublicView, i: int) -> int:
    return max(1, (WIDTH - M - PAD - _discards_x(view, i) + 4) // DISCARD_ADV)


def _row_height(view: PublicView, i: int) -> int:
    if i == view.xing:
        return XING_ROW_H
    seat = view.seats[i]
    melds = max((column_height(len(m.cards), T.TABLE) for m in seat.melds), default=0)
    rows = math.ceil(len(seat.discards) / _discard_cols(view, i))
    content = max(NAME_PANEL_H, melds + MELD_LABEL_H if melds else 0, rows * DISCARD_ROW - 6)
    return PAD + content + PAD


def layout_table(
    view: PublicView,
    names: Sequence[str],
    lang: str = "zh",
    *,
    trustee: frozenset[int] = frozenset(),
    robots: frozenset[int] = frozenset(),
) -> Scene:
    _check(view, names)
    s = table(lang)
    heights = [_row_height(view, i) for i in range(len(view.seats))]
    height = HEADER_H + sum(h + ROW_GAP for h in heights) + M - ROW_GAP
    scene = Scene(WIDTH, height)
    touched = last_move(view)
    _header(scene, view, names, s, touched)
    y = HEADER_H
    for i, h in enumerate(heights):
        if i == view.xing:
            xing_band(scene, Rect(M, y, WIDTH - 2 * M, h), names[i], i, s, 24)
        else:
            _seat_row(scene, view, names, s, i, y, h, touched, seat_mark(s, i, trustee, robots))
        y += h + ROW_GAP
    return scene


def _header(
    scene: Scene,
    view: PublicView,
    names: Sequence[str],
    s: Mapping[str, str],
    touched: Touched,
) -> None:
    x, y = M, 20
    # The rules in force, top right (clear of the offer and its label).
    left = M + 260 + T.HAND.w + 18
    rules = rules_label(s, view.rule_set)
    scene.text(
        WIDTH - M, y - 4, rules, 20, T.TEXT_DIM, bold=True, anchor="ra", max_width=WIDTH - M - left
    )
    # 亮张 and stock, left.
    scene.add(Box(Rect(x, y - 8, 236, HEADER_H - 28), fill=T.FELT_DARK, radius=12))
    scene.text(x + 16 + T.MELD.w // 2, y, s["liang"], 20, T.TEXT_DIM, bold=True, anchor="mt")
    scene.card(x + 16, y + 34, view.liangzhang, T.MELD, "liang", view.dealer)
    sx = x + 130
    scene.card(sx, y + 34, None, T.MELD, "stock")
    scene.text(
        sx + T.MELD.w // 2,
        y + 34 + T.MELD.h // 2,
        str(view.stock_count),
        26,
        T.TEXT,
        bold=True,
        anchor="mm",
    )
    scene.text(
        sx + T.MELD.w // 2,
        y,
        s["stock"].format(n=view.stock_count),
        20,
        T.TEXT_DIM,
        bold=True,
        anchor="mt",
        max_width=100,
    )
    # The card on offer, centre-left.
    ox = M + 260
    offer = view.offer
    if offer is not None:
        scene.text(ox + T.HAND.w // 2, y, s["offer"], 20, T.TEXT_DIM, bold=True, anchor="mt")
        rect = Rect(ox, y + 32, T.HAND.w, T.HAND.h)
        glow(scene, rect, T.LAST_MOVE if touched[0] == "offer" else T.HIGHLIGHT)
        scene.card(rect.x, rect.y, offer.card, T.HAND, "offer", offer.seat)
        how = {
            OfferHow.LIANG: "how_liang",
            OfferHow.DRAW: "how_draw",
            OfferHow.DISCARD: "how_discard",
        }[offer.how]
        f = fonts.font(24)
        who = fonts.name(names[offer.seat], f, 260)
        scene.text(
            rect.right + 18,
            rect.y + 30,
            s[how].format(name=who),
            24,
            anchor="lm",
            max_width=WIDTH - M - rect.right - 18,
        )
    # Whose turn and the last move, right of the offer.
    tx = ox + T.HAND.w + 18 if offer is not None else ox
    tw = WIDTH - M - tx
    f = fonts.font(22)
    if view.to_act and view.outcome is None:
        each = (tw - 120) / len(view.to_act)
        who_all = s["name_sep"].join(fonts.name(names[i], f, each) for i in view.to_act)
        scene.text(
            tx,
            y + 32 + 58,
            s["to_act"].format(names=who_all),
            22,
            T.GOLD,
            anchor="lm",
            max_width=tw,
        )
    elif view.waiting and view.outcome is None:
        scene.text(tx, y + 32 + 58, s["waiting"], 22, T.GOLD, anchor="lm", max_width=tw)
    if view.last_event is not None:
        desc = event_text(view.last_event, names, s, 22, 240)
        scene.text(
            tx, y + 32 + 94, s["last"].format(desc=desc), 22, T.TEXT_DIM, anchor="lm", max_width=tw
        )


def is_acting(view: PublicView, i: int) -> bool:
    """Whether seat ``i`` is to act in a running hand."""
    return i in view.to_act and view.outcome is None


def seat_band(scene: Scene, view: PublicView, i: int, band: Rect, radius: int) -> None:
    """Seat ``i``'s band, named ``seat:i``; gold-edged while it acts."""
    acting = is_acting(view, i)
    scene.named[f"seat:{i}"] = band
    scene.add(
        Box(
            band,
            fill=T.FELT_DARK,
            outline=T.GOLD if acting else T.FELT_LINE,
            width=3 if acting else 1,
            radius=radius,
        )
    )


def _seat_row(
    scene: Scene,
    view: PublicView,
    names: Sequence[str],
    s: Mapping[str, str],
    i: int,
    y: int,
    h: int,
    touched: Touched,
    mark: Run | None,
) -> None:
    seat = view.seats[i]
    seat_band(scene, view, i, Rect(M, y, WIDTH - 2 * M, h), radius=14)
    # Name panel: dealer mark, name, cards in hand, shown 胡息, turn.
    x = M + PAD
    nx = x
    if view.dealer == i:
        nx = pill(scene, x, y + 12, s["dealer"], 20, T.DEALER).right + 8
    scene.name(Rect(nx, y + 10, x + NAME_W - 10 - nx, 36), f"name:{i}", names[i], 26)
    scene.text(x, y + 52, s["hand_count"].format(n=seat.hand_count), 22, max_width=NAME_W - 10)
    scene.text(
        x,
        y + 80,
        s["shown_huxi"].format(n=seat.shown_huxi),
        22,
        T.GOLD,
        bold=True,
        max_width=NAME_W - 10,
    )
    px = x
    if is_acting(view, i):
        px = pill(scene, x, y + 110, "▶ " + s["turn"], 18, T.GOLD, T.FELT_DARK).right + 8
    if mark is not None:
        pill(scene, px, y + 110, mark[0], 18, mark[1])
    # Melds, right of the name panel.
    mx = x + NAME_W
    top = y + PAD
    for j, meld in enumerate(seat.melds):
        cx = mx + j * MELD_ADV
        col_h = column_height(len(meld.cards), T.TABLE)
        if touched[0] == "melds" and touched[1] == i and j in touched[2]:
            glow(scene, Rect(cx, top, T.TABLE.w, col_h), T.LAST_MOVE, 4)
        meld_column(scene, cx, top, meld, T.TABLE, i, owner=False)
        scene.text(
            cx + T.TABLE.w // 2,
            top + col_h + 3,
            kind_name(meld.kind),
            16,
            T.TEXT_DIM,
            anchor="mt",
            max_width=MELD_ADV,
        )
    # Discards, right of the melds behind a thin line.
    dx = _discards_x(view, i)
    scene.add(Box(Rect(dx - 6, top, 2, h - 2 * PAD), fill=T.FELT_LINE))
    cols = _discard_cols(view, i)
    for j, kind in enumerate(seat.discards):
        cx = dx + (j % cols) * DISCARD_ADV
        cy = top + (j // cols) * DISCARD_ROW
        if touched[0] == "discard" and touched[1] == i and j in touched[2]:
            glow(scene, Rect(cx, cy, T.SMALL.w, T.SMALL.h), T.LAST_MOVE, 3)
        scene.card(cx, cy, kind, T.SMALL, "discard", i)


def xing_band(scene: Scene, band: Rect, name: str, i: int, s: Mapping[str, str], px: int) -> None:
    """The 醒家's compact band: the 醒家 mark, the name and what sitting out means; no cards,
    no counts (he holds none this hand)."""
    scene.named[f"seat:{i}"] = band
    scene.add(Box(band, fill=T.XING_BAND, outline=T.XING, width=2, radius=12))
    mid = band.y + band.h // 2
    pill_px = round(px * 0.8)
    x = pill(scene, band.x + PAD, mid - round(pill_px * 0.75), s["xing"], pill_px, T.XING).right
    note = s["xing_note"]
    note_w = min(round(fonts.font(px - 4).getlength(note)), band.w // 2)
    right = band.right - PAD
    scene.text(right, mid, note, px - 4, T.TEXT_DIM, anchor="rm", max_width=note_w)
    scene.name(
        Rect(x + 10, mid - px // 2 - 2, right - note_w - 20 - x, px + 4), f"name:{i}", name, px
    )


def render_table(
    view: PublicView,
    names: Sequence[str],
    lang: str = "zh",
    *,
    trustee: frozenset[int] = frozenset(),
    robots: frozenset[int] = frozenset(),
) -> bytes:
    """The group's table image; ``names[i]`` is seat i's display name; ``trustee`` and
    ``robots`` are the seats marked 托管 and 电脑."""
    return render(lambda: layout_table(view, names, lang, trustee=trustee, robots=robots), FORMAT)
