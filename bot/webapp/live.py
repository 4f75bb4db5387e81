"""The open live pages: each user's WebSockets, told the seat's new view after every
committed change (the table observer's ``changed``/``settled``/``closed``). Pushes are
coalesced per user: a change while one is being sent is sent once after it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from bot.table import Table

log = logging.getLogger(__name__)


class Socket(Protocol):
    async def send_str(self, data: str) -> None: ...

    async def close(self, *, code: int) -> object: ...


class LivePages:
    """Implements :class:`bot.present.live.LiveSeats` for the presenter."""

    def __init__(self, view_of: Callable[[int], str | None],
                 released: Callable[[int], None],
                 held: Callable[[int], None] = lambda user_id: None) -> None:
        self._view_of = view_of  # a user's view as JSON text, None if he is not seated
        self._released = released  # his last page closed: his picture catches up
        self._held = held  # his first page opened: his picture waits
        self._sockets: dict[int, set[Socket]] = {}
        self._pending: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = {}  # one push at a time per user, in order
        self._tasks: set[asyncio.Task[None]] = set()

    def holds(self, user_id: int) -> bool:
        return bool(self._sockets.get(user_id))

    def count(self, user_id: int) -> int:
        """The user's open pages."""
        return len(self._sockets.get(user_id, ()))

    def users(self) -> list[int]:
        """The users with a page open."""
        return list(self._sockets)

    def open_count(self) -> int:
        """The pages open (a user may have several)."""
        return sum(len(sockets) for sockets in self._sockets.values())

    def opened(self, user_id: int, socket: Socket) -> None:
        if user_id not in self._sockets:
            self._held(user_id)
        self._sockets.setdefault(user_id, set()).add(socket)
        self._want(user_id)

    def closed_page(self, user_id: int, socket: Socket) -> None:
        sockets = self._sockets.get(user_id)
        if sockets is None:
            return
        sockets.discard(socket)
        if not sockets:
            del self._sockets[user_id]
            self._released(user_id)

    # --- the table observer ------------------------------------------------------------

    def changed(self, table: Table) -> None:
        users = {p.user_id for p in table.players.values()}
        if table.current is not None:
            users.update(table.current.users)
        for user_id in users:
            if user_id in self._sockets:
                self._want(user_id)

    def _want(self, user_id: int) -> None:
        if user_id in self._pending:
            return
        self._pending.add(user_id)
        task = asyncio.get_running_loop().create_task(self._push(user_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _push(self, user_id: int) -> None:
        await asyncio.sleep(0)  # changes made in this turn of the loop ride along
        lock = self._locks.setdefault(user_id, asyncio.Lock())
        async with lock:
            self._pending.discard(user_id)
            text = self._view_of(user_id)
            for socket in list(self._sockets.get(user_id, ())):
                try:
                    await socket.send_str(text if text is not None else "null")
                except (ConnectionError, RuntimeError) as e:  # closing: its handler forgets it
                    log.debug("live page of %s gone: %s", user_id, e)
        if user_id not in self._sockets and user_id not in self._pending:
            self._locks.pop(user_id, None)

    async def shutdown(self) -> None:
        """The bot stops: every page is told (1001, going away) and reconnects on its own."""
        for task in self._tasks:
            task.cancel()
        sockets = [s for group in self._sockets.values() for s in group]
        self._sockets.clear()  # not released: the pictures stop with the bot
        await asyncio.gather(*(s.close(code=1001) for s in sockets), return_exceptions=True)
