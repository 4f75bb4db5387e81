"""The table model: the records the table service keeps in memory as a cache of the store,
what it refuses with, and what it tells its observer. No Telegram, no store here.

Keyboards are versioned per seat: a seat's :class:`Decision` gets the table's version whenever
its legal actions (or the decision they answer) change, and a press is accepted only when it
names that version, so an outdated button can never act on a newer decision.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field
from typing import Protocol

from bot.table.robots import STRONG, is_robot
from engine.rules import RuleSet, table_rules
from engine.state import Hand

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


class TableStatus(enum.StrEnum):
    """Where a table is: its lobby, a hand in play, between hands (waiting for 再来一局), or
    closed for good. A ``StrEnum``: stored as its value, equal to it."""

    LOBBY = "lobby"
    PLAYING = "playing"
    BETWEEN = "between"
    CLOSED = "closed"


# The statuses of the other rows the table room keeps: StrEnums, so each is stored as its
# value and equal to it (a row read back carries the bare string).


class HandStatus(enum.StrEnum):
    """A hand: in play, finished (settled), or aborted (ended by /stop, or void)."""

    RUNNING = "running"
    DONE = "done"
    ABORTED = "aborted"


class MatchStatus(enum.StrEnum):
    """A match (局数): in play, played out, ended by a player leaving, or by /stop."""

    RUNNING = "running"
    DONE = "done"
    LEFT = "left"
    STOPPED = "stopped"


class ChallengeStatus(enum.StrEnum):
    """A 复式挑战: open to join and play until its deadline, or ended."""

    OPEN = "open"
    DONE = "done"


class EntrantStatus(enum.StrEnum):
    """A 复式挑战's player: playing his deals, through them all, or gone (离开)."""

    PLAYING = "playing"
    DONE = "done"
    LEFT = "left"


class CupStatus(enum.StrEnum):
    """A 群杯: taking sign-ups, its rounds in play, or over."""

    SIGNUP = "signup"
    PLAYING = "playing"
    DONE = "done"


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


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str
    lang: str


@dataclass
class Player:
    """A seated user and what he chose at the table (ready, 托管)."""

    user_id: int
    name: str
    lang: str
    ready: bool = False
    autoplay: bool = False  # 托管

    @property
    def robot(self) -> bool:
        """A computer player (电脑): played by the policy, never sent a message."""
        return is_robot(self.user_id)


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
    match_place: tuple[int, int] | None = None  # (k, N): the match's k-th of N hands
    table_no: int = 1  # its table's number, what players read: 第 k 局 of its 第 n 桌
    # read from the store: when the decisions then open were first awaited, and when it
    # ended (epoch seconds; :func:`bot.table.clock.restore`)
    awaited_at: float | None = None
    ended_at: float | None = None


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


@dataclass(frozen=True)
class CupPlace:
    """Where a 群杯's table stands in its cup: the cup, the round, and the table's number in
    the cup's own numbering (its topics, cards and final card), which the table's private
    messages use instead of the group's table number."""

    cup_id: int
    round: int
    no: int


@dataclass(eq=False)  # compared and hashed by identity: the presenter keys weak maps by it
class Table:
    id: int
    chat_id: int
    opener_id: int
    base: int
    status: TableStatus
    dealer: int | None
    draws_in_row: int
    version: int
    thread_id: int | None = None  # its forum topic: every group message goes there
    no: int = 1  # its number in its group, what players read (第 no 桌); ``id`` names it
    players: dict[int, Player] = field(default_factory=dict)
    current: HandRecord | None = None  # the running hand, or the last one played
    rules: RuleSet = DEFAULT_RULES  # the table's rule set, seat count and two-seat option
    timer: int | None = None  # decision timer (seconds): None the bot's default, SLOW 慢速
    match_hands: int = 1  # hands a match has (MATCHES): 1 single hands
    robot_level: str = STRONG  # the level its computer players play at (robots.LEVELS)
    # a standing table (常驻桌, 代开): opened by an admin who need not sit, it keeps its rules
    # and goes back to its lobby when its last player leaves, until an admin /stops it
    standing: bool = False
    # a private table (a 群杯's where no topic is to be had): played in its players' private
    # chats only, it posts nothing in its group and takes no place there (``place``)
    private: bool = False
    # a 群杯's table: its place in the cup (memory only: the cup service sets it when it opens
    # or resumes the table); its results offer no 再来一局, the cup deals its hands
    cup: CupPlace | None = None
    match: Match | None = None  # the running match, from its first deal to its last hand
    # a match that just ended (its id), whose 总结算 the observer is yet to hear of
    ended_match: int | None = None
    # the names of those unseated for not pressing 再来一局 in time, whom the observer is
    # yet to hear of (memory only, like ``ended_match``)
    unseated_names: tuple[str, ...] = ()
    # what they did not press: 再来一局 between hands, 准备 in a standing table's lobby
    unseated_from_lobby: bool = False
    # the opener has the lobby's ⚙ settings keyboard open (memory only)
    settings_open: bool = False
    house_open: bool = False  # ... at its house rules (房规) page
    decisions: dict[int, Decision] = field(default_factory=dict)
    # this hand's decisions by (seat, version), withdrawn ones too, and each seat's last
    # applied press (version, index): an old button is answered with what became of it.
    # Memory only: after a restart an old button is simply outdated.
    offered: dict[tuple[int, int], Decision] = field(default_factory=dict)
    pressed: dict[int, tuple[int, int]] = field(default_factory=dict)
    # clock time the table began to wait for 再来一局 (``BETWEEN``); memory only, so
    # after a restart the wait starts again from load time
    between_since: float | None = None
    # clock time the lobby filled up (its hand starts ``full_start_delay`` later); memory
    # only, so after a restart a full lobby counts down again from load time
    full_since: float | None = None
    # a change of it was not stored (memory only): ``unsynced`` until memory is read from
    # the store again (its commit may have been lost with its answer), and the clock comes
    # back at ``retry_at`` to try again (:mod:`bot.table.work`)
    unsynced: bool = False
    retry_at: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def changing(self) -> bool:
        """A change is under way (:mod:`bot.table.work`): memory may hold what is not stored
        yet, so nothing of the table is shown until the change is told."""
        return self.lock.locked()

    @property
    def hand(self) -> Hand | None:
        """The running hand, if any."""
        return self.current.hand if self.status == TableStatus.PLAYING and self.current else None

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
        if self.status != TableStatus.LOBBY:
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


