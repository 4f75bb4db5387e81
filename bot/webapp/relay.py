"""Live seats across processes: several bots on one PostgreSQL store, each its own process, and
one server for all their pages (``python -m bot webapp``, :mod:`bot.webapp.multi`), talking
through the store's LISTEN/NOTIFY (:class:`bot.store.signals.Signals`):

- ``paohuzi_tables`` — a bot committed a change of a table: ``{"bot", "table", "version"}``;
  the server reloads that table from the store (its actions replayed, as a restart does) and
  pushes the seats' new views to their open pages.
- ``paohuzi_presses`` — a page's press, for the bot playing its table: ``{"bot", "req",
  "table", "user", "lang", "press"}``; the bot applies it as a button press
  (:func:`bot.webapp.press.apply`) and answers on
- ``paohuzi_answers`` — ``{"req", "status", "text"}``.
- ``paohuzi_pages`` — a user's page of the bot is open (``{"bot", "user", "open": true}``,
  said again every ``HOLD_RENEW`` seconds) or closed (``false``): while it is open the bot
  does not edit his private picture; closed, or not said again for ``HOLD_FOR`` seconds (the
  server gone), the picture is brought up to date.

The server writes nothing: every change is made by the table's own bot, so one process per bot
stays the only writer of its tables. A notification is not stored: a press sent while its bot
is down is not answered (the page is told the bot is away, and changes nothing)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeGuard

from bot.i18n import CATALOGS
from bot.table import Table, TableService
from bot.webapp.press import apply

log = logging.getLogger(__name__)

TABLES, PRESSES, ANSWERS = "paohuzi_tables", "paohuzi_presses", "paohuzi_answers"
PAGES = "paohuzi_pages"
HOLD_RENEW, HOLD_FOR = 10.0, 30.0  # seconds


class Channels(Protocol):
    """:class:`bot.store.signals.Signals`."""

    async def notify(self, channel: str, payload: dict[str, Any]) -> None: ...

    async def listen(self, channel: str,
                     on_message: Callable[[dict[str, Any]], None]) -> None: ...


class Outgoing:
    """Notifications sent one after another on the one connection, in the order given."""

    def __init__(self, channels: Channels) -> None:
        self.channels = channels
        self._queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None

    def send(self, channel: str, payload: dict[str, Any]) -> None:
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._run())
        self._queue.put_nowait((channel, payload))

    async def _run(self) -> None:
        while True:
            channel, payload = await self._queue.get()
            try:
                await self.channels.notify(channel, payload)
            except Exception:  # (a lost connection is waited for: Signals.notify)
                log.exception("could not notify %s", channel)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()


def is_id(value: object) -> TypeGuard[int]:
    """Whether a decoded message's field is an id (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


class BotRelay:
    """In a bot's process: its committed changes announced (the table observer's
    ``changed``), the presses sent to it applied and answered, and the seats whose page is
    open held (:class:`bot.present.live.LiveSeats`; ``released(user_id)``: his picture is
    to catch up)."""

    def __init__(self, channels: Channels, service: TableService, bot_id: int,
                 released: Callable[[int], None]) -> None:
        self.channels, self.service, self.bot_id = channels, service, bot_id
        self.released = released
        self.out = Outgoing(channels)
        self._tasks: set[asyncio.Task[None]] = set()
        self._held: dict[int, asyncio.TimerHandle] = {}  # user: his hold's lapse

    async def start(self) -> None:
        await self.channels.listen(PRESSES, self._pressed)
        await self.channels.listen(PAGES, self._paged)

    def holds(self, user_id: int) -> bool:
        return user_id in self._held

    def _paged(self, message: dict[str, Any]) -> None:
        user_id, is_open = message.get("user"), message.get("open")
        if message.get("bot") != self.bot_id or not is_id(user_id) \
                or not isinstance(is_open, bool):
            return
        if not is_open:
            self._release(user_id)
            return
        lapse = self._held.pop(user_id, None)
        if lapse is not None:
            lapse.cancel()
        self._held[user_id] = asyncio.get_running_loop().call_later(
            HOLD_FOR, self._release, user_id)

    def _release(self, user_id: int) -> None:
        lapse = self._held.pop(user_id, None)
        if lapse is not None:
            lapse.cancel()
            self.released(user_id)

    def changed(self, table: Table) -> None:
        self.out.send(TABLES, {"bot": self.bot_id, "table": table.id, "version": table.version})

    def _pressed(self, message: dict[str, Any]) -> None:
        if message.get("bot") != self.bot_id:
            return
        table_id, user_id, lang = message.get("table"), message.get("user"), message.get("lang")
        if not (is_id(table_id) and is_id(user_id) and lang in CATALOGS):
            log.warning("dropped a malformed press: %r", message)
            return
        task = asyncio.get_running_loop().create_task(
            self._answer(message.get("req"), table_id, user_id, lang, message.get("press")))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, req: object, table_id: int, user_id: int, lang: str,
                      press: object) -> None:
        status, text = await apply(self.service, table_id, user_id, lang, press)
        self.out.send(ANSWERS, {"req": req, "status": status, "text": text})

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for lapse in self._held.values():
            lapse.cancel()
        self.out.close()
