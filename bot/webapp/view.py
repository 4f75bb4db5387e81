"""A seat's live view as JSON: the page's face of the seat's model
(:class:`bot.present.screens.seat.SeatModel`), whose other face is its private picture, so
the page says what the picture and the private result say, from the same facts: the seat's
own ``PrivateView`` (it holds no card the seat may not see), the hand's columns and 坎
(``render.hand.hand_columns``), its 听 after each discard with the copies unseen (the model's
``ting``, what the picture badges), the 托管 marks it may know, its presses, the clocks, the
last public moves (``move_log``) and the settlement with each seat's points, their parts
and running total."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.present.screens.seat import SeatModel, Settlement
from bot.present.screens.seat_presses import Move, SeatPress
from bot.present.screens.words import move_log
from engine import cards as C
from engine.views import MeldView, Wait
from render.hand import hand_columns, relation_key, seats_in_play_order
from render.strings import table as picture_strings

# the page's moves that are not a legal action of the hand: 托管's take-back and 再来一局
TAKE_BACK, AGAIN = Move.TAKE_BACK.value, Move.AGAIN.value


def _meld(m: MeldView) -> dict[str, object]:
    return {"kind": str(m.kind), "cards": list(m.cards)}


def _card_text(kind: int) -> dict[str, object]:
    return {"char": C.to_char(kind), "red": C.is_red(kind), "big": C.is_big(kind)}


def _words(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (each view carries them: a page may open on any)."""
    words = _WORDS.get(lang)
    if words is None:
        words = _WORDS[lang] = {k: t(lang, f"webapp_{k}") for k in WORDS}
    return words


def _waits(waits: Sequence[Wait]) -> list[dict[str, int]]:
    return [{"card": w.card, "unseen": w.unseen} for w in waits]


def _move(p: SeatPress) -> dict[str, object]:
    if p.press.move == Move.ACT:
        return {"label": p.label, "index": p.press.index, "discard": p.discard, "card": p.card}
    if p.press.move == Move.AGAIN:
        return {"label": p.label, "move": AGAIN, "mark": p.press.mark}
    return {"label": p.label, "move": p.press.move.value}


def seat_view(model: SeatModel) -> dict[str, object]:
    """The seat's screen as the page draws it."""
    table, record, seat, lang, view = model.table, model.record, model.seat, model.lang, model.view
    pub = view.public
    words = picture_strings(lang)
    seats = [{
        "seat": s.seat, "name": record.names[s.seat], "count": s.hand_count,
        "melds": [_meld(m) for m in s.melds], "discards": list(s.discards),
        "huxi": s.shown_huxi, "dealer": s.seat == pub.dealer,
        "trustee": s.seat in model.marks.trustee, "robot": s.seat in model.marks.robots,
        "to_act": s.seat in pub.to_act, "me": s.seat == seat, "xing": s.seat == pub.xing,
        "relation": None if s.seat in (seat, pub.xing) else words[relation_key(view, s.seat)],
        "seconds": model.clocks.seats.get(s.seat),
    } for s in pub.seats]
    ting = model.ting
    decision = table.decisions.get(seat)
    last = pub.last_event
    return {
        "lang": lang, "table": table.id, "hand": record.table_no, "seat": seat,
        "status": model.caption(), "seats": seats, "order": seats_in_play_order(view),
        "stock": pub.stock_count,
        "offer": None if pub.offer is None else
        {"card": pub.offer.card, "seat": pub.offer.seat, "how": str(pub.offer.how)},
        "my_hand": list(view.hand), "kans": list(view.kans),
        "columns": [[k for k, _ in col] for col in hand_columns(view)],
        "my_melds": [_meld(m) for m in view.melds], "huxi": view.huxi,
        "highlight": view.highlight,
        "ting": None if ting is None else _waits(ting.waits),
        "ting_after": None if ting is None else
        [{"discard": d, "waits": _waits(w)} for d, w in ting.by_discard],
        "last": move_log(record, lang) if pub.outcome is None else [],
        "event": None if last is None else
        {"seat": last.seat, "kind": last.kind, "cards": list(last.cards),
         "n": sum(1 for e in record.hand.history if e.visible_to is None)},
        "version": decision.version if decision is not None else None,
        "moves": [_move(p) for p in model.presses], "seconds_left": model.seconds_left,
        "over": pub.outcome is not None,
        "points": None if pub.outcome is None else list(pub.outcome.points),
        "settlement": settlement(model.settlement()),
        "cards": CARDS, "words": _words(lang),
    }


def settlement(sheet: Settlement | None) -> dict[str, object] | None:
    """The model's settlement as the page's sheet draws it."""
    if sheet is None:
        return None
    return {"kind": sheet.kind, "draw": sheet.draw, "winner": sheet.winner,
            "lines": list(sheet.lines),
            "rows": [{"seat": r.seat, "name": r.name, "points": r.points, "signed": r.signed,
                      "xing": r.xing, "winner": r.winner, "total": r.total, "text": r.text}
                     for r in sheet.rows],
            "again_seconds": sheet.again_seconds}


WORDS = ("title", "stock", "offer", "ting", "huxi", "trustee", "robot", "dealer", "seconds",
         "points", "offline", "not_seated", "confirm", "ting_after", "no_ting", "kan", "last",
         "pick", "settlement", "again_in", "total", "win", "ready_wait", "expired",
         "expired_body", "over_title", "over_body", "back", "restarting", "not_seated_title",
         "xing", "count")
_WORDS: dict[str, dict[str, str]] = {}
CARDS = {k: _card_text(k) for k in range(C.KINDS)}  # each kind's character and colour
