"""The store's part for what the presenter posted (:mod:`bot.present.posts`): the message id
of each of a table's messages, kept in a column of the row it belongs to (a table's lobby,
a hand's table picture and settlement, a seat's picture and ping, a match's 总结算), and of
each message kept for a cup, a challenge or a vote, a row of ``posts`` named by its slot,
the id of what it shows and its chat (:meth:`PostReads.kept`); read back after a restart
and written through :class:`PostTx`. Mixed into
:class:`bot.store.reads.Queries` and :class:`bot.store.writes.Writes` (SQL once for every
backend, ``?`` parameters).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from bot.store.conn import Conn


class Slot(enum.StrEnum):
    """Which message: each of a table's is one column, its row named by a key; the others
    (:data:`KEPT`) are rows of ``posts`` keyed (the id of what it shows, its chat)."""

    LOBBY = "lobby"  # a table's lobby in its group; key (table id,)
    PICTURE = "picture"  # a hand's table picture in its group; key (hand id,)
    SETTLEMENT = "settlement"  # a hand's settlement in its group; key (hand id,)
    SEAT = "seat"  # a seat's picture of its table's latest hand; key (table, seat, user)
    PING = "ping"  # a seat's last ping; key (table id, seat, user id)
    SUMMARY = "summary"  # a match's 总结算; key (match id,)
    CUP_CARD = "cup_card"  # a 群杯's card (sign-up, then standings); key (cup id, its group)
    CUP_FINAL = "cup_final"  # a 群杯's final card, posted once; key (cup id, its group)
    CHALLENGE_CARD = "challenge_card"  # a 复式挑战's card; key (challenge id, its group)
    CHALLENGE_FINAL = "challenge_final"  # its final card, posted once; key as the card's
    CHALLENGE_SEAT = "challenge_seat"  # a participant's current deal; key (challenge, user)
    VOTE = "vote"  # a vote's message at a table; key (vote id, the table's group)


KEPT = frozenset({Slot.CUP_CARD, Slot.CUP_FINAL, Slot.CHALLENGE_CARD, Slot.CHALLENGE_FINAL,
                  Slot.CHALLENGE_SEAT, Slot.VOTE})
RESERVED = 0  # a kept post's id while it is being sent (reserved before the send)


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

    async def kept(self, slot: Slot, key: int, chat_id: int) -> int | None:
        """The id of the message kept in ``slot`` for ``key`` in the chat; ``RESERVED``
        while it is being sent (or was when the bot stopped), None when there is none."""
        row = await self._conn.one("SELECT msg_id FROM posts WHERE slot = ? AND key_id = ?"
                                   " AND chat_id = ?", (str(slot), key, chat_id))
        return None if row is None else int(row["msg_id"])

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
        """Store the id of the message in ``slot`` of the row ``key`` names (None: none);
        a kept slot's key is (the id of what it shows, its chat)."""
        if slot in KEPT:
            if msg_id is None:
                await self._conn.run("DELETE FROM posts WHERE slot = ? AND key_id = ? AND"
                                     " chat_id = ?", (str(slot), *key))
            else:
                await self._conn.run(
                    "INSERT INTO posts (slot, key_id, chat_id, msg_id) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (slot, key_id, chat_id) DO UPDATE SET msg_id = excluded.msg_id",
                    (str(slot), *key, msg_id))
            return
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
    async def kept(self, slot: Slot, key: int, chat_id: int) -> int | None: ...

    async def set_post(self, slot: Slot, key: tuple[int, ...], msg_id: int | None) -> None:
        ...
