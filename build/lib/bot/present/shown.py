"""What the table's messages show now, as the presenter last made them. Kept in memory only,
weakly keyed by the table and the hand record (so it goes when they do); after a restart every
message is refreshed."""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from telegram import InlineKeyboardMarkup

from bot.store import BirdRow
from bot.table import HandRecord, Table
from engine.views import PublicView


@dataclass(frozen=True)
class Asked:
    """A claim decision (吃/碰/胡 on a card) as its message showed it: how far the hand's log
    and history were then, to tell later whether the seat answered and who took the card."""

    version: int
    log_at: int
    history_at: int


@dataclass
class SeatShown:
    """What one hand message shows now."""

    lang: str = "zh"
    image: object = None
    caption: tuple[str, InlineKeyboardMarkup | None] | None = None
    pinged: int | None = None  # decision version the last ping was for
    pings: int = 0  # pings sent for that version (a 慢速 table pings twice)
    offered: tuple[int, float] | None = None  # decision version shown, and since (loop time)
    own: object = None  # the seat's own part of the picture (see screens.seat.own_part)
    held_since: float | None = None  # a change held back since (loop time)
    log_at: int = 0  # the hand's log length when it was last shown
    asked: Asked | None = None  # the last claim decision shown

    def pings_for(self, version: int) -> int:
        """Pings sent for the decision ``version``."""
        return self.pings if self.pinged == version else 0


@dataclass
class HandShown:
    """What the messages of one hand show now."""

    seats: dict[int, SeatShown] = field(default_factory=dict)
    table: tuple[PublicView, str] | None = None  # the group's table photo: view and caption
    table_at: float | None = None  # loop time the group's table photo was last shown
    settle_caption: str | None = None
    totals: dict[int, int] | None = None  # table totals after this hand, by user
    birds: list[BirdRow] | None = None  # its birds (打鸟), as settled
    trustee: set[int] = field(default_factory=set)  # seats whose 托管 the table may know


@dataclass
class TableShown:
    lobby_text: str | None = None
    lobby_markup: InlineKeyboardMarkup | None = None  # its keyboard (the ⚙ one or the main)
    open_settlement: HandRecord | None = None  # the hand whose settlement has buttons


class Shown:
    """What every table and hand shows now."""

    def __init__(self) -> None:
        self._hands: WeakKeyDictionary[HandRecord, HandShown] = WeakKeyDictionary()
        self._tables: WeakKeyDictionary[Table, TableShown] = WeakKeyDictionary()

    def hand(self, record: HandRecord) -> HandShown:
        return self._hands.setdefault(record, HandShown())

    def table(self, table: Table) -> TableShown:
        return self._tables.setdefault(table, TableShown())
