"""PostgreSQL's LISTEN/NOTIFY on a connection of its own: how the bot processes sharing one
database and the one live seat server (``python -m bot webapp``, :mod:`bot.webapp.multi`) tell
each other of a changed table, a press and its answer. Payloads are small JSON objects; a
notification is delivered to every connection of the database listening on its channel.

A lost connection (a killed backend, a server restart) is made again, its channels listened
to again, and then ``on_reconnect`` is called: what was sent meanwhile was not heard, so the
listener reads again what it keeps (:meth:`bot.webapp.multi.Remote.reload_all`)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

log = logging.getLogger(__name__)

APPLICATION_NAME = "paohuzi-bot signals"
RETRY_INTERVAL = 0.5  # seconds between attempts to connect again

Listener = Callable[[dict[str, Any]], None]


class Signals:
    """One connection that sends and receives notifications on named channels."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._db: asyncpg.Connection | None = None
        self._listeners: dict[str, Listener] = {}
        self._up = asyncio.Event()
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None

    @classmethod
    async def connect(cls, url: str) -> Signals:
        signals = cls(url)
        await signals._connect()
        return signals

    async def _connect(self) -> None:
        db = await asyncpg.connect(self._url,
                                   server_settings={"application_name": APPLICATION_NAME})
        db.add_termination_listener(self._lost)
        for channel, on_message in self._listeners.items():
            await db.add_listener(channel, self._receiver(channel, on_message))
        self._db = db
        self._up.set()

    async def check(self) -> str | None:
        """``/healthz``'s check (:mod:`bot.metrics`): None while the connection is up."""
        return None if self._up.is_set() else \
            "notifications: the connection to the store was lost (connecting again)"

    def _lost(self, _conn: object) -> None:
        self._db = None
        self._up.clear()
        if not self._closed and self._reconnecting is None:
            log.warning("the notification connection was lost; connecting again")
            self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        try:
            while True:
                try:
                    await self._connect()
                    break
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
                    log.debug("still no notification connection: %s", e)
                    await asyncio.sleep(RETRY_INTERVAL)
        finally:
            self._reconnecting = None
        log.info("the notification connection is back")
        if self.on_reconnect is not None:
            await self.on_reconnect()

    async def notify(self, channel: str, payload: dict[str, Any]) -> None:
        """Send, waiting for the connection while it is being made again."""
        while True:
            await self._up.wait()
            db = self._db
            if db is None:
                continue
            try:
                await db.execute("SELECT pg_notify($1, $2)", channel,
                                 json.dumps(payload, ensure_ascii=False))
                return
            except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError) as e:
                log.debug("notify on %s failed: %s", channel, e)
                if self._db is db:  # not noticed yet
                    self._lost(db)

    async def listen(self, channel: str, on_message: Listener) -> None:
        """Call ``on_message`` with each payload sent on ``channel`` (a payload that is not a
        JSON object is logged and dropped)."""
        self._listeners[channel] = on_message
        if self._db is not None:
            await self._db.add_listener(channel, self._receiver(channel, on_message))

    @staticmethod
    def _receiver(channel: str, on_message: Listener) -> Callable[..., None]:
        def received(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            try:
                message = json.loads(payload)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                log.warning("dropped a notification on %s: %r", channel, payload[:100])
                return
            on_message(message)
        return received

    async def close(self) -> None:
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self._db is not None:
            await self._db.close()
