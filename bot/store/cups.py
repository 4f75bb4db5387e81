"""The store's part for 群杯 (group cups, :mod:`bot.table.cups`): one row a cup, its whole
state as JSON (written in the transaction of each change), mixed into
:class:`bot.store.reads.Queries` and :class:`bot.store.writes.Writes` (SQL once for every
backend, ``?`` parameters)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store.conn import Conn, Row


@dataclass(frozen=True)
class CupRow:
    id: int
    chat_id: int
    thread_id: int | None
    opener_id: int
    status: str  # signup, playing, done
    state: str  # JSON: bot.table.cups.Cup


def _cup(r: Row) -> CupRow:
    return CupRow(r["id"], r["chat_id"], r["thread_id"], r["opener_id"], r["status"],
                  str(r["state"]))


class CupReads:
    """The reads; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def cup(self, cup_id: int) -> CupRow | None:
        row = await self._conn.one("SELECT * FROM cups WHERE id = ?", (cup_id,))
        return None if row is None else _cup(row)

    async def open_cup(self, chat_id: int) -> CupRow | None:
        """The group's cup in sign-up or in play, if any (one at most: ``one_open_cup``)."""
        row = await self._conn.one(
            "SELECT * FROM cups WHERE chat_id = ? AND status != 'done'", (chat_id,))
        return None if row is None else _cup(row)

    async def live_cups(self, bot_id: int) -> list[CupRow]:
        """The bot's cups in sign-up or in play, and those ended whose final card is not
        posted yet."""
        rows = await self._conn.all(
            "SELECT * FROM cups WHERE bot_id = ? AND (status != 'done' OR NOT EXISTS ("
            "SELECT 1 FROM posts p WHERE p.slot = 'cup_final' AND p.key_id = cups.id))"
            " ORDER BY id", (bot_id,))
        return [_cup(r) for r in rows]

    async def table_results(self, table_id: int) -> tuple[int, dict[int, int]]:
        """A table's finished hands and each user's points over them."""
        hands = await self._conn.one(
            "SELECT COUNT(*) AS n FROM hands WHERE table_id = ? AND status = 'done'",
            (table_id,))
        rows = await self._conn.all(
            "SELECT r.user_id, SUM(r.points) AS p FROM results r JOIN hands h"
            " ON h.id = r.hand_id WHERE h.table_id = ? AND h.status = 'done'"
            " GROUP BY r.user_id", (table_id,))
        return (0 if hands is None else int(hands["n"]),
                {int(r["user_id"]): int(r["p"]) for r in rows})


class CupWrites:
    """The writes of one transaction; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def add_cup(self, bot_id: int, chat_id: int, thread_id: int | None, opener_id: int,
                      state: str, at: float) -> int:
        return await self._conn.insert(
            "INSERT INTO cups (bot_id, chat_id, thread_id, opener_id, state, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)", (bot_id, chat_id, thread_id, opener_id, state, at))

    async def set_cup(self, cup_id: int, *, state: str | None = None,
                      status: str | None = None) -> None:
        for column, value in (("state", state), ("status", status)):
            if value is not None:
                await self._conn.run(f"UPDATE cups SET {column} = ? WHERE id = ?",
                                     (value, cup_id))

    async def move_cups(self, old: int, new: int) -> None:
        """A group upgraded to a supergroup: its cups move with it."""
        await self._conn.run("UPDATE cups SET chat_id = ? WHERE chat_id = ?", (new, old))


class CupStore(Protocol):
    """What :class:`bot.store.Store` offers for cups (see :class:`CupReads`)."""

    async def cup(self, cup_id: int) -> CupRow | None: ...
    async def open_cup(self, chat_id: int) -> CupRow | None: ...
    async def live_cups(self, bot_id: int) -> list[CupRow]: ...
    async def table_results(self, table_id: int) -> tuple[int, dict[int, int]]: ...
    # units of work of their own (bot.store.units)
    async def add_cup(self, bot_id: int, chat_id: int, thread_id: int | None, opener_id: int,
                      state: str, at: float) -> int: ...
    async def set_cup(self, cup_id: int, *, state: str | None = None,
                      status: str | None = None) -> None: ...


class CupTx(Protocol):
    """What :class:`bot.store.Tx` offers for cups (see :class:`CupWrites`)."""

    async def add_cup(self, bot_id: int, chat_id: int, thread_id: int | None, opener_id: int,
                      state: str, at: float) -> int: ...
    async def set_cup(self, cup_id: int, *, state: str | None = None,
                      status: str | None = None) -> None: ...
    async def move_cups(self, old: int, new: int) -> None: ...
