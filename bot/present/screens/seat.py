"""A seat's screen, as one model (:class:`SeatModel`) with two faces: the whole table as that
seat may see it (托管 and 电脑 marks as it may know them, its 听 with the copies unseen, its
坎 and 臭, the clocks it may know, the last moves), a caption saying what the table waits for
without naming who may claim, the presses it may make now (:mod:`bot.present.screens.
seat_presses`) and, once the hand is over, its settlement with each seat's points, their
parts and running totals. It is drawn to the private picture and its keyboard
(:mod:`bot.present.seats`, :mod:`bot.present.screens.seat_keys`) and written to the live
page's JSON (:mod:`bot.webapp.view`). Nothing here knows Telegram."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.present import fairness
from bot.present.screens.seat_presses import SeatPress, seat_presses
from bot.present.screens.words import (
    QUIET_EVENTS,
    claim_taker,
    cup_prefix,
    event_line,
    last_action,
    outcome_lines,
    points_text,
    table_no,
    waiting_line,
)
from bot.store import BirdRow
from bot.table import HandRecord, Table, TableService, TableStatus, robots
from bot.table.birds import seat_points
from engine import ting as engine_ting
from engine.points import signed
from engine.rules import RuleSet
from engine.ting import ting as compute_ting
from engine.views import OutcomeKind, PrivateView, Ting
from render import render_hand

DISCARDS_PER_ROW = 5  # a keyboard's discard buttons in a row
MOVES_LISTED = 12  # the latest moves a lone player's caption lists since his last move
OWN_MOVES = frozenset({"discard", "chi", "peng", "pass"})  # events of a seat's own choosing
# not listed: the quiet ones, and the cards flipped from the wall, which the picture shows
# (the card on offer, then in its seat's row)
UNLISTED = QUIET_EVENTS | {"draw"}


@dataclass(frozen=True)
class SeatMarks:
    """What a seat's picture marks beside the names: seats in 托管 as that seat may know it,
    and computer players."""

    trustee: frozenset[int] = frozenset()
    robots: frozenset[int] = frozenset()


def hand_signature(view: PrivateView, names: Sequence[str], lang: str,
                   marks: SeatMarks = SeatMarks()) -> tuple[object, ...]:
    """Everything ``render_hand`` draws, the whole table as the seat sees it: equal
    signatures mean an identical picture. The seat's 听 is a function of the view's parts
    here (its legal discards and 臭胡 kinds included), so it is computed only to draw."""
    pub = view.public
    return (view.seat, view.hand, view.kans, view.melds, view.huxi, view.chou, view.highlight,
            view.legal, view.no_win, pub.dealer, pub.seats, pub.stock_count, pub.offer,
            pub.to_act, pub.waiting, pub.outcome is not None, pub.last_event, tuple(names), lang,
            marks)


def draw_hand(view: PrivateView, names: Sequence[str], lang: str, marks: SeatMarks,
              rules: RuleSet, ting: Ting | None = None) -> bytes:
    """The seat's picture (``render_hand``) with its 听 while the hand is played, in the
    painter's thread or process. ``ting``: the seat's 听 when its model knows it already
    (:func:`known_ting`, shared with its live page); else it is computed here, from the seat's
    own view only, off the event loop (the policy's threads share its caches too)."""
    if view.public.outcome is not None:
        ting = None
    elif ting is None:
        ting = compute_ting(rules, view)
    return render_hand(view, names, lang, trustee=marks.trustee, robots=marks.robots, ting=ting)


def own_part(view: PrivateView) -> tuple[object, ...]:
    """The part of ``hand_signature`` that is the seat's own; the rest is the table's (the
    highlighted card too: a card drawn or shown is shown to every seat)."""
    return (view.hand, view.kans, view.melds, view.huxi, view.chou)


def alone_with_robots(record: HandRecord, seat: int) -> bool:
    """Whether every other seat that plays the hand (the 醒家 sits it out) is a computer
    player: then nobody but the seat's own player is waited for, or watching."""
    xing = record.hand.rules.xing_seat(record.hand.dealer)
    return all(robots.is_robot(u) for s, u in enumerate(record.users) if s not in (seat, xing))


def hand_caption(table: Table, record: HandRecord, seat: int, view: PrivateView, lang: str, *,
                 asked_at: int | None) -> str:
    """The hand message's caption: table and hand, the seat's 胡息, who took the card it was
    last asked about (``asked_at``: where the hand's history stood then), alone with computer
    players the moves since his last (:func:`moves_line`), and its status."""
    head = cup_prefix(table, lang) + t(lang, "dm_caption", table=table_no(table),
                                       hand=record.table_no, huxi=view.huxi)
    if table.private and record.hand.seed is not None:  # no group picture to show the 🔒
        head += " · " + fairness.seal(record.hand.seed, lang)
    taken = taken_line(record, seat, asked_at, lang) if not view.legal else None
    over = record.hand.is_terminal() or table.status == TableStatus.CLOSED
    moves = moves_line(record, seat, lang) \
        if not over and alone_with_robots(record, seat) else None
    if over:
        status = over_line(record, lang)
    elif table.players[seat].autoplay:
        status = t(lang, "dm_autoplay")
    elif not view.legal:
        status = waiting_line(view.public, record.names, lang) or t(lang, "dm_wait")
    elif any(a.startswith("d:") for a in view.legal):
        status = t(lang, "dm_turn_discard")
    else:
        status = t(lang, "dm_turn_claim")
    return "\n".join(line for line in (head, taken, moves, status) if line)


def moves_line(record: HandRecord, seat: int, lang: str) -> str | None:
    """The public moves since the seat's last move of its own choosing (since the deal
    before it has one), the latest :data:`MOVES_LISTED`: a player alone with computer players
    reads in it each of their moves, also those that came faster than his chat's one edit a
    second (bot.table.clock.Pace.alone_paced), and, with his buttons, all he missed."""
    history = record.hand.history
    since = next((i + 1 for i in range(len(history) - 1, -1, -1)
                  if history[i].seat == seat and history[i].kind in OWN_MOVES), 0)
    events = [e for e in history[since:] if e.visible_to is None and e.kind not in UNLISTED]
    if not events:
        return None
    moves = t(lang, "part_sep").join(event_line(e, record.names, lang)
                                     for e in events[-MOVES_LISTED:])
    return t(lang, "dm_moves", moves=("… " if len(events) > MOVES_LISTED else "") + moves)


def taken_line(record: HandRecord, seat: int, asked_at: int | None, lang: str) -> str | None:
    """Who took the card the seat was last asked about ("Bob 碰了这张牌"): it tells a seat
    whose buttons went, or whose 吃 was overtaken, what happened."""
    if asked_at is None:
        return None
    event = claim_taker(record.hand.history, asked_at)
    if event is None or event.seat is None or event.seat == seat:
        return None
    return t(lang, f"taken_{event.kind}", name=record.names[event.seat])


def with_clock(parts: list[str], seconds_left: int | None, lang: str) -> list[str]:
    """``parts`` and the time left on the seat's open decision, if it has one."""
    return parts if seconds_left is None else [*parts, t(lang, "time_left", seconds=seconds_left)]


def robots_of(record: HandRecord) -> frozenset[int]:
    """The hand's seats played by the computer."""
    return frozenset(s for s, user_id in enumerate(record.users) if robots.is_robot(user_id))


def over_line(record: HandRecord, lang: str) -> str:
    """Why the hand ended, for a seat's caption: who left (逃跑), 解散, voided by /stop (no
    outcome), else just that it is over (the result message under it tells the rest)."""
    outcome = record.hand.outcome
    if outcome is None:
        return t(lang, "dm_over_voided")
    if outcome is not None and outcome.kind == OutcomeKind.ESCAPE and outcome.escaper is not None:
        return t(lang, "dm_over_escape", name=record.names[outcome.escaper])
    if outcome is not None and outcome.kind == OutcomeKind.DISSOLVED:
        return t(lang, "dm_over_dissolved")
    return t(lang, "dm_over")


def trustee_known(table: Table, record: HandRecord, known: Collection[int]) -> frozenset[int]:
    """The seats whose 托管 the table may know now, ``known`` those it knew: a seat in 托管
    once that tells nobody more than the play itself. A timeout on a claim would show that
    the seat had been asked (what it holds), so its 托管 waits for its next public turn (a
    discard) or the end of the hand; a seat that took back is unmarked at once. None at a
    private table, which has no group to tell (each seat knows its own: :func:`seat_model`).
    The group's picture and note (``bot.present.panels``) and every live page, in the bot's
    process or the shared server's, mark what this gives and nothing earlier."""
    if table.private:
        return frozenset()
    hand = record.hand
    public_turn = hand.public_view().to_act
    now = set()
    for seat, user_id in enumerate(record.users):
        player = table.players.get(seat)
        if player is None or player.user_id != user_id or not player.autoplay:
            continue
        if seat in known or hand.is_terminal() or seat in public_turn \
                or last_action(hand, seat).startswith("d:"):
            now.add(seat)
    return frozenset(now)


@dataclass(frozen=True)
class Clocks:
    """The seconds left that a seat may know: ``seats`` those on the decisions every seat
    may know of (a discard's, and this seat's own), ``again`` those left to press 再来一局."""

    seats: Mapping[int, int]
    again: int | None = None


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


@dataclass(frozen=True)
class Settled:
    """What a settlement shows beyond the hand: the running totals by user after it, and
    its birds (打鸟), read from the store once the hand is over."""

    totals: Mapping[int, int]
    birds: Sequence[BirdRow] = ()


@dataclass(frozen=True)
class SeatResult:
    """One seat's line of a settlement: its points (``signed``: as written, 0 unsigned),
    and once the totals are read, its running total and its points with their parts and
    total as the group's settlement and the private result write them (``text``)."""

    seat: int
    name: str
    points: int
    signed: str
    xing: bool
    winner: bool
    total: str | None
    text: str | None


@dataclass(frozen=True)
class Settlement:
    """How the hand ended (``lines``: winner, 胡息, 名堂/番 or 平胡, 荒庄…) and each seat's
    result; ``again_seconds``: the time left to press 再来一局 while the table waits for it."""

    kind: str
    draw: bool
    winner: int | None
    lines: tuple[str, ...]
    rows: tuple[SeatResult, ...]
    again_seconds: int | None


def settlement(record: HandRecord, lang: str, settled: Settled | None,
               again_seconds: int | None = None) -> Settlement | None:
    """The finished hand's :class:`Settlement` (None while it is played): the points alone
    until ``settled`` (the totals and birds) is read."""
    outcome = record.hand.outcome
    if outcome is None:
        return None
    points = seat_points(record, settled.birds if settled is not None else ())
    rows = []
    for seat, user_id in enumerate(record.users):
        xing, total = seat == outcome.xing, None
        if settled is not None:
            total = settled.totals.get(user_id, 0)
        rows.append(SeatResult(
            seat, record.names[seat], points[seat].total, signed(points[seat].total), xing,
            seat == outcome.winner, None if total is None else signed(total),
            None if total is None else points_text(points[seat], total, lang, xing=xing)))
    return Settlement(str(outcome.kind), outcome.kind == OutcomeKind.DRAW, outcome.winner,
                      tuple(outcome_lines(record, lang)), tuple(rows), again_seconds)


SHAPES_KEPT = 4096  # decisions whose 听 is kept (a few per open table)
_shapes: OrderedDict[tuple[object, ...], engine_ting.Shape] = OrderedDict()


def seat_ting(rules: RuleSet, view: PrivateView) -> Ting:
    """The seat's 听 as its picture draws it: the analyzer's part (which kinds win, after
    which discard: ``engine.ting.shape``) once per decision, kept while the seat's own cards
    and legal discards stay (``engine.ting.shape_key``); the copies unseen counted afresh
    for each view. The picture of a decision and every push of it to the page share it."""
    key = (rules, engine_ting.shape_key(view))
    found = _shapes.get(key)
    if found is None:
        found = _shapes[key] = engine_ting.shape(rules, view)
        if len(_shapes) > SHAPES_KEPT:
            _shapes.popitem(last=False)
    else:
        _shapes.move_to_end(key)
    return engine_ting.counted(found, view)


def known_ting(rules: RuleSet, view: PrivateView) -> Ting | None:
    """:func:`seat_ting` if its decision's part is computed already, else None: then the
    picture computes it where it is painted, off the event loop."""
    found = _shapes.get((rules, engine_ting.shape_key(view)))
    return None if found is None else engine_ting.counted(found, view)


@dataclass(frozen=True)
class SeatModel:
    """One seat's screen, built once per change from its own ``PrivateView`` (so it holds no
    card the seat may not see) and drawn twice: to its private picture, caption and keyboard
    and to its live page's JSON. ``marks``: the 托管 the seat may know (its own, the others'
    once :func:`trustee_known`) and the computers; ``ting``: its 听 while the hand is played
    (None when the picture is to compute it); ``presses``: what it may press now;
    ``clocks``: the seconds left it may know; ``settled``: the totals once read."""

    table: Table
    record: HandRecord
    seat: int
    lang: str
    view: PrivateView
    marks: SeatMarks
    ting: Ting | None
    presses: tuple[SeatPress, ...]
    clocks: Clocks
    settled: Settled | None

    @property
    def playing(self) -> bool:
        return self.table.status == TableStatus.PLAYING and self.view.public.outcome is None

    @property
    def seconds_left(self) -> int | None:
        """The time left on the seat's own open decision, if it has one."""
        return self.clocks.seats.get(self.seat)

    def caption(self, asked_at: int | None = None) -> str:
        """:func:`hand_caption` (``asked_at``: where the hand stood when the seat was last
        asked to claim, for the picture's line on who took that card)."""
        return hand_caption(self.table, self.record, self.seat, self.view, self.lang,
                            asked_at=asked_at)

    def settlement(self) -> Settlement | None:
        again = self.table.status == TableStatus.BETWEEN and self.table.current is self.record
        return settlement(self.record, self.lang, self.settled,
                          self.clocks.again if again else None)


def seat_model(table: Table, record: HandRecord, seat: int, lang: str, *,
               trustee: Collection[int], clocks: Clocks = Clocks({}),
               settled: Settled | None = None, ting: bool = True) -> SeatModel:
    """The seat's :class:`SeatModel`: ``trustee`` the seats whose 托管 the table may know
    (:func:`trustee_known`); ``ting``: compute the seat's 听 if its decision's is not known
    yet (the page), else leave that to the picture's painter (:func:`known_ting`)."""
    view = record.hand.private_view(seat)
    player = table.players.get(seat)
    own = player is not None and player.user_id == record.users[seat] and player.autoplay
    marks = SeatMarks(frozenset(trustee) | ({seat} if own else frozenset()), robots_of(record))
    playing = table.status == TableStatus.PLAYING and view.public.outcome is None
    rules = record.hand.rules
    found = None if not playing else seat_ting(rules, view) if ting else known_ting(rules, view)
    return SeatModel(table, record, seat, lang, view, marks, found,
                     seat_presses(table, record, seat, lang), clocks, settled)
