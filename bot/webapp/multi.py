"""``python -m bot webapp``: one live seat server for several bots on one PostgreSQL store,
each bot playing in a process of its own (docs/operators.md, "Several bots"). This process keeps a copy of
every bot's open tables, read from the store and reloaded when the bot announces a change
(:mod:`bot.webapp.relay`), and sends each press to the table's bot; it writes nothing. After
its notification connection was lost and made again, it reads every table again.
It tells each bot whose pages are open, so that the bot holds their pictures back."""

from __future__ import annotations

import asyncio
import logging
import signal
import uuid
from functools import partial
from typing import Any

from bot.config import SharedWebApp
from bot.i18n import t
from bot.metrics import Gauges, MetricsServer
from bot.present.screens.seat import trustee_known
from bot.store import Store, open_store
from bot.store.health import probe
from bot.store.signals import Signals
from bot.table import HandRecord, Table, TableService, TableStatus
from bot.webapp.press import checked
from bot.webapp.relay import (
    ANSWERS,
    HOLD_RENEW,
    PAGES,
    PRESSES,
    TABLES,
    Channels,
    Outgoing,
    is_id,
)
from bot.webapp.server import Press, Server, Side, WebApp

log = logging.getLogger(__name__)
ANSWER_TIMEOUT = 10.0  # seconds a press waits for its bot's answer


class _Quiet:
    """The copy's table observer: the copy changes only by reloading (no timers, no posts)."""

    def changed(self, table: Table) -> None: ...

    def settled(self, table: Table, record: HandRecord) -> None: ...

    def closed(self, table: Table) -> None: ...

    def unseated(self, table: Table, names: tuple[str, ...]) -> None: ...

    def match_over(self, table: Table, match_id: int) -> None: ...


class KnownTrustee:
    """The seats whose 托管 each table may know, as the shared server sees its copies:
    :func:`bot.present.screens.seat.trustee_known` on every state it builds a view of, from
    what it knew of the same hand before, as the bot's own group picture does. A copy's
    ``autoplay`` alone would mark a seat whose claim timed out, and so tell every page it had
    been asked."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[int, frozenset[int]]] = {}  # table: (hand, seats)

    def of(self, table: Table, record: HandRecord) -> frozenset[int]:
        hand, known = self._known.get(table.id, (record.id, frozenset()))
        now = trustee_known(table, record, known if hand == record.id else ())
        self._known[table.id] = (record.id, now)
        return now

    def forget(self, table_id: int) -> None:
        """The table is gone from the copy (closed, or another bot's)."""
        self._known.pop(table_id, None)


class Remote:
    """The bots' tables as this process sees them, and their presses on their way."""

    def __init__(self, channels: Channels, sides: dict[int, Side],
                 trustees: dict[int, KnownTrustee]) -> None:
        self.channels, self.sides = channels, sides
        self.trustees = trustees  # by bot: the 托管 marks its side's pages show
        self.out = Outgoing(channels)
        self._waiting: dict[str, asyncio.Future[tuple[int, str]]] = {}
        self._dirty: set[tuple[int, int]] = set()
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self.channels.listen(TABLES, self._table_changed)
        await self.channels.listen(ANSWERS, self._answered)

    def press_of(self, bot_id: int) -> Press:
        async def press(table_id: int, user_id: int, lang: str,
                        body: object) -> tuple[int, str]:
            try:
                fields = checked(body)
            except ValueError:
                return 400, t(lang, "webapp_bad_move")
            req = uuid.uuid4().hex
            answer = self._waiting[req] = asyncio.get_running_loop().create_future()
            self.out.send(PRESSES, {"bot": bot_id, "req": req, "table": table_id,
                                    "user": user_id, "lang": lang, "press": fields})
            try:
                async with asyncio.timeout(ANSWER_TIMEOUT):  # bot.waits says why
                    return await answer
            except TimeoutError:  # its bot is down: nothing changed
                return 503, t(lang, "webapp_offline")
            finally:
                self._waiting.pop(req, None)
        return press

    def paged(self, side: Side, user_id: int, is_open: bool) -> None:
        """A user's first page of the bot opened, or his last closed."""
        bot_id = int(side.token.split(":")[0])
        self.out.send(PAGES, {"bot": bot_id, "user": user_id, "open": is_open})

    async def renew_holds(self) -> None:
        """Say again every ``HOLD_RENEW`` seconds which pages are open (a bot lets a hold
        lapse that is not renewed: this process may be gone)."""
        while True:
            await asyncio.sleep(HOLD_RENEW)
            for side in self.sides.values():
                for user_id in side.pages.users():
                    self.paged(side, user_id, True)

    def _answered(self, message: dict[str, Any]) -> None:
        answer = self._waiting.get(str(message.get("req")))
        status, text = message.get("status"), message.get("text")
        if answer is not None and not answer.done() and is_id(status) and isinstance(text, str):
            answer.set_result((status, text))

    def _table_changed(self, message: dict[str, Any]) -> None:
        bot_id, table_id = message.get("bot"), message.get("table")
        if is_id(bot_id) and is_id(table_id) and bot_id in self.sides:
            self._want((bot_id, table_id))

    async def reload_all(self) -> None:
        """After the notifications were not heard a while: every table kept and every open
        one is read again."""
        for bot_id, side in self.sides.items():
            registry = side.service.registry
            rows = await registry.store.open_tables(bot_id)
            for table_id in {r.id for r in rows} | {tb.id for tb in registry.tables()}:
                self._want((bot_id, table_id))

    def _want(self, key: tuple[int, int]) -> None:
        if key in self._dirty:  # a reload is due: it reads this change too
            return
        self._dirty.add(key)
        task = asyncio.get_running_loop().create_task(self._reload(key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reload(self, key: tuple[int, int]) -> None:
        side = self.sides[key[0]]
        registry = side.service.registry
        async with self._locks.setdefault(key, asyncio.Lock()):  # one at a time, in order
            self._dirty.discard(key)
            old = registry.find(key[1])
            try:
                new = await registry.refresh(key[1])
            except Exception:
                log.exception("table %s could not be reloaded", key[1])
                return
        if new is None:  # gone from the copy: nothing of it is kept (a long run's memory)
            if key not in self._dirty:  # no reload waits for its lock
                self._locks.pop(key, None)
            self.trustees[key[0]].forget(key[1])
        for table in {id(tb): tb for tb in (old, new) if tb is not None}.values():
            side.pages.changed(table)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.out.close()


async def serve(shared: SharedWebApp) -> None:
    """Run until SIGINT or SIGTERM."""
    config = shared.config
    assert config.database_url and config.webapp and config.webapp.port
    store: Store = await open_store(config.database_url)
    signals = await Signals.connect(config.database_url)
    sides: dict[int, Side] = {}
    trustees: dict[int, KnownTrustee] = {}
    remote = Remote(signals, sides, trustees)
    for token in shared.tokens:
        bot_id = int(token.split(":")[0])
        service = TableService(store, _Quiet(), action_timeout=config.action_timeout,
                               autoplay_delay=config.autoplay_delay,
                               default_lang=config.default_lang, bot_id=bot_id)
        trustees[bot_id] = KnownTrustee()
        sides[bot_id] = Side(token, service, trustees[bot_id].of, remote.press_of(bot_id))
    web = WebApp(list(sides.values()), config.webapp.path, max_age=config.webapp.max_age,
                 held=lambda side, user_id: remote.paged(side, user_id, True),
                 released=lambda side, user_id: remote.paged(side, user_id, False),
                 default_lang=config.default_lang)
    signals.on_reconnect = remote.reload_all
    await remote.start()  # first listen, then read: no change falls in between
    for side in sides.values():
        await side.service.registry.load_open()
    server = Server(web, config.webapp.port, config.webapp.listen,
                    config.webapp.proxies)
    await server.start()
    metrics = None
    if config.metrics_port is not None:
        metrics = MetricsServer(
            config.metrics_port, config.metrics_host,
            [partial(probe, store.health, store.schema_version), signals.check],
            Gauges(lambda: (tb.status.value for side in sides.values()
                            for tb in side.service.tables()),
                   lambda: sum(side.pages.open_count() for side in sides.values()),
                   states=[s.value for s in TableStatus if s != TableStatus.CLOSED]))
        await metrics.start()
    renewing = asyncio.get_running_loop().create_task(remote.renew_holds())
    log.info("serving the live seats of %d bots", len(sides))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        renewing.cancel()
        if metrics is not None:
            await metrics.stop()
        await server.stop()
        remote.close()
        await signals.close()
        await store.close()
