"""PostgreSQL's LISTEN/NOTIFY on a connection of its own: how the bot processes sharing one
database and the one live seat server (``python -m bot webapp``, :mod:`bot.webapp.multi`) tell
each other of a changed table, a press and its answer. Payloads are small JSON objects; a
notification is delivered to every listening connection of the database once its sender's
transaction is committed (NOTIFY outside one: at once)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

log = logging.getLogger(__name__)

APPLICATION_NAME = "paohuzi-bot signals"


class Signals:
    """One connection that sends and receives notifications on named channels."""

    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    @classmethod
    async def connect(cls, url: str) -> Signals:
        db = await asyncpg.connect(url, server_settings={"application_name": APPLICATION_NAME})
        return cls(db)

    async def notify(self, channel: str, payload: dict[str, Any]) -> None:
        await self._db.execute("SELECT pg_notify($1, $2)", channel,
                               json.dumps(payload, ensure_ascii=False))

    async def listen(self, channel: str, on_message: Callable[[dict[str, Any]], None]) -> None:
        """Call ``on_message`` with each payload sent on ``channel`` (a payload that is not a
        JSON object is logged and dropped)."""
        def received(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            try:
                message = json.loads(payload)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                log.warning("dropped a notification on %s: %r", channel, payload[:100])
                return
            on_message(message)

        await self._db.add_listener(channel, received)

    async def close(self) -> None:
        await self._db.close()
