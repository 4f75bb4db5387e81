"""One process per bot token on a PostgreSQL database: a session advisory lock on the bot's id,
held on a connection of its own and taken again on every new connection.

A session lock is released by the server with its connection: when the process ends however it
ends (so a restarted bot takes it at once), but also when only the connection goes (a killed
backend, a server restart). The holder watches its connection (the driver's termination
notice, and a ping every few seconds for a connection that died silently); when it is gone it
connects again and takes the lock again, retrying while the server is away. If another process
took the lock in between, this one has lost the token: it is told (``on_lost``) and stops.
A lease row renewed by the holder would survive such gaps too, but a killed holder's lease
would then keep its own restart out until the lease ran out (and it needs a table); the lock
is the server's own record of who is alive.

The guard's connection is named (``application_name``) so that ``copy-store`` can see a bot
running on a database (:func:`bots_running`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import asyncpg

from bot.waits import woken

log = logging.getLogger(__name__)

APPLICATION_NAME = "paohuzi-bot guard"
PING_INTERVAL = 2.0  # seconds between pings of a connection that might have died silently
PING_TIMEOUT = 10.0  # a ping unanswered this long: the connection is taken for dead
RETRY_INTERVAL = 0.5  # seconds between attempts to connect again


class Guard:
    """``bot_id``'s lock on the database at ``url``, for this process."""

    def __init__(self, url: str, bot_id: int, on_lost: Callable[[], None]) -> None:
        self._url = url
        self._bot_id = bot_id
        self._on_lost = on_lost
        self._db: asyncpg.Connection | None = None
        self._dropped = asyncio.Event()
        self._watch: asyncio.Task[None] | None = None

    async def take(self) -> bool:
        """Take the lock; False when another process holds it. Held until :meth:`release`."""
        if not await self._lock():
            return False
        self._watch = asyncio.create_task(self._keep(), name=f"guard of bot {self._bot_id}")
        return True

    async def release(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.gather(self._watch, return_exceptions=True)
            self._watch = None
        if self._db is not None:
            await self._db.close(timeout=5)  # the server drops the lock with the connection
            self._db = None

    async def _lock(self) -> bool:
        db = await asyncpg.connect(self._url, timeout=10,
                                   server_settings={"application_name": APPLICATION_NAME})
        try:
            taken = await db.fetchval("SELECT pg_try_advisory_lock($1)", self._bot_id)
        except BaseException:
            db.terminate()
            raise
        if not taken:
            await db.close()
            return False
        self._dropped.clear()
        db.add_termination_listener(lambda _: self._dropped.set())
        self._db = db
        return True

    async def _keep(self) -> None:
        while True:
            await self._wait_for_loss()
            log.warning("bot %d: the connection holding its one-process lock was lost; "
                        "taking the lock again", self._bot_id)
            if self._db is not None:
                self._db.terminate()
                self._db = None
            if not await self._take_again():
                log.error("bot %d: another process took its one-process lock meanwhile; "
                          "stopping this one", self._bot_id)
                self._on_lost()
                return
            log.warning("bot %d: the one-process lock is held again", self._bot_id)

    async def _wait_for_loss(self) -> None:
        """Return once the lock's connection is gone (told by the driver, or a failed ping)."""
        while True:
            if await woken(self._dropped, PING_INTERVAL):
                return
            assert self._db is not None
            try:
                await self._db.fetchval("SELECT 1", timeout=PING_TIMEOUT)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError,
                    asyncpg.InternalClientError):  # killed, its end not yet read
                return

    async def _take_again(self) -> bool:
        """Connect until the server answers, then take the lock: False if someone else has it."""
        while True:
            try:
                return await self._lock()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                await asyncio.sleep(RETRY_INTERVAL)


async def bots_running(db: asyncpg.Connection) -> int:
    """How many bot processes hold their guard on ``db``'s database now."""
    return int(await db.fetchval(
        "SELECT COUNT(DISTINCT l.pid) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1"
        " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        APPLICATION_NAME))
