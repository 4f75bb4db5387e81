"""The seat's picture in its private chat: the whole table as that seat sees it.

Built from the seat's ``PrivateView`` only, so it can show nothing the seat may not see. Top
to bottom, in a portrait layout that stays readable at a phone's width:

* the rules in force (湖南跑胡子 · 4人);
* a 醒家 (hunan, 4 seats), who sits the hand out, as one short row: the mark and the name;
* one compact band per other seat, in play order from this seat (下家 … 上家, the 醒家
  skipped): name, 庄, 托管 and 电脑 marks, cards in hand, 明胡息, melds (cards hidden from
  this seat as backs) and discards;
* a strip with the pending card (who drew or discarded it, or the 亮张), the stock, the last
  move, this seat's status line and its two 胡息 — 我的胡息 (everything it holds, 坎 and
  hidden melds included) and 明胡息 (what the others see);
* its hand in columns by point, 坎 first and framed as locked, a 听 badge on each card whose
  discard leaves the hand 听, and the 听 line below;
* its own melds (cards the others cannot see marked 暗) and its 臭 kinds.

The last move's melds or discard glow orange, as in the group picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine import cards as C
from engine.views import MeldView, OfferHow, PrivateView, SeatView, Ting, Wait
from render import fonts
from render import theme as T
from render.scene import MAX_SIDE, Box, CardSlot, Format, Rect, Scene, column_height, render
from render.strings import table
from render.table import Touched, last_move, seat_band, xing_band
from render.widgets import (
    Run,
    event_text,
    glow,
    group_huxi,
    kind_name,
    meld_column,
    pill,
    rules_label,
    seat_mark,
)

WIDTH = 760  # portrait: a phone shows it about 400 px wide
M = 16  # outer margin
PAD = 10  # inside a band
GAP = 6  # between bands
BAND_HEAD = 42  # a seat band's title row
RULES_PX = 18  # the rules line at the top
RULES_H = 22  # its height, the gap to the first band included
XING_H = 44  # the 醒家's band: one row, no cards
PEER_ADV = T.PEER.w + 6
DISC_ADV = T.DISC.w + 4
DISC_ROW = T.DISC.h + 4
OWN_ADV = T.OWN.w + 6
MIN_HAND_STEP = 32  # the own hand's columns overlap at most this much more to fit
MELD_ADV = T.MELD.w + 14
STRIP_H = T.OWN.h + 24
TING_PX = 24
TING_LINE = 34
BADGE_R = 13
TITLE_PILL = 18  # a seat band's title row: pills, name and figures
TITLE_NAME_PX = 24
TITLE_PX = 22
LABEL_PX = 18  # under the own melds
FORMAT: Format = "JPEG"  # sent on every move: JPEG encodes ~6x faster than PNG at a similar size


def hand_columns(view: PrivateView) -> list[list[tuple[int, bool]]]:
    """Non-empty point columns, each a list of (kind, locked) from top to bottom."""
    cols = []
    for p in range(1, 11):
        kinds = [k for k in view.hand if C.point(k) == p]
        kinds.sort(key=lambda k: (k not in view.kans, C.is_big(k)))
        if kinds:
            cols.append([(k, k in view.kans) for k in kinds])
    return cols


def seats_in_play_order(view: PrivateView) -> list[int]:
    """The other seats as play passes from this one: 下家 first, 上家 last; a 醒家, who sits
    the hand out, comes before them all."""
    n = len(view.public.seats)
    order = [(view.seat + d) % n for d in range(1, n)]
    return sorted(order, key=lambda i: i != view.public.xing)  # stable: the rest keep order


def relation_key(view: PrivateView, other: int) -> str:
    """The string key naming ``other`` as seen from this seat: 下家, 上家 or 对家, counted
    over the seats in play (play passes the 醒家 by)."""
    playing = [i for i in range(len(view.public.seats)) if i != view.public.xing or i == view.seat]
    n = len(playing)
    d = (playing.index(other) - playing.index(view.seat)) % n
    if n == 2 or 1 < d < n - 1:
        return "across_seat"
    return "next_seat" if d == 1 else "prev_seat"


def status_line(
    view: PrivateView, names: Sequence[str], s: Mapping[str, str], trustee: frozenset[int]
) -> tuple[str, T.RGB, bool] | None:
    """(text, colour, bold): whose move it is, as this seat should read it; never who may
    claim a card. A line holding a player name is not bold (names use the Regular font)."""
    pub = view.public
    if pub.outcome is not None:
        return None
    if view.seat in trustee:
        return (s["in_trustee"], T.TRUSTEE_INK, True)
    if view.legal:
        return (s["your_turn"], T.GOLD, True)
    if pub.to_act:
        who = s["name_sep"].join(fonts.name(names[i], fonts.font(24), 220) for i in pub.to_act)
        return (s["to_act"].format(names=who), T.TEXT, False)
    if pub.waiting:
        return (s["waiting"], T.TEXT_DIM, True)
    return None


def _check(view: PrivateView, names: Sequence[str]) -> None:
    if len(names) < len(view.public.seats):
        raise ValueError(f"need {len(view.public.seats)} names, got {len(names)}")


def layout_hand(
    view: PrivateView,
    names: Sequence[str],
    lang: str = "zh",
    *,
    trustee: frozenset[int] = frozenset(),
    robots: frozenset[int] = frozenset(),
    ting: Ting | None = None,
) -> Scene:
    _check(view, names)
    s = table(lang)
    others = seats_in_play_order(view)
    bands = [
        XING_H if i == view.public.xing else _band_height(view.public.seats[i]) for i in others
    ]
    cols = hand_columns(view)
    ting_lines = _ting_lines(ting, s, WIDTH - 2 * M)
    ting_h = len(ting_lines) * TING_LINE + (6 if ting_lines else 0)
    rest = RULES_H + sum(h + GAP for h in bands) + STRIP_H + 16 + 12 + ting_h
    rest += _own_melds_height(view) + M
    size = hand_size(max((len(c) for c in cols), default=1), MAX_SIDE - rest)
    hand_h = max((column_height(len(c), size) for c in cols), default=size.h)
    scene = Scene(WIDTH, rest + hand_h)
    rules = rules_label(s, view.public.rule_set)
    scene.text(M + 4, RULES_H // 2, rules, RULES_PX, T.TEXT_DIM, bold=True, anchor="lm")
    y = RULES_H
    for i, h in zip(others, bands, strict=True):
        if i == view.public.xing:
            xing_band(scene, Rect(M, y, WIDTH - 2 * M, h), names[i], i, s, TITLE_NAME_PX)
        else:
            _seat_band(scene, view, names, s, i, y, h, trustee, robots)
        y += h + GAP
    _strip(scene, view, names, s, y, trustee)
    y += STRIP_H + 16
    _hand(scene, view, cols, y, size, ting)
    y += hand_h + 12
    for line in ting_lines:
        _runs(scene, M, y, line, TING_PX)
        y += TING_LINE
    _own_melds(scene, view, s, y + (6 if ting_lines else 0))
    return scene


# --- the other seats ---------------------------------------------------------------------


def _discards_x(seat: SeatView) -> int:
    """Discards start right of the melds (room for three at least, so they rarely move)."""
    return M + PAD + max(len(seat.melds), 3) * PEER_ADV + 10


def _discard_cols(seat: SeatView) -> int:
    return max(1, (WIDTH - M - PAD - _discards_x(seat)) // DISC_ADV)


def _band_height(seat: SeatView) -> int:
    melds_h = max((column_height(len(m.cards), T.PEER) for m in seat.melds), default=0)
    rows = max(1, math.ceil(len(seat.discards) / _discard_cols(seat)))
    return BAND_HEAD + max(melds_h, rows * DISC_ROW - 4) + PAD


def _seat_band(
    scene: Scene,
    view: PrivateView,
    names: Sequence[str],
    s: Mapping[str, str],
    i: int,
    y: int,
    h: int,
    trustee: frozenset[int],
    robots: frozenset[int],
) -> None:
    pub = view.public
    seat = pub.seats[i]
    seat_band(scene, pub, i, Rect(M, y, WIDTH - 2 * M, h), radius=12)
    _band_title(scene, view, names, s, i, y, seat_mark(s, i, trustee, robots))
    top = y + BAND_HEAD
    touched = last_move(pub)
    for j, meld in enumerate(seat.melds):
        x = M + PAD + j * PEER_ADV
        if is_touched(touched, "melds", i, j):
            glow(
                scene,
                Rect(x, top, T.PEER.w, column_height(len(meld.cards), T.PEER)),
                T.LAST_MOVE,
                3,
            )
        meld_column(scene, x, top, meld, T.PEER, i, owner=False)
    dx = _discards_x(seat)
    scene.add(Box(Rect(dx - 6, top, 2, h - BAND_HEAD - PAD), fill=T.FELT_LINE))
    cols = _discard_cols(seat)
    for j, kind in enumerate(seat.discards):
        x, cy = dx + (j % cols) * DISC_ADV, top + (j // cols) * DISC_ROW
        if is_touched(touched, "discard", i, j):
            glow(scene, Rect(x, cy, T.DISC.w, T.DISC.h), T.LAST_MOVE, 3)
        scene.card(x, cy, kind, T.DISC, "discard", i)


def is_touched(touched: Touched, what: str, seat: int, index: int) -> bool:
    """Did the last move (``render.table.last_move``) put this meld or discard down?"""
    return touched[0] == what and touched[1] == seat and index in touched[2]


def _band_title(
    scene: Scene,
    view: PrivateView,
    names: Sequence[str],
    s: Mapping[str, str],
    i: int,
    y: int,
    mark: Run | None,
) -> None:
    """下家/上家/对家, 庄, the name, 托管/电脑; cards in hand and 明胡息 at the right."""
    seat = view.public.seats[i]
    ty = y + 7  # pills of TITLE_PILL px are 1.5 x that high; texts are centred on them
    mid = ty + round(TITLE_PILL * 0.75)
    x = pill(scene, M + PAD, ty, s[relation_key(view, i)], TITLE_PILL, T.FELT_LINE).right + 6
    if view.public.dealer == i:
        x = pill(scene, x, ty, s["dealer"], TITLE_PILL, T.DEALER).right + 6
    right = WIDTH - M - PAD
    huxi = s["shown_huxi"].format(n=seat.shown_huxi)
    scene.text(right, mid, huxi, TITLE_PX, T.GOLD, bold=True, anchor="rm")
    right -= round(fonts.font(TITLE_PX, bold=True).getlength(huxi)) + 14
    count = s["hand_count"].format(n=seat.hand_count)
    scene.text(right, mid, count, TITLE_PX, T.TEXT_DIM, anchor="rm")
    right -= round(fonts.font(TITLE_PX).getlength(count)) + 14
    mark_w = round(fonts.font(TITLE_PILL, bold=True).getlength(mark[0])) + 30 if mark else 0
    box = Rect(x, mid - 14, max(40, right - mark_w - x), 28)
    shown = scene.name(box, f"name:{i}", names[i], TITLE_NAME_PX)
    if mark is not None:
        mx = x + round(fonts.font(TITLE_NAME_PX).getlength(shown)) + 8
        pill(scene, mx, ty, mark[0], TITLE_PILL, mark[1])


# --- the strip: pending card, stock, status, 胡息 ---------------------------------------------


def _strip(
    scene: Scene,
    view: PrivateView,
    names: Sequence[str],
    s: Mapping[str, str],
    y: int,
    trustee: frozenset[int],
) -> None:
    pub = view.public
    scene.add(Box(Rect(M, y, WIDTH - 2 * M, STRIP_H), fill=T.FELT_DARK, radius=12))
    shown = pub.offer.card if pub.offer is not None else view.highlight
    x = M + 12
    if shown is not None:
        rect = Rect(x, y + 12, T.OWN.w, T.OWN.h)
        glow(scene, rect)
        scene.card(
            rect.x, rect.y, shown, T.OWN, "offer", pub.offer.seat if pub.offer else view.seat
        )
        x = rect.right + 16
    right = _own_title(scene, view, names, s, y)
    room = right - x - 12
    if shown is not None:
        scene.text(x, y + 10, _pending_text(view, names, s), 22, max_width=room)
    facts = s["stock"].format(n=pub.stock_count)
    if pub.last_event is not None:
        facts += "  " + s["last"].format(desc=event_text(pub.last_event, names, s, 22, 140))
    scene.text(x, y + 44, facts, 22, T.TEXT_DIM, max_width=room)
    status = status_line(view, names, s, trustee)
    if status is not None:
        text, colour, bold = status
        scene.text(x, y + 74, text, 26, colour, bold=bold, max_width=room)


def _pending_text(view: PrivateView, names: Sequence[str], s: Mapping[str, str]) -> str:
    offer = view.public.offer
    if offer is None:
        return s["just_drawn"]
    how = {OfferHow.LIANG: "how_liang", OfferHow.DRAW: "how_draw", OfferHow.DISCARD: "how_discard"}
    return s[how[offer.how]].format(name=fonts.name(names[offer.seat], fonts.font(22), 160))


def _own_title(
    scene: Scene, view: PrivateView, names: Sequence[str], s: Mapping[str, str], y: int
) -> int:
    """The seat's name, 庄, 我的胡息 and 明胡息 right-aligned; returns the column's left edge."""
    right = WIDTH - M - 12
    mine = s["my_huxi"].format(n=view.huxi)
    shown = s["shown_huxi"].format(n=view.public.seats[view.seat].shown_huxi)
    scene.text(right, y + 58, mine, 28, T.GOLD, bold=True, anchor="rm")
    scene.text(right, y + 96, shown, 22, T.TEXT_DIM, anchor="rm")
    col_w = max(fonts.font(28, bold=True).getlength(mine), fonts.font(22).getlength(shown), 150)
    left = right - round(col_w)
    name = fonts.name(names[view.seat], fonts.font(22), col_w)
    name_w = round(fonts.font(22).getlength(name))
    scene.name(Rect(right - name_w, y + 10, name_w, 26), f"name:{view.seat}", name, 22)
    if view.public.dealer == view.seat:
        pill(scene, right - name_w - 40, y + 11, s["dealer"], 16, T.DEALER)
    return left - 40


# --- the hand and 听 ----------------------------------------------------------------------


def hand_size(tallest: int, room: int) -> T.CardSize:
    """The own hand's cards: ``T.OWN``, its columns overlapping more when the tallest would
    not fit ``room`` (rare: 4 seats, long other bands and a point held 5 or 6 times)."""
    if tallest < 2 or column_height(tallest, T.OWN) <= room:
        return T.OWN
    step = max(MIN_HAND_STEP, (room - T.OWN.h) // (tallest - 1))
    return replace(T.OWN, step=min(step, T.OWN.step))


def _hand(
    scene: Scene,
    view: PrivateView,
    cols: list[list[tuple[int, bool]]],
    y: int,
    size: T.CardSize,
    ting: Ting | None,
) -> None:
    """The hand in point columns, 坎 framed; a 听 badge on each discard that leaves 听."""
    discards = {d for d, _ in ting.by_discard} if ting is not None else set()
    for i, col in enumerate(cols):
        x = M + i * OWN_ADV
        kinds = [k for k, _ in col]
        locked = [lk for _, lk in col]
        scene.column(x, y, list(kinds), size, "hand", view.seat, locked=locked)
        _kan_frames(scene, x, y, col, size)
    for slot in [c for c in scene.cards if c.role == "hand"]:
        if slot.kind in discards and not slot.locked:
            ting_badge(scene, slot)


def _kan_frames(
    scene: Scene, x: int, y: int, col: list[tuple[int, bool]], size: T.CardSize
) -> None:
    n_locked = sum(lk for _, lk in col)
    for start in range(0, n_locked, 3):  # a column may hold a small and a big 坎
        top = y + start * size.step
        last = start + 2 == len(col) - 1
        h = 2 * size.step + (size.h if last else size.step)
        scene.add(
            Box(
                Rect(x - 3, top - 3, size.w + 6, h + 6),
                outline=T.BACK_EDGE,
                width=3,
                radius=size.radius + 2,
            )
        )


def ting_badge(scene: Scene, slot: CardSlot) -> Rect:
    """A round 听 mark in the top right corner of the card's visible part."""
    r = BADGE_R
    rect = Rect(slot.rect.right - 2 * r - 1, slot.rect.y + 1, 2 * r, 2 * r)
    scene.add(Box(rect, fill=T.TING, outline=T.TEXT, width=2, radius=r))
    scene.text(rect.x + r, rect.y + r, "听", 17, T.TEXT, bold=True, anchor="mm")
    return rect


def _wait_runs(waits: Sequence[Wait]) -> list[Run]:
    """``六×3`` per winning card; a card with none left unseen greyed."""
    return [(f"{C.to_char(w.card)}×{w.unseen}", T.GOLD if w.unseen else T.GREY) for w in waits]


def _ting_lines(ting: Ting | None, s: Mapping[str, str], width: int) -> list[list[Run]]:
    """The 听 text, wrapped: per discard when the seat must discard, else the current waits."""
    if ting is None:
        return []
    if ting.by_discard:
        entries = [
            [(s["ting_after"].format(card=C.to_char(d)), T.TEXT), *_wait_runs(w)]
            for d, w in ting.by_discard
        ]
    elif ting.waits:
        entries = [[(s["ting_now"], T.TEXT), *_wait_runs(ting.waits)]]
    else:
        return []
    return _wrap(entries, width)


def _run_width(runs: Sequence[Run]) -> float:
    f = fonts.font(TING_PX, bold=True)
    return sum(f.getlength(text) for text, _ in runs) + f.getlength(" ") * (len(runs) - 1)


def _wrap(entries: list[list[Run]], width: int) -> list[list[Run]]:
    """Entries side by side, separated by wide gaps, a new line when one would not fit."""
    sep: Run = ("   ", T.TEXT)
    lines: list[list[Run]] = []
    for entry in entries:
        if lines and _run_width([*lines[-1], sep, *entry]) <= width:
            lines[-1] += [sep, *entry]
        else:
            lines.append(list(entry))
    return lines


def _runs(scene: Scene, x: int, y: int, runs: Sequence[Run], px: int) -> None:
    f = fonts.font(px, bold=True)
    space = f.getlength(" ")
    for text, colour in runs:
        if text.strip():
            scene.text(x, y, text, px, colour, bold=True, max_width=WIDTH - M - x)
        x += round(f.getlength(text) + space)


# --- own melds and 臭 ---------------------------------------------------------------------


def _own_melds_h(melds: Sequence[MeldView]) -> int:
    return max((column_height(len(m.cards), T.MELD) for m in melds), default=0)


def _chou_x(view: PrivateView) -> int:
    return M + max(len(view.melds), 4) * MELD_ADV + 12


def _own_melds_height(view: PrivateView) -> int:
    melds = _own_melds_h(view.melds) + 4 + LABEL_PX + 8 if view.melds else 30
    if not view.chou:
        return melds
    cols = max(1, (WIDTH - M - _chou_x(view)) // DISC_ADV)
    return max(melds, 30 + math.ceil(len(view.chou) / cols) * DISC_ROW)


def _own_melds(scene: Scene, view: PrivateView, s: Mapping[str, str], y: int) -> None:
    if not view.melds:
        scene.text(M, y, s["no_melds"], 20, T.TEXT_DIM)
    melds_h = _own_melds_h(view.melds)
    touched = last_move(view.public)
    for i, meld in enumerate(view.melds):
        x = M + i * MELD_ADV
        if is_touched(touched, "melds", view.seat, i):
            glow(
                scene, Rect(x, y, T.MELD.w, column_height(len(meld.cards), T.MELD)), T.LAST_MOVE, 4
            )
        meld_column(scene, x, y, meld, T.MELD, view.seat, owner=True)
        _meld_label(scene, x + T.MELD.w // 2, y + melds_h + 4, meld)
        if not all(meld.face_up):
            pill(scene, x + T.MELD.w - 14, y - 8, s["hidden"], 13, T.BACK)
    if view.chou:
        _chou(scene, view, s, y)


def _meld_label(scene: Scene, cx: int, y: int, meld: MeldView) -> None:
    """The meld's kind and its 胡息 on one line centred on ``cx``: 偎 3."""
    kind = kind_name(meld.kind)
    hx = group_huxi(meld)
    if not hx:
        scene.text(cx, y, kind, LABEL_PX, T.TEXT_DIM, anchor="mt")
        return
    kind_w = fonts.font(LABEL_PX).getlength(kind)
    hx_w = fonts.font(LABEL_PX, bold=True).getlength(str(hx))
    x = round(cx - (kind_w + 4 + hx_w) / 2)
    scene.text(x, y, kind, LABEL_PX, T.TEXT_DIM)
    scene.text(x + round(kind_w) + 4, y, str(hx), LABEL_PX, T.GOLD, bold=True)


def _chou(scene: Scene, view: PrivateView, s: Mapping[str, str], y: int) -> None:
    x0 = _chou_x(view)
    scene.text(x0, y, s["chou"], 18, T.TEXT_DIM, bold=True, max_width=WIDTH - M - x0)
    cols = max(1, (WIDTH - M - x0) // DISC_ADV)
    for j, kind in enumerate(view.chou):
        scene.card(
            x0 + (j % cols) * DISC_ADV,
            y + 30 + (j // cols) * DISC_ROW,
            kind,
            T.DISC,
            "chou",
            view.seat,
        )


def render_hand(
    view: PrivateView,
    names: Sequence[str],
    lang: str = "zh",
    *,
    trustee: frozenset[int] = frozenset(),
    robots: frozenset[int] = frozenset(),
    ting: Ting | None = None,
) -> bytes:
    """The picture of ``view.seat``'s private chat; ``names[i]`` is seat i's display name.

    ``trustee``: seats shown in 托管 (this seat included, if so); ``robots``: computer
    players; ``ting``: this seat's 听 (``engine.ting``), drawn as given.
    """
    return render(
        lambda: layout_hand(view, names, lang, trustee=trustee, robots=robots, ting=ting), FORMAT
    )
