"""The store's part for what the presenter posted (:mod:`bot.present.posts`): the message id
of each of a table's messages, kept in a column of the row it belongs to (a table's lobby,
a hand's table picture and settlement, a seat's picture and ping, a match's 总结算), read
back after a restart and written through :class:`PostTx`. Mixed into
:class:`bot.store.reads.Queries` and :class:`bot.store.writes.Writes` (SQL once for every
backend, ``?`` parameters).
"""

from __future__ import annotations

import enum
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from bot.store.conn import Conn


class Slot(enum.StrEnum):
    """Which of a table's messages: each is one column, its row named by a key."""

    LOBBY = "lobby"  # a table's lobby in its group; key (table id,)
    PICTURE = "picture"  # a hand's table picture in its group; key (hand id,)
    SETTLEMENT = "settlement"  # a hand's settlement in its group; key (hand id,)
    SEAT = "seat"  # a seat's picture of its table's latest hand; key (table, seat, user)
    PING = "ping"  # a seat's last ping; key (table id, seat, user id)
    SUMMARY = "summary"  # a match's 总结算; key (match id,)


# (table, column, key columns) of each slot; a seat's are written only while its user sits
_COLUMNS: dict[Slot, tuple[str, str, tuple[str, ...]]] = {
    Slot.LOBBY: ("tables", "lobby_msg_id", ("id",)),
    Slot.PICTURE: ("hands", "group_msg_id", ("id",)),
    Slot.SETTLEMENT: ("hands", "settle_msg_id", ("id",)),
    Slot.SEAT: ("seats", "hand_msg_id", ("table_id", "seat", "user_id")),
    Slot.PING: ("seats", "ping_msg_id", ("table_id", "seat", "user_id")),
    Slot.SUMMARY: ("matches", "summary_msg_id", ("id",)),
}


@dataclass(frozen=True)
class SeatPosted:
    seat: int
    user_id: int
    picture: int | None  # of the table's latest hand (a deal forgets it)
    ping: int | None


@dataclass(frozen=True)
class Posted:
    """What a table has posted, as stored: its lobby, its latest hand's (``hand_id``)
    picture and settlement in the group, and its seats' pictures and pings."""

    lobby: int | None
    hand_id: int | None
    picture: int | None
    settlement: int | None
    seats: tuple[SeatPosted, ...]


class PostReads:
    """The reads; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def posted(self, table_id: int) -> Posted | None:
        """What the table has posted (None: no such table)."""
        table = await self._conn.one("SELECT lobby_msg_id FROM tables WHERE id = ?", (table_id,))
        if table is None:
            return None
        hand = await self._conn.one(
            "SELECT id, group_msg_id, settle_msg_id FROM hands WHERE table_id = ?"
            " ORDER BY no DESC LIMIT 1", (table_id,))
        seats = await self._conn.all(
            "SELECT seat, user_id, hand_msg_id, ping_msg_id FROM seats WHERE table_id = ?"
            " ORDER BY seat", (table_id,))
        return Posted(table["lobby_msg_id"], None if hand is None else hand["id"],
                      None if hand is None else hand["group_msg_id"],
                      None if hand is None else hand["settle_msg_id"],
                      tuple(SeatPosted(r["seat"], r["user_id"], r["hand_msg_id"],
                                       r["ping_msg_id"]) for r in seats))


class PostWrites:
    """The writes of one transaction; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def set_post(self, slot: Slot, key: tuple[int, ...], msg_id: int | None) -> None:
        """Store the id of the message in ``slot`` of the row ``key`` names (None: none)."""
        table, column, names = _COLUMNS[slot]
        where = " AND ".join(f"{name} = ?" for name in names)
        await self._conn.run(f"UPDATE {table} SET {column} = ? WHERE {where}", (msg_id, *key))

    async def leave_group_posts(self, table_id: int) -> None:
        """The table's group moved (a group became a supergroup): its lobby, and its latest
        hand's picture and settlement, stay behind in the old chat; their ids are
        forgotten, so that those to come are posted afresh in the new one."""
        await self._conn.run("UPDATE tables SET lobby_msg_id = NULL WHERE id = ?", (table_id,))
        await self._conn.run(
            "UPDATE hands SET group_msg_id = NULL, settle_msg_id = NULL WHERE id ="
            " (SELECT id FROM hands WHERE table_id = ? ORDER BY no DESC LIMIT 1)", (table_id,))


class PostTx(Protocol):
    """What :class:`bot.store.Tx` offers for posts (see :class:`PostWrites`)."""

    async def set_post(self, slot: Slot, key: tuple[int, ...], msg_id: int | None) -> None: ...
    async def leave_group_posts(self, table_id: int) -> None: ...


class PostStore(Protocol):
    """What :class:`bot.store.Store` offers for posts (see :class:`PostReads`): all that the
    presenter's posting room (:mod:`bot.present.posts`) knows of the store."""

    async def posted(self, table_id: int) -> Posted | None: ...

    def transaction(self) -> AbstractAsyncContextManager[PostTx]: ...
