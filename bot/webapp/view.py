"""A seat's live view as JSON: built only from the seat's own ``PrivateView`` (the same view
its picture is drawn from, :mod:`bot.present.screens.seat`) and what its keyboard offers, so
it holds no card the seat may not see. Its facts come from the functions the pictures and
their captions are made with — the hand's columns and 坎 (``render.hand.hand_columns``), the
seat's 听 after each discard with the copies unseen (``engine.ting.ting``, what
``draw_hand`` badges), the last public moves (``move_log``), the settlement's lines and each
seat's points with the running total (``outcome_lines``, ``points_text``) — so the page says
what the picture and the private result say."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.i18n import t
from bot.present.screens.seat import hand_caption, robots_of
from bot.present.screens.words import move_log, outcome_lines, points_text
from bot.store import BirdRow
from bot.table import HandRecord, Table, TableService, TableStatus
from bot.table.birds import seat_points
from engine import actions as A
from engine import cards as C
from engine.points import signed
from engine.rules import RuleSet
from engine.ting import ting as compute_ting
from engine.views import MeldView, OutcomeKind, PrivateView, Ting, Wait
from render.hand import hand_columns, relation_key, seats_in_play_order
from render.strings import table as picture_strings

# the page's moves that are not a legal action of the hand: 托管's take-back and 再来一局
TAKE_BACK, AGAIN = "takeback", "again"


@dataclass(frozen=True)
class Clocks:
    """The seconds the page counts down: ``seats`` those left on the decisions every seat
    may know of (a discard's, and this seat's own), ``again`` those left to press 再来一局."""

    seats: Mapping[int, int]
    again: int | None = None


@dataclass(frozen=True)
class Settled:
    """What a settlement shows beyond the hand: the running totals by user after it, and
    its birds (打鸟), read from the store once the hand is over."""

    totals: Mapping[int, int]
    birds: Sequence[BirdRow] = ()


@lru_cache(maxsize=1024)
def seat_ting(rules: RuleSet, view: PrivateView) -> Ting:
    """The seat's 听 as its picture draws it (``bot.present.screens.seat.draw_hand``)."""
    return compute_ting(rules, view)


def _meld(m: MeldView) -> dict[str, object]:
    return {"kind": str(m.kind), "cards": list(m.cards)}


def _card_text(kind: int) -> dict[str, object]:
    return {"char": C.to_char(kind), "red": C.is_red(kind), "big": C.is_big(kind)}


def _waits(waits: Sequence[Wait]) -> list[dict[str, int]]:
    return [{"card": w.card, "unseen": w.unseen} for w in waits]


def seat_view(table: Table, record: HandRecord, seat: int, lang: str, *,
              trustee: frozenset[int], seconds_left: int | None = None,
              clocks: Clocks | None = None, settled: Settled | None = None,
              ) -> dict[str, object]:
    """The seat's screen: ``trustee`` are the seats in 托管 as this seat may know it;
    ``clocks`` the seconds left (``seconds_left`` alone: this seat's own); ``settled`` the
    settlement's totals, once known."""
    view: PrivateView = record.hand.private_view(seat)
    pub = view.public
    player = table.players.get(seat)
    robots = robots_of(record)
    own_trustee = player is not None and player.autoplay
    marks = trustee | ({seat} if own_trustee else set())
    if clocks is None:
        clocks = Clocks({} if seconds_left is None else {seat: seconds_left})
    words = picture_strings(lang)
    seats = [{
        "seat": s.seat, "name": record.names[s.seat], "count": s.hand_count,
        "melds": [_meld(m) for m in s.melds], "discards": list(s.discards),
        "huxi": s.shown_huxi, "dealer": s.seat == pub.dealer, "trustee": s.seat in marks,
        "robot": s.seat in robots, "to_act": s.seat in pub.to_act, "me": s.seat == seat,
        "xing": s.seat == pub.xing,
        "relation": None if s.seat in (seat, pub.xing) else words[relation_key(view, s.seat)],
        "seconds": clocks.seats.get(s.seat),
    } for s in pub.seats]
    playing = table.status == TableStatus.PLAYING and pub.outcome is None
    ting = seat_ting(record.hand.rules, view) if playing else None
    moves: list[dict[str, object]] = []
    decision = table.decisions.get(seat)
    version = decision.version if decision is not None else None
    if playing and own_trustee:
        moves.append({"label": t(lang, "btn_takeback"), "move": TAKE_BACK})
    elif playing and decision is not None:
        moves += [{"label": A.label(a, lang), "index": i, "discard": a.startswith("d:"),
                   "card": A.parse(a).card if a.startswith("d:") else None}
                  for i, a in enumerate(decision.legal)]
    again = table.status == TableStatus.BETWEEN and table.current is record
    if again and player is not None and not player.ready:
        moves.append({"label": t(lang, "btn_again"), "move": AGAIN, "mark": record.id})
    last = pub.last_event
    return {
        "lang": lang, "table": table.id, "hand": record.table_no, "seat": seat,
        "status": hand_caption(table, record, seat, view, lang, asked_at=None),
        "seats": seats, "order": seats_in_play_order(view), "stock": pub.stock_count,
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
        "version": version, "moves": moves, "seconds_left": clocks.seats.get(seat),
        "over": pub.outcome is not None,
        "points": None if pub.outcome is None else list(pub.outcome.points),
        "settlement": settlement(table, record, lang, settled, clocks.again if again else None),
        "cards": {k: _card_text(k) for k in range(C.KINDS)},
        "words": {k: t(lang, f"webapp_{k}") for k in WORDS},
    }


def settlement(table: Table, record: HandRecord, lang: str, settled: Settled | None,
               again_seconds: int | None) -> dict[str, object] | None:
    """The hand's result as the group's settlement and each private result write it: how it
    ended (winner, 胡息, 名堂/番 or 平胡, 荒庄…), each seat's points with their parts and
    running total (``points_text``; the points alone until the totals are read), and the
    seconds left to press 再来一局 while the table waits for it."""
    outcome = record.hand.outcome
    if outcome is None:
        return None
    points = seat_points(record, settled.birds if settled is not None else ())
    rows = []
    for seat, user_id in enumerate(record.users):
        xing = seat == outcome.xing
        rows.append({
            "seat": seat, "name": record.names[seat], "points": points[seat].total,
            "signed": signed(points[seat].total), "xing": xing,
            "winner": seat == outcome.winner,
            "total": None if settled is None else signed(settled.totals.get(user_id, 0)),
            "text": None if settled is None else points_text(
                points[seat], settled.totals.get(user_id, 0), lang, xing=xing)})
    return {"kind": str(outcome.kind), "draw": outcome.kind == OutcomeKind.DRAW,
            "winner": outcome.winner, "lines": outcome_lines(record, lang), "rows": rows,
            "again_seconds": again_seconds}


WORDS = ("title", "stock", "offer", "ting", "huxi", "trustee", "robot", "dealer", "seconds",
         "points", "offline", "not_seated", "confirm", "ting_after", "no_ting", "kan", "last",
         "pick", "settlement", "again_in", "total", "win", "ready_wait", "expired",
         "expired_body", "over_title", "over_body", "back", "restarting", "not_seated_title",
         "xing", "count")


def clocks(service: TableService, table: Table, record: HandRecord, seat: int) -> Clocks:
    """The seconds left that the seat may know: on its own open decision, on a discard any
    seat must make (public: the table waits for it), never on another's claim (who is asked
    is private), none for seats played by the computer or in 托管; between hands, to press
    再来一局 before being unseated."""
    now = service.clock()
    if table.status == TableStatus.BETWEEN and table.current is record:
        due = service.due_at(table)
        return Clocks({}, None if due is None else max(0, round(due - now)))
    if table.status != TableStatus.PLAYING or record.hand.is_terminal():
        return Clocks({})
    seats = {}
    for s, decision in table.decisions.items():
        player = table.players.get(s)
        if not decision.legal or player is None or player.autoplay or player.robot:
            continue
        # a seat that must discard is the table's to know (``PublicView.to_act``)
        if s == seat or any(a.startswith("d:") for a in decision.legal):
            seats[s] = max(0, round(service.deadline(table, s) - now))
    return Clocks(seats)
