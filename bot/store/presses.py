"""The store's part for button presses in flight (:mod:`bot.telegram.journal`): each press
kept from the poll that brought it until it is answered, so that a restart answers those a
killed run left. Mixed into :class:`bot.store.reads.Queries` and
:class:`bot.store.writes.Writes` (SQL once for every backend, ``?`` parameters)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.store.conn import Conn


class PressReads:
    """The reads; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def pending_presses(self, bot_id: int) -> list[tuple[int, str]]:
        """The bot's presses not answered yet: (update id, the update's JSON), oldest first."""
        rows = await self._conn.all(
            "SELECT update_id, body FROM pending_presses WHERE bot_id = ? ORDER BY update_id",
            (bot_id,))
        return [(int(r["update_id"]), str(r["body"])) for r in rows]


class PressWrites:
    """The writes of one transaction; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def keep_presses(self, bot_id: int, presses: Sequence[tuple[int, str]]) -> None:
        """Keep the presses (update id, JSON) until answered; one kept already stays as it is."""
        for update_id, body in presses:
            await self._conn.run(
                "INSERT INTO pending_presses (bot_id, update_id, body) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING", (bot_id, update_id, body))

    async def forget_press(self, bot_id: int, update_id: int) -> None:
        """The press was answered (or will never be)."""
        await self._conn.run("DELETE FROM pending_presses WHERE bot_id = ? AND update_id = ?",
                             (bot_id, update_id))


class PressTx(Protocol):
    """What :class:`bot.store.Tx` offers for presses in flight (see :class:`PressWrites`)."""

    async def keep_presses(self, bot_id: int, presses: Sequence[tuple[int, str]]) -> None: ...
    async def forget_press(self, bot_id: int, update_id: int) -> None: ...


class PressStore(Protocol):
    """What :class:`bot.store.Store` offers for presses in flight (see :class:`PressReads`):
    all that :mod:`bot.telegram.journal` knows of the store."""

    async def pending_presses(self, bot_id: int) -> list[tuple[int, str]]: ...

    async def keep_presses(self, bot_id: int, presses: Sequence[tuple[int, str]]) -> None: ...
    async def forget_press(self, bot_id: int, update_id: int) -> None: ...
