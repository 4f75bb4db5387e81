"""The replay picture (/replay): a finished hand after step k, every seat's cards face up.

Built from an ``engine.replay.ReplayFrame`` (every seat's private view, which only a finished
hand may give). A header with 第 k/n 步, the stock, the card on offer (glowing) and what the
step did — its events for every audience, a pass included, since nothing is secret once the
hand is over — and at the last step the result, with the card won on where the offer was.
Then one band per seat in seat order: 庄, the name, 醒家 or the 胡/逃 mark, cards in hand and
胡息 (the seat's full 胡息, 坎 and hidden melds included; at the last step its points), the
hand in point columns with 坎 framed, the melds with the cards the others could not see
marked 暗, and the discards. The meld or discard the step put down glows orange, as on the
group's table picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.points import signed
from engine.replay import ReplayFrame
from engine.views import Event, OfferHow, OutcomeKind, PrivateView, PublicView
from render import fonts
from render import theme as T
from render.hand import hand_columns, is_touched
from render.scene import Box, Format, Rect, Scene, column_height, render
from render.strings import pages, table
from render.table import last_move
from render.widgets import event_text, glow, kind_name, meld_column, pill

WIDTH = 780
M = 20
PAD = 12
HEAD_H = 176
LINE_H = 32  # between the header's lines
BAND_GAP = 10
TITLE_H = 40
CARD = T.MINI
ADV = CARD.w + 4  # hand and meld columns
SPLIT = 18  # between the hand and the melds
LABEL_H = 22  # meld names under the melds
DISC_ADV = T.DISC.w + 4
DISC_ROW = T.DISC.h + 4
DISC_LABEL_W = 92
XING_H = 52  # a 醒家's band: he holds no cards
LINE_PX = 22
FORMAT: Format = "JPEG"  # stepped through like the table picture: fast, and as small


def _check(frame: ReplayFrame, names: Sequence[str]) -> None:
    if len(names) < len(frame.views):
        raise ValueError(f"need {len(frame.views)} names, got {len(names)}")
    if not frame.views:
        raise ValueError("a replay frame holds one view per seat")


def _inner_w() -> int:
    return WIDTH - 2 * M - 2 * PAD


def _discard_cols() -> int:
    return (_inner_w() - DISC_LABEL_W) // DISC_ADV


def _column_adv(view: PrivateView) -> int:
    """Hand and meld columns side by side; closer together when a full hand and many melds
    would not fit (never in a real hand so far, but a card must not leave the picture)."""
    n = len(hand_columns(view)) + len(view.melds)
    return min(ADV, (_inner_w() - SPLIT - CARD.w) // max(1, n - 1))


def _cards_h(view: PrivateView) -> int:
    hand = max((column_height(len(c), CARD) for c in hand_columns(view)), default=0)
    melds = max((column_height(len(m.cards), CARD) for m in view.melds), default=0)
    return max(hand, melds + LABEL_H if view.melds else 0, CARD.h)


def _is_xing(view: PrivateView) -> bool:
    return view.public.xing == view.seat


def _band_h(view: PrivateView) -> int:
    if _is_xing(view):
        return XING_H
    rows = max(1, math.ceil(len(view.public.seats[view.seat].discards) / _discard_cols()))
    return TITLE_H + _cards_h(view) + 10 + rows * DISC_ROW + PAD - 4


def layout_replay(frame: ReplayFrame, names: Sequence[str], lang: str = "zh") -> Scene:
    _check(frame, names)
    s, p = table(lang), pages(lang)
    heights = [_band_h(v) for v in frame.views]
    scene = Scene(WIDTH, HEAD_H + sum(h + BAND_GAP for h in heights) - BAND_GAP + M)
    pub = frame.views[0].public
    _header(scene, frame, pub, names, s, p)
    y = HEAD_H
    for view, h in zip(frame.views, heights, strict=True):
        _band(scene, view, names, s, p, y, h)
        y += h + BAND_GAP
    return scene


def shown_events(moved: Sequence[Event]) -> list[Event]:
    """The step's events as the replay tells them: a 偎 is emitted twice (without its card for
    the others, with it for the owner); keep the one that shows the card."""
    out: list[Event] = []
    for ev in moved:
        if ev.kind == "deal":
            continue
        if out and out[-1].kind == ev.kind and out[-1].seat == ev.seat and not out[-1].cards:
            out[-1] = ev
        else:
            out.append(ev)
    return out


def won_on(moved: Sequence[Event]) -> Event | None:
    """The step's 胡 event when it names the card won on: a card taken off the table by the
    win, in no hand or row any more, so the header shows it where the offer was."""
    return next((ev for ev in moved if ev.kind == "hu" and ev.cards), None)


def result_text(pub: PublicView, names: Sequence[str], s: Mapping[str, str]) -> str | None:
    """The hand's result in one line (胡牌：name 自摸 …, 荒庄, 逃跑：name), or None."""
    o = pub.outcome
    if o is None:
        return None
    f = fonts.font(LINE_PX)
    if o.kind == OutcomeKind.WIN and o.winner is not None:
        marks = []
        if o.win is not None:
            flags = (("tianhu", o.win.tianhu), ("zimo", o.win.zimo), ("haidi", o.win.haidi))
            marks = [s[m] for m, on in flags if on]
            marks.append(s["total_huxi"].format(n=o.win.huxi))
        who = fonts.name(names[o.winner], f, 260)
        return " ".join([s["win_title"].format(name=who), *marks])
    if o.kind == OutcomeKind.ESCAPE and o.escaper is not None:
        return s["escape_title"].format(name=fonts.name(names[o.escaper], f, 260))
    return s["dissolved_title" if o.kind == OutcomeKind.DISSOLVED else "draw_title"]


def _header(
    scene: Scene,
    frame: ReplayFrame,
    pub: PublicView,
    names: Sequence[str],
    s: Mapping[str, str],
    p: Mapping[str, str],
) -> None:
    scene.text(M, 36, p["replay_step"].format(k=frame.step, n=frame.total), 32, T.GOLD,
               anchor="lm")
    scene.text(WIDTH - M, 36, s["stock"].format(n=pub.stock_count), LINE_PX, T.TEXT_DIM,
               anchor="rm")
    x, y = M, 66
    rect = Rect(x + 6, y + 6, T.MELD.w, T.MELD.h)
    won = won_on(frame.moved)
    if pub.offer is not None:
        glow(scene, rect, T.LAST_MOVE if last_move(pub)[0] == "offer" else T.HIGHLIGHT, 4)
        scene.card(rect.x, rect.y, pub.offer.card, T.MELD, "offer", pub.offer.seat)
        x = rect.right + 18
    elif won is not None:
        glow(scene, rect, T.GOLD, 4)
        scene.card(rect.x, rect.y, won.cards[0], T.MELD, "won", won.seat)
        x = rect.right + 18
    width = WIDTH - M - x
    for i, (text, ink) in enumerate(_step_lines(frame, pub, names, s, p, width)):
        scene.text(x, y + 18 + i * LINE_H, text, LINE_PX, ink, anchor="lm", max_width=width)
    scene.add(Box(Rect(M, HEAD_H - 12, WIDTH - 2 * M, 2), fill=T.FELT_LINE))


def _step_lines(
    frame: ReplayFrame,
    pub: PublicView,
    names: Sequence[str],
    s: Mapping[str, str],
    p: Mapping[str, str],
    width: int,
) -> list[tuple[str, T.RGB]]:
    """Three lines at most: what the step did (its first event: the decision); what followed
    it, the latest first to keep (it explains the card on offer); the result at the last
    step. With nothing following, whose move it is now."""
    told = [event_text(ev, names, s, LINE_PX, 220) for ev in shown_events(frame.moved)]
    lines = [(told[0] if told else p["replay_start"], T.TEXT)]
    result = result_text(pub, names, s)
    followed = pack_latest(told[1:], fonts.font(LINE_PX), width, 1 if result is not None else 2)
    lines += [(line, T.TEXT_DIM) for line in followed]
    if result is not None:
        lines.append((result, T.GOLD))
    elif not followed:
        lines += [(hint, T.TEXT_DIM) for hint in _whose_move(pub, names, s)]
    return lines


def _whose_move(pub: PublicView, names: Sequence[str], s: Mapping[str, str]) -> list[str]:
    """Who turned up the 亮张 on offer, or who must discard now (never who may claim)."""
    f = fonts.font(LINE_PX)
    if pub.offer is not None and pub.offer.how == OfferHow.LIANG:
        return [s["how_liang"].format(name=fonts.name(names[pub.offer.seat], f, 260))]
    if pub.to_act:
        who = s["name_sep"].join(fonts.name(names[i], f, 260) for i in pub.to_act)
        return [s["to_act"].format(names=who)]
    return []


def pack_latest(parts: Sequence[str], fnt: fonts.Font, width: float, lines: int) -> list[str]:
    """``parts`` joined by " · " into at most ``lines`` lines of ``width``, filled from the
    last part backwards; parts that do not fit any more are replaced by a leading "…"."""
    out: list[list[str]] = []
    for part in reversed(parts):
        if out and fnt.getlength(" · ".join([part, *out[-1]])) <= width:
            out[-1].insert(0, part)
        elif len(out) < lines:
            out.append([part])
        else:
            out[-1][0] = f"{fonts.ELLIPSIS} {out[-1][0]}"
            break
    return [" · ".join(line) for line in reversed(out)]


def _band(
    scene: Scene,
    view: PrivateView,
    names: Sequence[str],
    s: Mapping[str, str],
    p: Mapping[str, str],
    y: int,
    h: int,
) -> None:
    pub, i = view.public, view.seat
    band = Rect(M, y, WIDTH - 2 * M, h)
    scene.named[f"seat:{i}"] = band
    winner = pub.outcome is not None and pub.outcome.winner == i
    scene.add(Box(band, fill=T.FELT_DARK, outline=T.GOLD if winner else T.FELT_LINE,
                  width=3 if winner else 1, radius=12))
    _title(scene, view, names, s, p, y)
    if _is_xing(view):
        return
    top = y + TITLE_H
    adv = _column_adv(view)
    x = M + PAD
    for col in hand_columns(view):
        kinds = [k for k, _ in col]
        scene.column(x, top, kinds, CARD, "hand", i, locked=[locked for _, locked in col])
        x += adv
    x += SPLIT - (adv - CARD.w)
    touched = last_move(pub)
    for j, meld in enumerate(view.melds):
        col_h = column_height(len(meld.cards), CARD)
        if is_touched(touched, "melds", i, j):
            glow(scene, Rect(x, top, CARD.w, col_h), T.LAST_MOVE, 3)
        meld_column(scene, x, top, meld, CARD, i, owner=True)
        scene.text(x + CARD.w // 2, top + col_h + 2, kind_name(meld.kind), 16, T.TEXT_DIM,
                   anchor="mt", max_width=adv)
        x += adv
    _discards(scene, view, s, top + _cards_h(view) + 10)


def _title(
    scene: Scene,
    view: PrivateView,
    names: Sequence[str],
    s: Mapping[str, str],
    p: Mapping[str, str],
    y: int,
) -> None:
    """庄, the name and its mark at the left; cards in hand and 胡息 (or the points at the
    end) at the right."""
    pub, i = view.public, view.seat
    mid = y + TITLE_H // 2
    x = M + PAD
    if pub.dealer == i:
        x = pill(scene, x, mid - 14, s["dealer"], 18, T.DEALER).right + 6
    o = pub.outcome
    tag = None if o is None else "winner" if o.winner == i else "escaper" if o.escaper == i else None
    if tag is not None:
        x = pill(scene, x, mid - 14, s[tag], 18, T.GOLD, T.FELT_DARK).right + 6
    right = WIDTH - M - PAD
    if o is not None:
        pts = o.points[i]
        ink = T.WIN if pts > 0 else T.LOSS if pts < 0 else T.TEXT
        text = signed(pts)
        scene.text(right, mid, text, 24, ink, bold=True, anchor="rm")
        right -= round(fonts.font(24, True).getlength(text)) + 16
    if _is_xing(view):
        scene.text(right, mid, p["replay_xing"], 20, T.TEXT_DIM, anchor="rm")
        right -= round(fonts.font(20).getlength(p["replay_xing"])) + 16
    else:
        huxi = s["group_huxi"].format(n=view.huxi)
        scene.text(right, mid, huxi, 20, T.GOLD, bold=True, anchor="rm")
        right -= round(fonts.font(20, True).getlength(huxi)) + 14
        count = s["hand_count"].format(n=len(view.hand))
        scene.text(right, mid, count, 20, T.TEXT_DIM, anchor="rm")
        right -= round(fonts.font(20).getlength(count)) + 14
    scene.name(Rect(x, mid - 15, max(40, right - x), 30), f"name:{i}", names[i], 24)


def _discards(scene: Scene, view: PrivateView, s: Mapping[str, str], y: int) -> None:
    i = view.seat
    seat = view.public.seats[i]
    x0 = M + PAD
    scene.text(x0, y + T.DISC.h // 2, s["discards"], 18, T.TEXT_DIM, bold=True, anchor="lm",
               max_width=DISC_LABEL_W - 6)
    cols = _discard_cols()
    touched = last_move(view.public)
    for j, kind in enumerate(seat.discards):
        x = x0 + DISC_LABEL_W + (j % cols) * DISC_ADV
        cy = y + (j // cols) * DISC_ROW
        if is_touched(touched, "discard", i, j):
            glow(scene, Rect(x, cy, T.DISC.w, T.DISC.h), T.LAST_MOVE, 3)
        scene.card(x, cy, kind, T.DISC, "discard", i)


def render_replay_step(frame: ReplayFrame, names: Sequence[str], lang: str = "zh") -> bytes:
    """The picture of ``frame`` (``engine.replay.replay_views``): step k of n of a finished
    hand with every hand shown; ``names[i]`` is seat i's display name."""
    return render(lambda: layout_replay(frame, names, lang), FORMAT)
