"""A seat's live view as JSON: built only from the seat's own ``PrivateView`` (the same view
its picture is drawn from, :mod:`bot.present.screens.seat`) and what its keyboard offers, so
it holds no card the seat may not see."""

from __future__ import annotations

from bot.i18n import t
from bot.present.screens.seat import hand_caption, robots_of
from bot.table import HandRecord, Table, TableStatus
from engine import actions as A
from engine import cards as C
from engine.ting import waits_now
from engine.views import MeldView, PrivateView

# the page's moves that are not a legal action of the hand: 托管's take-back and 再来一局
TAKE_BACK, AGAIN = "takeback", "again"


def _meld(m: MeldView) -> dict[str, object]:
    return {"kind": str(m.kind), "cards": list(m.cards)}


def _card_text(kind: int) -> dict[str, object]:
    return {"char": C.to_char(kind), "red": C.is_red(kind), "big": C.is_big(kind)}


def seat_view(table: Table, record: HandRecord, seat: int, lang: str, *,
              trustee: frozenset[int], seconds_left: int | None) -> dict[str, object]:
    """The seat's screen: ``trustee`` are the seats in 托管 as this seat may know it."""
    view: PrivateView = record.hand.private_view(seat)
    pub = view.public
    player = table.players.get(seat)
    robots = robots_of(record)
    own_trustee = player is not None and player.autoplay
    marks = trustee | ({seat} if own_trustee else set())
    seats = [{
        "seat": s.seat, "name": record.names[s.seat], "count": s.hand_count,
        "melds": [_meld(m) for m in s.melds], "discards": list(s.discards),
        "huxi": s.shown_huxi, "dealer": s.seat == pub.dealer, "trustee": s.seat in marks,
        "robot": s.seat in robots, "to_act": s.seat in pub.to_act, "me": s.seat == seat,
    } for s in pub.seats]
    playing = table.status == TableStatus.PLAYING and pub.outcome is None
    # its 听 as it stands (the waits after each discard are the picture's, not the page's)
    waits = waits_now(record.hand.rules, view) if playing else None
    moves: list[dict[str, object]] = []
    decision = table.decisions.get(seat)
    version = decision.version if decision is not None else None
    if playing and own_trustee:
        moves.append({"label": t(lang, "btn_takeback"), "move": TAKE_BACK})
    elif playing and decision is not None:
        moves += [{"label": A.label(a, lang), "index": i, "discard": a.startswith("d:"),
                   "card": A.parse(a).card if a.startswith("d:") else None}
                  for i, a in enumerate(decision.legal)]
    if table.status == TableStatus.BETWEEN and table.current is record and player is not None \
            and not player.ready:
        moves.append({"label": t(lang, "btn_again"), "move": AGAIN})
    outcome = pub.outcome
    return {
        "lang": lang, "table": table.id, "hand": record.table_no, "seat": seat,
        "status": hand_caption(table, record, seat, view, lang, asked_at=None),
        "seats": seats, "stock": pub.stock_count,
        "offer": None if pub.offer is None else
        {"card": pub.offer.card, "seat": pub.offer.seat, "how": str(pub.offer.how)},
        "my_hand": list(view.hand), "kans": list(view.kans),
        "my_melds": [_meld(m) for m in view.melds], "huxi": view.huxi,
        "highlight": view.highlight,
        "ting": None if waits is None else [{"card": w.card, "unseen": w.unseen}
                                            for w in waits],
        "version": version, "moves": moves, "seconds_left": seconds_left,
        "over": outcome is not None,
        "points": None if outcome is None else list(outcome.points),
        "cards": {k: _card_text(k) for k in range(C.KINDS)},
        "words": {k: t(lang, f"webapp_{k}") for k in WORDS},
    }


WORDS = ("title", "stock", "offer", "ting", "huxi", "trustee", "robot", "dealer", "seconds",
         "points", "offline", "not_seated")

