"""The rows the store hands out: frozen records of what one query read."""

from __future__ import annotations

from dataclasses import dataclass

QQ_ID = "qq"  # the rule set of every score kept before leaderboards were per rule set


@dataclass(frozen=True)
class ClubSettings:
    """A group's club settings (/club, docs/club.md); all off by default."""

    auto_ready: bool = False  # 自动准备: a standing table's seated are ready after a match
    dissolve_limit: int | None = None  # 解散 votes a member may propose a day (None: any)
    cup_no_dissolve: bool = False  # 禁止解散 at a 群杯's tables


@dataclass(frozen=True)
class UserRow:
    user_id: int
    name: str
    lang: str | None
    dm_ok: bool
    quiet: bool = False  # /quiet: no pings


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    ready: bool
    autoplay: bool
    clock_from: float | None = None  # when its clock last started afresh (epoch seconds)


@dataclass(frozen=True)
class HandRow:
    id: int
    no: int  # the group's number: the id /replay N and /export name
    table_no: int  # the table's number: what players read (第 k 局)
    rule_set: str
    seed: int
    dealer: int
    status: str
    log: tuple[tuple[int, str], ...]  # (seat, action), in order
    users: tuple[int, ...]  # who played it, by seat (from its results; empty while running)
    times: tuple[float, ...] = ()  # when each action of the log was stored (epoch seconds)
    started: float | None = None  # when it was dealt (epoch seconds, to the second)
    ended: float | None = None  # when it ended (epoch seconds, to the second)


@dataclass(frozen=True)
class TableRow:
    id: int
    chat_id: int
    opener_id: int
    status: str
    dealer: int | None
    draws_in_row: int
    version: int
    base: int
    rules: str = "qq"  # the rules key (``engine.rules.get_rule_set``)
    timer: int | None = None  # decision timer in seconds; None the bot's default, 0 慢速
    thread_id: int | None = None  # its forum topic (None: not a forum, or General)
    match_hands: int = 1  # hands a match of this table has: 1 (single hands), 4, 8 or 16
    bot_id: int = 0  # the bot that opened it (its Telegram id; 0: a store one bot serves alone)
    robot_level: str = "strong"  # its computer players' level (bot.table.robots.table_level)
    standing: bool = False  # a standing table (常驻桌): back in its lobby until /stop
    no: int = 1  # its number in its group, what players read (第 no 桌); ``id`` names it
    private: bool = False  # played in its players' private chats only (a 群杯's, no topics)


@dataclass(frozen=True)
class MatchRow:
    """A match (局数): its table, hands planned, status (running | done | left | stopped),
    the user whose leaving ended it, and its 总结算 message once posted."""

    id: int
    table_id: int
    hands: int
    status: str
    leaver: int | None
    summary_msg_id: int | None


@dataclass(frozen=True)
class RankRow:
    user_id: int
    name: str
    points: int
    hands: int
    wins: int
    birds: int = 0  # hands followed as a bird (打鸟); their points are in ``points``


@dataclass(frozen=True)
class Score:
    """A user's record in one rule set: seated hands and wins, and birds (打鸟) apart."""

    points: int
    hands: int
    wins: int
    birds: int


@dataclass(frozen=True)
class BirdRow:
    """A bird (打鸟) of a hand: who placed it, and once settled the seat it followed and its
    points (``seat`` None: settled without a card naming a seat)."""

    user_id: int
    name: str
    seat: int | None
    points: int | None


@dataclass(frozen=True)
class VoteRow:
    """An open vote as stored: where its group message is (its id is a post of the vote's,
    :data:`bot.store.posts.Slot.VOTE`)."""

    id: int
    kind: str  # dissolve | replace
    chat_id: int
    thread_id: int | None


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand as recorded: enough to replay it (``base`` is its table's)."""

    id: int
    no: int
    rule_set: str
    seed: int
    dealer: int
    base: int
    winner: int | None
    log: tuple[tuple[int, str], ...]
    users: tuple[int, ...]  # by seat
    names: tuple[str, ...]  # by seat, as the users are called now
    points: tuple[int, ...]  # by seat
    table_id: int
    table_no: int  # what players read: 第 table_no 局 of its 第 table_number 桌 (``no``: the id)
    table_number: int = 1  # its table's number in its group (``TableRow.no``)
    voided_by: int | None = None  # /void: who voided it (None: it counts), why, his name
    void_reason: str | None = None
    voider: str | None = None
