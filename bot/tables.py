"""The table service: lobby, seating, hands and actions, with the database as the store of record.

No Telegram here. Each table has one ``asyncio.Lock``; every accepted change is committed to the
store (write-ahead) before the observer hears of it, and the observer only schedules work
(messages, timers) from the in-memory state this module keeps as a cache of the database.

Keyboards are versioned per seat: a seat's :class:`Decision` gets the table's version whenever
its legal actions (or the decision they answer) change, and a press is accepted only when it
names that version, so an outdated button can never act on a newer decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot import birds, robots
from bot.store import HandRow, Store, TableRow, Tx
from engine import actions as A
from engine.rules import RULE_SETS, RuleSet, get_rule_set, table_rules
from engine.state import Hand, IllegalAction, next_dealer
from engine.views import Event, OutcomeKind

log = logging.getLogger(__name__)

DEFAULT_RULES = table_rules("qq")
SLOW = 0  # the 慢速 decision timer: no 托管 before the seat was pinged twice
SLOW_TIMEOUT = 180.0  # seconds a 慢速 decision waits (the presenter pings at 10 s and 90 s)
BASES = (1, 2, 3, 5, 10)  # the 底分 a table may choose
TIMERS = (30, 60, 120, SLOW)  # the decision timers a table may choose (seconds)
ABSENT_HANDS = 2  # whole hands in 托管 after which the others may vote a seat's user out
MATCHES = (1, 4, 8, 16)  # hands a table's match (局数) may have: 1 is single hands
# A table's place: (group chat id, forum topic's message_thread_id or None outside forums
# and in General). Each place holds at most one open table.
Place = tuple[int, int | None]


class Refusal(Exception):
    """A request that changes nothing; ``code`` is an i18n key for the polite answer and
    ``fields`` its values (``move`` an action string, worded by the caller in its language)."""

    def __init__(self, code: str, **fields: str) -> None:
        super().__init__(code)
        self.code = code
        self.fields = fields


@dataclass(frozen=True)
class PressAnswer:
    """What a move press is answered with: ``key`` is an i18n key (``played``, or
    ``claim_pending`` while higher claims on the same card are undecided), ``move`` the
    action pressed."""

    key: str
    move: str


# Public events that settle an offered card (or the hand): who took it, or that nobody did.
_TAKING = frozenset({"hu", "pao", "peng", "chi", "to_row", "escape", "huangzhuang", "dissolve"})
_MOVE_EVENT = {"chi": "chi", A.PENG: "peng", A.HU: "hu"}  # an action kind's event kind
_TAKEN = frozenset({"hu", "pao", "peng", "chi", "escape"})  # each has its "taken_<kind>" answer


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str
    lang: str


@dataclass
class Player:
    """A seated user and the per-seat display state that outlives a restart."""

    user_id: int
    name: str
    lang: str
    ready: bool = False
    autoplay: bool = False  # 托管
    hand_msg_id: int | None = None
    ping_msg_id: int | None = None

    @property
    def robot(self) -> bool:
        """A computer player (电脑): played by the policy, never sent a message."""
        return robots.is_robot(self.user_id)


@dataclass(frozen=True)
class Decision:
    """What a seat may do now; ``version`` is printed into its keyboard's callback data."""

    version: int
    legal: tuple[str, ...]
    key: tuple[object, ...]
    since: float  # clock time the decision was first awaited
    events: int = 0  # length of the hand's history when it was offered


@dataclass(eq=False)  # compared and hashed by identity: the presenter keys weak maps by it
class HandRecord:
    id: int
    no: int  # the group's hand number: 1, 2, 3… over all of the group's tables
    hand: Hand
    users: tuple[int, ...]  # who sat where when it was dealt
    names: tuple[str, ...]
    group_msg_id: int | None = None  # its table photo in the group
    settle_msg_id: int | None = None  # its settlement message
    match_place: tuple[int, int] | None = None  # (k, N): the match's k-th of N hands


@dataclass(frozen=True)
class Match:
    """A running match (局数): its id, the hands it has, and the points by seat of each hand
    played so far (seats do not change during a match: someone leaving ends it)."""

    id: int
    hands: int
    played: tuple[tuple[int, ...], ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's running match score."""
        return tuple(sum(column) for column in zip(*self.played, strict=True))

    @property
    def hand_no(self) -> int:
        """The place of the hand in play (or the next one) in the match: 1, 2… ``hands``."""
        return len(self.played) + 1


@dataclass(eq=False)  # compared and hashed by identity: the presenter keys weak maps by it
class Table:
    id: int
    chat_id: int
    opener_id: int
    base: int
    status: str  # lobby | playing | between | closed
    dealer: int | None
    draws_in_row: int
    version: int
    thread_id: int | None = None  # its forum topic: every group message goes there
    players: dict[int, Player] = field(default_factory=dict)
    current: HandRecord | None = None  # the running hand, or the last one played
    lobby_msg_id: int | None = None
    rules: RuleSet = DEFAULT_RULES  # the table's rule set, seat count and two-seat option
    timer: int | None = None  # decision timer (seconds): None the bot's default, SLOW 慢速
    match_hands: int = 1  # hands a match has (MATCHES): 1 single hands
    match: Match | None = None  # the running match, from its first deal to its last hand
    # a match that just ended (its id), whose 总结算 the observer is yet to hear of
    ended_match: int | None = None
    # the opener has the lobby's ⚙ settings keyboard open (memory only)
    settings_open: bool = False
    decisions: dict[int, Decision] = field(default_factory=dict)
    # this hand's decisions by (seat, version), withdrawn ones too, and each seat's last
    # applied press (version, index): an old button is answered with what became of it.
    # Memory only: after a restart an old button is simply outdated.
    offered: dict[tuple[int, int], Decision] = field(default_factory=dict)
    pressed: dict[int, tuple[int, int]] = field(default_factory=dict)
    # clock time the table began to wait for 再来一局 (status "between"); memory only, so
    # after a restart the wait starts again from load time
    between_since: float | None = None
    # clock time the lobby filled up (its hand starts ``full_start_delay`` later); memory
    # only, so after a restart a full lobby counts down again from load time
    full_since: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def hand(self) -> Hand | None:
        """The running hand, if any."""
        return self.current.hand if self.status == "playing" and self.current else None

    @property
    def seats(self) -> range:
        """The seats of this table (a 醒家's included)."""
        return range(self.rules.players)

    @property
    def full(self) -> bool:
        return len(self.players) == self.rules.players

    @property
    def configurable(self) -> bool:
        """The options may still change: a lobby before the first deal, or back in the lobby
        after a match (before the next match's first deal)."""
        if self.status != "lobby":
            return False
        return self.current is None or (self.current.match_place is not None
                                        and self.match is None)

    def seat_of(self, user_id: int) -> int | None:
        return next((s for s, p in self.players.items() if p.user_id == user_id), None)

    def names(self) -> tuple[str, ...]:
        return tuple(self.players[s].name if s in self.players else "—" for s in self.seats)

    @property
    def place(self) -> Place:
        """Where the table lives: its group and forum topic."""
        return self.chat_id, self.thread_id

    def humans_besides(self, *seats: int) -> bool:
        """Does anyone but computer players sit here apart from ``seats``?"""
        return any(not p.robot for s, p in self.players.items() if s not in seats)


class Observer(Protocol):
    """What the Telegram layer is told after a change is committed (it must not block)."""

    def changed(self, table: Table) -> None: ...

    def settled(self, table: Table, record: HandRecord) -> None: ...

    def closed(self, table: Table) -> None: ...

    def unseated(self, table: Table, names: tuple[str, ...]) -> None:
        """The named players were unseated for not pressing 再来一局 in time."""

    def match_over(self, table: Table, match_id: int) -> None:
        """A match ended (its last hand, someone leaving, /stop): its 总结算 is due."""


def _progress(hand: Hand) -> int:
    """Counts every event but passes: two decisions with equal legal lists differ by it."""
    return sum(1 for e in hand.history if e.kind != "pass")


class TableService:
    def __init__(
        self,
        store: Store,
        observer: Observer,
        *,
        action_timeout: float,
        autoplay_delay: float,
        ready_timeout: float = 120.0,
        full_start_delay: float = 10.0,
        default_lang: str = "zh",
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        self.store = store
        self.observer = observer
        self.action_timeout = action_timeout
        self.autoplay_delay = autoplay_delay
        self.ready_timeout = ready_timeout  # seconds "between" hands before the unready go
        self.full_start_delay = full_start_delay  # seconds a full lobby waits before dealing
        self.default_lang = default_lang
        self.clock = clock
        self.random = rng or secrets.SystemRandom()  # seeds and first dealers; tests seed it
        self.seed = seed  # if set, deals depend on (seed, table, hand no) only: restart-proof
        self._tables: dict[int, Table] = {}
        self._by_place: dict[Place, int] = {}

    # --- lookup --------------------------------------------------------------------

    def tables(self) -> list[Table]:
        return list(self._tables.values())

    def get(self, table_id: int) -> Table:
        try:
            return self._tables[table_id]
        except KeyError:
            raise Refusal("unknown_table") from None

    @staticmethod
    def button_mark(table: Table) -> int:
        """What the table's group buttons belong to: its latest hand (0 before the first).
        The database knows it, so after a restart too a lobby or settlement shown before the
        table moved on (a later hand, back to the lobby) is told apart from the current one."""
        return table.current.id if table.current is not None else 0

    def check_live(self, table_id: int, status: str, mark: int) -> None:
        """Refuse as outdated a group button of a table not in ``status`` (``lobby`` for the
        lobby's, ``between`` for a settlement's) or of another hand than its latest."""
        table = self.get(table_id)
        if table.status != status or mark != self.button_mark(table):
            raise Refusal("stale")

    def in_chat(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The open table of a group's topic (``thread_id`` None: not a forum, or General)."""
        table_id = self._by_place.get((chat_id, thread_id))
        return self._tables[table_id] if table_id is not None else None

    def table_of_user(self, user_id: int) -> Table | None:
        return next((t for t in self._tables.values() if t.seat_of(user_id) is not None), None)

    # --- a group upgraded to a supergroup --------------------------------------------

    async def move_chat(self, old: int, new: int) -> list[Table]:
        """Telegram gave the group ``old`` the id ``new``: its open tables (returned), history
        and leaderboard move there in one transaction, and the hand goes on; each table keeps
        its topic. The tables' group messages (lobby, last hand's photo and settlement) stay
        behind in the old chat, so their ids are forgotten: those to come are posted afresh,
        and no id of the old chat is compared with one of the new. Idempotent (Telegram tells
        it up to three times: two service messages and refused calls); returns no table when
        there was none to move, or they were moved already."""
        async with contextlib.AsyncExitStack() as locks:
            for table in [t for t in self.tables() if t.chat_id == old]:
                await locks.enter_async_context(table.lock)
            moving = [t for t in self.tables() if t.chat_id == old]  # not moved meanwhile
            async with self.store.transaction() as tx:
                await tx.move_chat(old, new)
                for table in moving:
                    await tx.update_table(table.id, lobby_msg_id=None)
                    if table.current is not None:
                        await tx.update_hand(table.current.id, group_msg_id=None,
                                             settle_msg_id=None)
            for table in moving:
                del self._by_place[table.place]
                table.chat_id, table.lobby_msg_id = new, None
                if table.current is not None:
                    table.current.group_msg_id = table.current.settle_msg_id = None
                self._by_place[table.place] = table.id
        return moving

    # --- start-up --------------------------------------------------------------------

    async def load(self) -> list[Table]:
        """Rebuild every open table from the store; running hands are replayed from their log."""
        for row in await self.store.open_tables():
            try:
                table = await self._load_table(row)
            except Exception:  # e.g. a log this engine no longer replays: keep the others
                log.exception("table %s could not be restored; it stays closed to play", row.id)
                continue
            self._tables[table.id] = table
            self._by_place[table.place] = table.id
        return self.tables()

    async def _load_table(self, row: TableRow) -> Table:
        table = Table(row.id, row.chat_id, row.opener_id, row.base, row.status, row.dealer,
                      row.draws_in_row, row.version, thread_id=row.thread_id,
                      lobby_msg_id=row.lobby_msg_id, rules=get_rule_set(row.rules),
                      timer=row.timer, match_hands=row.match_hands)
        table.match = await self._running_match(table.id)
        for s in await self.store.seats(row.id):
            table.players[s.seat] = Player(s.user_id, *await self._name_lang(s.user_id),
                                           s.ready, s.autoplay, s.hand_msg_id, s.ping_msg_id)
        hand_row = await self.store.last_hand(row.id)
        if hand_row is not None:
            table.current = await self._record(table, hand_row)
            table.current.match_place = await self.store.match_place(hand_row.id)
        self._refresh_decisions(table)
        self._mark_between(table)
        self._mark_full(table)
        return table

    async def _running_match(self, table_id: int) -> Match | None:
        """A table's running match as stored: its hands' points by seat, in order."""
        row = await self.store.running_match(table_id)
        if row is None:
            return None
        played = tuple(h.points for h in await self.store.match_played(row.id))
        return Match(row.id, row.hands, played)

    async def _record(self, table: Table, hand_row: HandRow) -> HandRecord:
        """A stored hand, replayed from its log."""
        hand = Hand.replay(get_rule_set(hand_row.rule_set), seed=hand_row.seed,
                           dealer=hand_row.dealer, base=table.base, log=list(hand_row.log))
        # a running hand is played by the seated; a finished one by those in its results
        users = hand_row.users or tuple(table.players[s].user_id for s in range(hand.players))
        names = tuple([(await self._name_lang(u))[0] for u in users])
        return HandRecord(hand_row.id, hand_row.no, hand, users, names,
                          hand_row.group_msg_id, hand_row.settle_msg_id)

    async def unposted_settlements(self) -> list[tuple[Table, HandRecord]]:
        """Finished hands whose settlement never reached the group (the bot stopped first)
        and that the restored tables do not show by themselves: the table moved on (someone
        left, /stop, the next hand began) or closed. A closed table comes back only as the
        place to post in. Call after :meth:`load`."""
        found: list[tuple[Table, HandRecord]] = []
        for table_id, hand_row in await self.store.unposted_hands():
            table = self._tables.get(table_id) or await self._closed_table(table_id)
            current = table.current
            if current is not None and current.id == hand_row.id and table.status == "between":
                continue  # its table waits for 再来一局 under it: posted as the table is shown
            try:
                found.append((table, await self._record(table, hand_row)))
            except Exception:  # e.g. a log this engine no longer replays: keep the others
                log.exception("the settlement of hand %s could not be rebuilt", hand_row.id)
        return found

    async def unposted_matches(self) -> list[tuple[Table, int]]:
        """(table, match id) of every ended match whose 总结算 never reached the group (the
        bot stopped first); a closed table comes back only as the place to post in. Call
        after :meth:`load`."""
        return [(self._tables.get(m.table_id) or await self._closed_table(m.table_id), m.id)
                for m in await self.store.unposted_matches()]

    async def remember_match(self, match_id: int, summary_msg_id: int) -> None:
        """The match's 总结算 was posted: never again."""
        async with self.store.transaction() as tx:
            await tx.update_match(match_id, summary_msg_id=summary_msg_id)

    async def _closed_table(self, table_id: int) -> Table:
        row = await self.store.table(table_id)
        assert row is not None, f"hand of unknown table {table_id}"
        return Table(row.id, row.chat_id, row.opener_id, row.base, "closed", row.dealer,
                     row.draws_in_row, row.version, thread_id=row.thread_id,
                     rules=get_rule_set(row.rules), timer=row.timer)

    async def _name_lang(self, user_id: int) -> tuple[str, str]:
        user = await self.store.user(user_id)
        if user is None:
            return str(user_id), self.default_lang
        return user.name, user.lang or self.default_lang

    # --- lobby -----------------------------------------------------------------------

    async def open(self, chat_id: int, opener: Person, rules: RuleSet = DEFAULT_RULES, *,
                   thread_id: int | None = None, match_hands: int = 1) -> Table:
        """A new table in the lobby of a group, in its forum topic ``thread_id`` (if any), with
        ``rules`` (``engine.rules.table_rules``), its rule set's 底分, the bot's timer, and
        matches of ``match_hands`` hands (1: single hands)."""
        if match_hands not in MATCHES:
            raise Refusal("bad_option")
        if (chat_id, thread_id) in self._by_place:
            raise Refusal("table_exists")
        self._check_free(opener.user_id)
        async with self.store.transaction() as tx:
            table_id = await tx.create_table(chat_id, opener.user_id, rules.default_base,
                                             rules.key, thread_id=thread_id)
            await tx.add_seat(table_id, 0, opener.user_id)
            if match_hands != 1:
                await tx.update_table(table_id, match_hands=match_hands)
        table = Table(table_id, chat_id, opener.user_id, rules.default_base, "lobby",
                      None, 0, 0, thread_id=thread_id,
                      players={0: Player(opener.user_id, opener.name, opener.lang)},
                      rules=rules, match_hands=match_hands)
        self._tables[table_id] = table
        self._by_place[table.place] = table_id
        self.observer.changed(table)
        return table

    def _check_free(self, user_id: int) -> None:
        if self.table_of_user(user_id) is not None:
            raise Refusal("seated_elsewhere")

    async def join(self, table_id: int, person: Person) -> Table:
        table = self.get(table_id)
        async with table.lock:
            if table.seat_of(person.user_id) is not None:
                raise Refusal("already_seated")
            self._check_free(person.user_id)
            if table.status == "playing":
                raise Refusal("in_play")
            free = [s for s in table.seats if s not in table.players]
            if not free:
                raise Refusal("table_full")
            async with self.store.transaction() as tx:
                await tx.add_seat(table.id, free[0], person.user_id)
            table.players[free[0]] = Player(person.user_id, person.name, person.lang)
            self._mark_full(table)
        self.observer.changed(table)
        return table

    async def add_robot(self, table_id: int, user_id: int, lang: str) -> Table:
        """A seated player adds a computer player (named in ``lang``) to a free seat."""
        table = self.get(table_id)
        async with table.lock:
            self._seat(table, user_id)
            if table.status == "playing":
                raise Refusal("in_play")
            free = [s for s in table.seats if s not in table.players]
            if not free:
                raise Refusal("table_full")
            picked = robots.pick({p.user_id for p in table.players.values()}, lang)
            assert picked is not None, "fewer names than seats"
            robot_id, name = picked
            async with self.store.transaction() as tx:
                await tx.upsert_user(robot_id, name, None, lang)
                await tx.add_seat(table.id, free[0], robot_id)
            table.players[free[0]] = Player(robot_id, name, lang)
            self._mark_full(table)
        self.observer.changed(table)
        return table

    async def remove_robot(self, table_id: int, user_id: int) -> Table:
        """A seated player removes the last-seated computer player (not during a hand)."""
        table = self.get(table_id)
        async with table.lock:
            self._seat(table, user_id)
            if table.status == "playing":
                raise Refusal("in_play")
            seat = max((s for s, p in table.players.items() if p.robot), default=None)
            if seat is None:
                raise Refusal("no_robot")
            async with self.store.transaction() as tx:
                await self._unseat(tx, table, seat)
            self._drop(table, seat)
        self._tell_match_over(table)
        self.observer.changed(table)
        return table

    # --- table options (⚙) -------------------------------------------------------------

    @staticmethod
    def _check_configurable(table: Table, user_id: int) -> None:
        if user_id != table.opener_id:
            raise Refusal("only_opener_settings")
        if not table.configurable:
            raise Refusal("settings_closed")

    async def show_settings(self, table_id: int, user_id: int, shown: bool) -> Table:
        """The opener opens (or closes) the lobby's ⚙ settings keyboard."""
        table = self.get(table_id)
        async with table.lock:
            self._check_configurable(table, user_id)
            table.settings_open = shown
        self.observer.changed(table)
        return table

    async def configure(self, table_id: int, user_id: int, setting: str, value: str) -> Table:
        """The opener changes one option of a lobby before its first deal: ``rules`` (a rule
        set id), ``seats``, ``two_seat`` (min21 | setaside), ``base`` (底分), ``timer``
        (seconds, SLOW for 慢速) or ``match`` (hands a match has, MATCHES). Fewer seats
        than are taken is refused; the seated move up to the first seats."""
        table = self.get(table_id)
        async with table.lock:
            self._check_configurable(table, user_id)
            if setting == "match":
                await self._set_match_hands(table, value)
                self.observer.changed(table)
                return table
            rules, base, timer = _changed_option(table, setting, value)
            if len(table.players) > rules.players:
                raise Refusal("too_many_seated", n=str(rules.players),
                              seated=str(len(table.players)))
            moves = [(s, to) for to, s in enumerate(sorted(table.players)) if s != to]
            async with self.store.transaction() as tx:
                for seat, to in moves:
                    await tx.move_seat(table.id, seat, to)
                await tx.update_table(table.id, rules=rules.key, base=base, timer=timer)
            for seat, to in moves:
                table.players[to] = table.players.pop(seat)
            table.rules, table.base, table.timer = rules, base, timer
            self._mark_full(table)
        self.observer.changed(table)
        return table

    async def _set_match_hands(self, table: Table, value: str) -> None:
        hands = int(value) if value.isdigit() else 0
        if hands not in MATCHES:
            raise Refusal("bad_option")
        async with self.store.transaction() as tx:
            await tx.update_table(table.id, match_hands=hands)
        table.match_hands = hands

    def escape_quote(self, table_id: int, user_id: int) -> tuple[int, int] | None:
        """(running hand's id, points the user would pay each other seat) if leaving now is
        逃跑, else None. The amount depends on hidden cards: tell it to the user only."""
        table = self.get(table_id)
        seat = self._seat(table, user_id)
        if table.hand is None or table.current is None:
            return None
        self._check_not_xing(table, seat)
        return table.current.id, table.hand.escape_penalty(seat)

    @staticmethod
    def _check_not_xing(table: Table, seat: int) -> None:
        """The hand's 醒家 holds no cards and cannot 逃跑: he leaves once the hand is over."""
        hand = table.hand
        if hand is not None and seat == hand.rules.xing_seat(hand.dealer):
            raise Refusal("xing_stays")

    def stop_quote(self, table_id: int, user_id: int, is_admin: bool) -> HandRecord | None:
        """The running hand that stopping would void (None if none); refuses those who may
        not stop the table."""
        table = self.get(table_id)
        self._check_may_stop(table, user_id, is_admin)
        return table.current if table.hand is not None else None

    @staticmethod
    def _check_may_stop(table: Table, user_id: int, is_admin: bool) -> None:
        if user_id != table.opener_id and not is_admin:
            raise Refusal("only_opener")

    @staticmethod
    def _check_confirmed(table: Table, hand_id: int | None) -> None:
        """During a hand, leaving or stopping needs its confirmation of this very hand; a
        confirmation of a hand no longer running is outdated."""
        running = table.current.id if table.hand is not None and table.current else None
        if hand_id is not None and hand_id != running:
            raise Refusal("stale")
        if running is not None and hand_id is None:
            raise Refusal("unconfirmed")

    async def leave(self, table_id: int, user_id: int, hand_id: int | None = None) -> Table:
        """Leave the table; during a hand this is 逃跑, which ends the hand with the penalty,
        and needs ``hand_id``: the running hand the user confirmed it for."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            self._check_confirmed(table, hand_id)
            self._check_not_xing(table, seat)
            escaped = table.hand is not None
            if escaped:
                await self._apply(table, seat, A.ESCAPE, auto=False, leaving=True)
            else:
                async with self.store.transaction() as tx:
                    await self._unseat(tx, table, seat)
                self._drop(table, seat)
        if escaped:
            assert table.current is not None
            self.observer.settled(table, table.current)
        self._after_status(table)
        return table

    async def _unseat(self, tx: Tx, table: Table, *seats: int) -> None:
        """Store side of unseating ``seats``: the table goes back to the lobby, or closes.

        Someone leaving starts a new 局: the next dealer is drawn again and the 荒庄 count
        restarts. If the opener leaves, the next seated human opens the table (and may /stop)."""
        for seat in seats:
            await tx.remove_seat(table.id, seat)
        if table.match is not None and table.hand is None and seats:  # a 逃跑: in _settle
            await self._end_match(tx, table.match, "left", table.players[seats[0]].user_id)
        if table.humans_besides(*seats):  # computer players alone do not keep a table open
            await tx.update_table(table.id, status="lobby", dealer=None, draws_in_row=0,
                                  opener_id=self._next_opener(table, *seats))
        else:
            await tx.close_table(table.id, table.version)

    @staticmethod
    def _next_opener(table: Table, *leaving: int) -> int:
        """The opener once ``leaving`` are gone: the same, or the first human left seated."""
        if all(table.players[s].user_id != table.opener_id for s in leaving):
            return table.opener_id
        return next(p.user_id for s, p in sorted(table.players.items())
                    if s not in leaving and not p.robot)

    def _drop(self, table: Table, *seats: int) -> None:
        """Memory side of :meth:`_unseat`, once it is committed."""
        closes = not table.humans_besides(*seats)
        if not closes:
            table.opener_id = self._next_opener(table, *seats)
            table.dealer, table.draws_in_row = None, 0
        if table.match is not None and table.hand is None:  # ended by _unseat
            table.match, table.ended_match = None, table.match.id
        for seat in seats:
            table.players.pop(seat)
        table.status = "closed" if closes else "lobby"
        table.between_since = table.full_since = None

    async def stop(self, table_id: int, user_id: int, is_admin: bool,
                   hand_id: int | None = None) -> Table:
        """Close the table (opener or admin); a running hand is voided, which needs
        ``hand_id``: the running hand the stop was confirmed for."""
        table = self.get(table_id)
        async with table.lock:
            self._check_may_stop(table, user_id, is_admin)
            self._check_confirmed(table, hand_id)
            await self._close(table)
        self._after_status(table)
        return table

    async def abandon(self, table_id: int) -> None:
        """The table's forum topic was deleted: none of it can be shown any more, and nobody
        could leave it there. It closes, unless a hand runs: that hand is played out in the
        private chats and recorded, and the table closes when its settlement finds the topic
        gone."""
        table = self._tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.status in ("playing", "closed"):
                return
            await self._close(table)
        self._after_status(table)

    async def _close(self, table: Table) -> None:
        """Close the table; a running match ends (stopped) with the hands it finished."""
        table.version += 1
        async with self.store.transaction() as tx:
            await tx.close_table(table.id, table.version)
            if table.match is not None:
                await self._end_match(tx, table.match, "stopped")
        table.status = "closed"
        if table.match is not None:  # told of only if it has a 总结算
            table.match, table.ended_match = None, table.match.id if table.match.played else None

    @staticmethod
    async def _end_match(tx: Tx, match: Match, status: str, leaver: int | None = None) -> None:
        """Store an ended match; one that finished no hand has no 总结算 to post (0)."""
        await tx.update_match(match.id, status=status, leaver=leaver,
                              summary_msg_id=None if match.played else 0)

    def _tell_match_over(self, table: Table) -> None:
        """Tell the observer of a match that just ended (once)."""
        if table.ended_match is not None:
            match_id, table.ended_match = table.ended_match, None
            self.observer.match_over(table, match_id)

    def _after_status(self, table: Table) -> None:
        if table.status == "closed":
            self._tables.pop(table.id, None)
            self._by_place.pop(table.place, None)
            self._refresh_decisions(table)
            self.observer.closed(table)
            self._tell_match_over(table)
        else:
            self._tell_match_over(table)  # the 总结算 goes before a new lobby
            self.observer.changed(table)

    async def begin(self, table_id: int, user_id: int) -> Table:
        table = self.get(table_id)
        async with table.lock:
            self._seat(table, user_id)
            if table.status == "playing":
                raise Refusal("in_play")
            if not table.full:
                raise Refusal("need_seats", n=str(table.rules.players))
            record = await self._start_hand(table)
        self._started(table, record)
        return table

    async def again(self, table_id: int, user_id: int) -> Table:
        """再来一局: mark ready; the next hand starts when every seat is ready."""
        table = self.get(table_id)
        record = None
        async with table.lock:
            seat = self._seat(table, user_id)
            if table.status == "playing":
                raise Refusal("in_play")
            if table.status != "between":  # e.g. the wait for 再来一局 timed out
                raise Refusal("stale")
            player = table.players[seat]
            if not player.ready:
                async with self.store.transaction() as tx:
                    await tx.update_seat(table.id, seat, ready=1)
                player.ready = True
            if table.full and \
                    all(p.ready or p.robot for p in table.players.values()):
                record = await self._start_hand(table)
        self._started(table, record)
        return table

    def _started(self, table: Table, record: HandRecord | None) -> None:
        if record is not None and record.hand.is_terminal():  # a forced 天胡 ends it at once
            self.observer.settled(table, record)
        self._tell_match_over(table)
        self.observer.changed(table)

    async def _start_hand(self, table: Table) -> HandRecord:
        version = table.version + 1
        rules = table.rules
        async with self.store.transaction() as tx:
            # numbered inside the transaction: two tables of one group (two forum topics)
            # dealing at once would otherwise both draw the same number
            no = await self.store.next_hand_no(table.chat_id)
            rng = self.random if self.seed is None \
                else random.Random(f"{self.seed}:{table.id}:{no}")
            dealer = table.dealer if table.dealer is not None else rng.randrange(rules.players)
            seed = rng.getrandbits(64)
            hand = Hand.new(rules, seed=seed, dealer=dealer, base=table.base)
            hand_id = await tx.create_hand(table.id, no, rules.key, seed, dealer)
            match = table.match
            if match is None and table.match_hands > 1:  # a match's first deal
                match = Match(await tx.create_match(table.id, table.match_hands),
                              table.match_hands)
            place = None
            if match is not None:
                await tx.update_hand(hand_id, match_id=match.id)
                place = (match.hand_no, match.hands)
            await birds.deal(tx, table, hand_id)
            await tx.reset_seats(table.id)
            await tx.update_table(table.id, status="playing", dealer=dealer, version=version)
            record = HandRecord(hand_id, no, hand,
                                tuple(table.players[s].user_id for s in table.seats),
                                table.names(), match_place=place)
            cols = await self._settle(tx, table, record, match) if hand.is_terminal() else {}
        table.current, table.match = record, match
        table.version = version
        table.status, table.dealer = "playing", dealer
        for p in table.players.values():
            p.ready = p.autoplay = False
            p.hand_msg_id = None
        table.offered.clear()
        table.pressed.clear()
        table.full_since = None
        self._set(table, cols)
        self._refresh_decisions(table)
        self._mark_between(table)
        return record

    # --- play ------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, version: int, index: int) -> PressAnswer:
        """A button press: the action is resolved from the presser's own seat and decision.
        A press of an older keyboard of his is answered with what became of it (see
        :meth:`_old_press`)."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            decision = table.decisions.get(seat)
            if table.hand is None or decision is None or not decision.legal \
                    or decision.version != version:
                return self._old_press(table, seat, version, index)
            if not 0 <= index < len(decision.legal):
                raise Refusal("stale")
            action = decision.legal[index]
            await self._apply(table, seat, action, auto=False)
            table.pressed[seat] = (version, index)
        try:  # the move is committed: shown and timed even when it lost the card
            return self._press_answer(table, seat, decision, action)
        finally:
            self._after_action(table)

    def _old_press(self, table: Table, seat: int, version: int, index: int) -> PressAnswer:
        """A press that is not of the seat's current decision: the move it just made pressed
        again (answered as the first time), a keyboard withdrawn because another seat took
        the card (answered with who took it), an outdated button, or not his decision."""
        old = table.offered.get((seat, version))
        if old is None or not 0 <= index < len(old.legal):
            decision = table.decisions.get(seat)
            mine = decision is not None and bool(decision.legal) and table.hand is not None
            raise Refusal("stale" if mine or table.hand is None else "not_your_turn")
        if table.pressed.get(seat) == (version, index):
            return self._press_answer(table, seat, old, old.legal[index])
        if table.pressed.get(seat, (None,))[0] == version:  # another button of a used keyboard
            raise Refusal("stale")
        taken = self._taken_since(table, seat, old)
        if taken is not None:
            raise taken
        raise Refusal("stale")

    @staticmethod
    def _settling_events(table: Table, decision: Decision) -> list[Event]:
        """Public events since ``decision`` was offered that settled the card (or the hand)."""
        assert table.current is not None
        history = table.current.hand.history[decision.events:]
        return [e for e in history if e.visible_to is None and e.kind in _TAKING]

    def _taken_since(self, table: Table, seat: int, decision: Decision,
                     events: list[Event] | None = None) -> Refusal | None:
        """"Bob 碰 了这张牌" when another seat took the card (or won, or left) first;
        ``events``: the settling events, when the caller has them already."""
        if events is None:
            events = self._settling_events(table, decision)
        if not events or events[0].seat in (None, seat) or events[0].kind not in _TAKEN:
            return None
        assert table.current is not None
        return Refusal(f"taken_{events[0].kind}", name=table.current.names[events[0].seat])

    def _press_answer(self, table: Table, seat: int, decision: Decision,
                      action: str) -> PressAnswer:
        """``played`` once the move is applied (a discard or 过 at once); ``claim_pending``
        while a claim waits for higher ones; a refusal saying who took the card instead."""
        kind = A.parse(action).kind
        if kind in ("discard", A.PASS):
            return PressAnswer("played", action)
        events = self._settling_events(table, decision)
        if not events:
            return PressAnswer("claim_pending", action)
        if events[0].seat == seat and events[0].kind == _MOVE_EVENT.get(kind):
            return PressAnswer("played", action)
        taken = self._taken_since(table, seat, decision, events)
        raise taken if taken is not None else Refusal("stale")

    # --- votes (bot.votes runs them; these are their outcomes) ---------------------------

    async def dissolve(self, table_id: int, proposer_id: int, hand_id: int) -> Table:
        """解散 agreed by every other seated human: the running hand ``hand_id`` ends with no
        points (the engine's own ending, logged as the proposer's), and the table waits
        between hands as after any other. ``stale`` when that hand is no longer running."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._seat(table, proposer_id)
            if table.hand is None or table.current is None or table.current.id != hand_id:
                raise Refusal("stale")
            await self._apply(table, seat, A.DISSOLVE, auto=False)
        self._after_action(table)
        return table

    async def absent_seats(self, table: Table) -> list[int]:
        """Seats whose human was played for (托管) through each of the table's last
        ``ABSENT_HANDS`` hands: the others may hand them to a computer player."""
        return [s for s, p in sorted(table.players.items()) if not p.robot and
                await self.store.absent_hands(table.id, p.user_id, ABSENT_HANDS) == ABSENT_HANDS]

    async def replace_seat(self, table_id: int, seat: int, user_id: int, lang: str) -> Table:
        """The others voted: ``user_id`` leaves ``seat`` between hands (no 逃跑: no hand runs)
        and a computer player (named in ``lang``) sits there instead; the next hand deals
        at once if everyone else pressed 再来一局 already."""
        table = self.get(table_id)
        record = None
        async with table.lock:
            player = table.players.get(seat)
            if table.status != "between" or player is None or player.user_id != user_id:
                raise Refusal("stale")
            picked = robots.pick({p.user_id for p in table.players.values()}, lang)
            assert picked is not None, "fewer names than seats"
            robot_id, name = picked
            opener = self._next_opener(table, seat)
            async with self.store.transaction() as tx:
                await tx.remove_seat(table.id, seat)
                await tx.upsert_user(robot_id, name, None, lang)
                await tx.add_seat(table.id, seat, robot_id)
                await tx.update_table(table.id, opener_id=opener)
            table.players[seat] = Player(robot_id, name, lang)
            table.opener_id = opener
            if all(p.ready or p.robot for p in table.players.values()):
                record = await self._start_hand(table)
        self._started(table, record)
        return table

    async def take_back(self, table_id: int, user_id: int) -> Table:
        """Switch 托管 off: the seat's clock starts afresh."""
        table = self.get(table_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            player = table.players[seat]
            if player.autoplay:
                async with self.store.transaction() as tx:
                    await tx.update_seat(table.id, seat, autoplay=0)
                player.autoplay = False
                d = table.decisions.get(seat)
                if d is not None:
                    table.decisions[seat] = dataclasses.replace(d, since=self.clock())
        self.observer.changed(table)
        return table

    async def hint(self, table_id: int, user_id: int, lang: str) -> str:
        """提示: what the policy would play for the presser now and why, in one line;
        changes nothing."""
        table = self.get(table_id)
        seat = self._seat(table, user_id)
        hand, decision = table.hand, table.decisions.get(seat)
        if hand is None or decision is None or not decision.legal:
            raise Refusal("not_your_turn")
        _, reason = await robots.hint(hand, seat, lang)
        return reason

    def due_at(self, table: Table) -> float | None:
        """Clock time at which some awaited seat is to be played for, or, between hands, at
        which those who did not press 再来一局 are unseated; None if nothing is due. The wait
        for 再来一局 is kept in memory only: after a restart it starts again from load time."""
        if table.status == "between" and table.between_since is not None:
            return table.between_since + self.ready_timeout
        if table.status == "lobby" and table.full_since is not None:
            return table.full_since + self.full_start_delay
        hand = table.hand
        if hand is None:
            return None
        return min((self.deadline(table, s) for s in hand.to_act()), default=None)

    def deadline(self, table: Table, seat: int) -> float:
        """When the seat's open decision times out (or a 托管/computer seat plays)."""
        player = table.players[seat]
        limit = self.autoplay_delay if player.autoplay or player.robot else self.timeout(table)
        return table.decisions[seat].since + limit

    def timeout(self, table: Table) -> float:
        """Seconds a human's decision waits before 托管 at this table (its timer)."""
        if table.timer is None:
            return self.action_timeout
        return SLOW_TIMEOUT if table.timer == SLOW else float(table.timer)

    async def play_due(self, table_id: int) -> None:
        """Timer: play every seat whose time is up (托管 from now on for a timed-out seat)
        and every computer player whose pause is over."""
        table = self._tables.get(table_id)
        if table is None:
            return
        if table.status == "between":
            await self._ready_timeout(table)
            return
        if table.status == "lobby":
            await self._full_start(table)
            return
        acted = False
        async with table.lock:
            while (hand := table.hand) is not None:
                now = self.clock()
                due = [s for s in hand.to_act() if self.deadline(table, s) <= now + 1e-3]
                if not due:
                    break
                seat = due[0]
                action = await robots.decide(hand, seat)
                await self._apply(table, seat, action, auto=True)
                acted = True
        if acted:
            self._after_action(table)
        else:
            self.observer.changed(table)

    async def _full_start(self, table: Table) -> None:
        """Timer, in the lobby: a table full for ``full_start_delay`` seconds deals."""
        record = None
        async with table.lock:
            due = self.due_at(table)
            if table.status == "lobby" and due is not None and due <= self.clock() + 1e-3:
                record = await self._start_hand(table)
        if table.status != "closed":
            self._started(table, record)

    async def _ready_timeout(self, table: Table) -> None:
        """Timer, between hands: once ``ready_timeout`` is over, every human who did not press
        再来一局 is unseated (no penalty: the hand is over) and the table goes back to the
        lobby, or closes if no human is left."""
        async with table.lock:
            due = self.due_at(table)
            expired = table.status == "between" and due is not None and due <= self.clock() + 1e-3
            if expired:
                gone = tuple(s for s, p in sorted(table.players.items())
                             if not (p.ready or p.robot))
                async with self.store.transaction() as tx:
                    await self._unseat(tx, table, *gone)
                names = tuple(table.players[s].name for s in gone)
                self._drop(table, *gone)
        if not expired:  # too early, or the next hand (or /stop) came first
            if table.status != "closed":
                self.observer.changed(table)
            return
        if names:
            self.observer.unseated(table, names)
        self._after_status(table)

    def _after_action(self, table: Table) -> None:
        if table.status != "playing" and table.current is not None:
            self.observer.settled(table, table.current)
        self._after_status(table)

    async def _apply(self, table: Table, seat: int, action: str, *, auto: bool,
                     leaving: bool = False) -> None:
        """Apply, then commit (write-ahead) before anyone is told. A failed commit reloads
        the table from the database, shows every seat its decision again and is refused
        (``store_failed``), so the press gets a toast instead of no answer at all."""
        record = table.current
        assert record is not None
        hand = record.hand
        try:
            hand.apply_logged(seat, action)
        except IllegalAction:
            raise Refusal("stale") from None
        version = table.version + 1
        cols: dict[str, object] = {}
        tuoguan = auto and not table.players[seat].robot  # a computer player is not in 托管
        try:
            async with self.store.transaction() as tx:
                await tx.append_action(record.id, len(hand.log) - 1, seat, action, auto)
                if tuoguan and not table.players[seat].autoplay:
                    await tx.update_seat(table.id, seat, autoplay=1)
                if hand.is_terminal():
                    cols = await self._settle(tx, table, record, table.match,
                                              leaver=record.users[seat] if leaving else None)
                if leaving:
                    await self._unseat(tx, table, seat)
                await tx.update_table(table.id, version=version)
        except Exception:
            log.exception("could not store an action of table %s; reloading it", table.id)
            await self._reload(table)
            self.observer.changed(table)  # every seat's decision again, with live buttons
            raise Refusal("store_failed") from None
        table.version = version
        if tuoguan:
            table.players[seat].autoplay = True
        self._set(table, cols)
        if leaving:
            self._drop(table, seat)
        self._refresh_decisions(table)
        self._mark_between(table)

    async def _settle(self, tx: Tx, table: Table, record: HandRecord, match: Match | None, *,
                      leaver: int | None = None) -> dict[str, object]:
        """Write a finished hand's results; return the table's new columns (``match`` and
        ``ended_match`` too when the hand is one of ``match``: it counts, and the match's
        last hand, or ``leaver``'s 逃跑, ends it)."""
        outcome = record.hand.outcome
        assert outcome is not None
        points = await birds.settle(tx, table.chat_id, record)  # 打鸟: the seats' share
        await tx.finish_hand(record.id, table.chat_id, record.users, points, outcome.winner,
                             counted=outcome.kind != OutcomeKind.DISSOLVED)
        match_cols = await self._count_in_match(tx, match, tuple(points), leaver,
                                                dissolved=outcome.kind == OutcomeKind.DISSOLVED)
        dealer: int | None = record.hand.dealer
        if outcome.kind == OutcomeKind.ESCAPE:
            draws = table.draws_in_row
        else:
            dealer, draws = next_dealer(record.hand.rules, dealer, outcome, table.draws_in_row)
        cols: dict[str, object] = {"status": "between", "dealer": dealer, "draws_in_row": draws}
        if match_cols.get("ended_match") is not None and leaver is None:
            # the match's last hand: back to the lobby, where a new match starts (and
            # draws its first dealer) with 开局, and the opener may change the options
            cols = {"status": "lobby", "dealer": None, "draws_in_row": 0}
        await tx.update_table(table.id, **cols)
        return cols | match_cols

    async def _count_in_match(self, tx: Tx, match: Match | None, points: tuple[int, ...],
                              leaver: int | None, *, dissolved: bool = False
                              ) -> dict[str, object]:
        """A finished hand of a match: the match with it, or ended by it. A hand the seats
        voted to end (解散) ends its match too, as /stop does: they wanted to stop playing."""
        if match is None:
            return {}
        played = dataclasses.replace(match, played=(*match.played, points))
        if leaver is None and not dissolved and len(played.played) < match.hands:
            return {"match": played}
        status = "stopped" if dissolved else "done" if leaver is None else "left"
        await self._end_match(tx, played, status, leaver)
        return {"match": None, "ended_match": match.id}

    def _mark_full(self, table: Table) -> None:
        """Start the countdown of a lobby whose last seat just filled (kept while it stays
        full; someone leaving forgets it, see :meth:`_drop`)."""
        full = table.status == "lobby" and table.full
        if not full:
            table.full_since = None
        elif table.full_since is None:
            table.full_since = self.clock()

    def _mark_between(self, table: Table) -> None:
        """Start (or forget) the wait for 再来一局 after a change of status."""
        table.between_since = self.clock() if table.status == "between" else None

    @staticmethod
    def _set(table: Table, cols: dict[str, object]) -> None:
        for name, value in cols.items():
            setattr(table, name, value)

    async def _reload(self, table: Table) -> None:
        row = next((r for r in await self.store.open_tables() if r.id == table.id), None)
        if row is None:
            return
        fresh = await self._load_table(row)
        for name in ("status", "dealer", "draws_in_row", "version", "players", "current",
                     "decisions", "between_since", "match"):
            setattr(table, name, getattr(fresh, name))

    def _seat(self, table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("not_seated")
        return seat

    def _refresh_decisions(self, table: Table) -> None:
        hand, now = table.hand, self.clock()
        progress = _progress(hand) if hand is not None else 0
        for seat in table.seats:
            legal = hand.legal_actions(seat) if hand is not None else ()
            key: tuple[object, ...] = (legal, progress) if legal else ()
            old = table.decisions.get(seat)
            if old is None or old.key != key:
                events = len(hand.history) if hand is not None else 0
                decision = Decision(table.version, legal, key, now, events)
                table.decisions[seat] = decision
                if legal:
                    table.offered[seat, decision.version] = decision

    async def remember(self, table: Table, **ids: int | None) -> None:
        """Persist message ids of the table (``lobby_msg_id``)."""
        async with self.store.transaction() as tx:
            await tx.update_table(table.id, **ids)
        self._set(table, dict(ids))

    async def remember_seat(self, table: Table, seat: int, user_id: int,
                            **ids: int | None) -> None:
        """Persist a seat's message ids (``hand_msg_id``, ``ping_msg_id``) while ``user_id``
        still sits there (the message was sent to him)."""
        player = table.players.get(seat)
        if player is None or player.user_id != user_id:
            return
        async with self.store.transaction() as tx:
            await tx.update_seat(table.id, seat, of_user=user_id, **ids)
        for name, value in ids.items():
            setattr(player, name, value)

    async def remember_hand(self, record: HandRecord, **ids: int | None) -> None:
        """Persist a hand's group message ids (``group_msg_id``, ``settle_msg_id``)."""
        async with self.store.transaction() as tx:
            await tx.update_hand(record.id, **ids)
        for name, value in ids.items():
            setattr(record, name, value)


def _changed_option(table: Table, setting: str, value: str) -> tuple[RuleSet, int, int | None]:
    """(rules, 底分, timer) of ``table`` with one option changed; ``bad_option`` when the
    value is not one offered. A new rule set keeps the seat count if it offers it, and
    brings its own 底分 (a 湖南 底分 multiplies 囤, a qq one 底数)."""
    rules, base, timer = table.rules, table.base, table.timer
    try:
        if setting == "rules":
            seats = rules.players if rules.players in RULE_SETS[value].seat_choices else None
            rules = table_rules(value, seats)
            base = rules.default_base
        elif setting == "seats":
            rules = table_rules(rules.id, int(value))
        elif setting == "two_seat":
            rules = table_rules(rules.id, rules.players, value)
        elif setting == "base" and int(value) in BASES:
            base = int(value)
        elif setting == "timer" and int(value) in TIMERS:
            timer = int(value)
        else:
            raise ValueError(f"no option {setting}={value}")
    except (KeyError, ValueError):
        raise Refusal("bad_option") from None
    return rules, base, timer
