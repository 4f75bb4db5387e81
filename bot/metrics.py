"""Health and metrics for operators (METRICS_PORT, docs/deploy.md): ``GET /healthz`` answers
200 ``ok`` while every check passes and 503 with each failing check's reason, a line each;
``GET /metrics`` is Prometheus' text format.

The instruments below count in the whole process (a test running several bots in one process
counts them all together); what a scrape reads from one bot's own objects (its tables, its
open pages) is :class:`Gauges`, given to the :class:`MetricsServer` of that bot. Each server
has a registry of its own, so that two in one process do not clash.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

# seconds: the Bot API's answers are 50-200 ms from Telegram, a long poll up to ~15 s
API_BUCKETS = (0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

BOT_API_CALLS = Counter(
    "paohuzi_bot_api_calls", "Bot API calls by method and outcome (ok, 429, error)",
    ["method", "outcome"], registry=None)
BOT_API_SECONDS = Histogram(
    "paohuzi_bot_api_call_seconds", "Seconds a Bot API call took, answer or failure",
    ["method"], buckets=API_BUCKETS, registry=None)
UPDATES = Counter("paohuzi_updates", "Updates handled (messages, button presses, inline "
                  "queries)", registry=None)
HANDS_FINISHED = Counter("paohuzi_hands_finished", "Hands played to their settlement",
                         registry=None)
STORE_SECONDS = Histogram("paohuzi_store_call_seconds", "Seconds a call of the store took "
                          "(one statement, or a transaction's begin or commit)",
                          buckets=STORE_BUCKETS, registry=None)
STORE_FAILURES = Counter("paohuzi_store_failures", "Calls of the store that failed because "
                         "it could not take them (unavailable) or waited out a lock (busy)",
                         ["kind"], registry=None)
for kind in ("unavailable", "busy"):  # at 0 from the start, so that a rate can be taken
    STORE_FAILURES.labels(kind)
PAINTER_QUEUE = Gauge("paohuzi_painter_queue", "Pictures waiting to be painted or being "
                      "painted", registry=None)

PROCESS_WIDE: tuple[Collector, ...] = (
    BOT_API_CALLS, BOT_API_SECONDS, UPDATES, HANDS_FINISHED, STORE_SECONDS, STORE_FAILURES,
    PAINTER_QUEUE)

# the outcomes of a Bot API call: answered ok, refused for flooding, anything else
OK, FLOOD, ERROR = "ok", "429", "error"


def outcome(status: int | None) -> str:
    """A call's outcome from its HTTP status (None: no answer at all)."""
    if status is not None and 200 <= status < 300:
        return OK
    return FLOOD if status == 429 else ERROR


@dataclass(frozen=True, eq=False)  # hashed by identity, as a registry wants
class Gauges(Collector):
    """What a scrape reads from the server's own objects: the tables by state (``tables``
    gives each open table's state) and the live pages open."""

    tables: Callable[[], Iterable[str]]
    pages: Callable[[], int]
    states: Sequence[str] = ()  # states reported even when no table is in them

    def collect(self) -> Iterator[GaugeMetricFamily]:
        by_state = Tally(self.tables())
        tables = GaugeMetricFamily("paohuzi_tables", "Open tables by state", labels=["state"])
        for state in sorted(set(self.states) | set(by_state)):
            tables.add_metric([state], by_state.get(state, 0))
        yield tables
        yield GaugeMetricFamily("paohuzi_live_pages_open", "Live seat pages open (WebSockets)",
                                value=self.pages())


# A check: None while it passes, else why not (one line).
Check = Callable[[], Awaitable[str | None]]


class MetricsServer:
    """``/healthz`` and ``/metrics`` on ``host:port`` (aiohttp, the live seat's server's
    library). Started and stopped with the process it reports on."""

    def __init__(self, port: int, host: str, checks: Sequence[Check],
                 gauges: Collector | None = None) -> None:
        self.port, self.host, self.checks = port, host, list(checks)
        self.registry = CollectorRegistry(auto_describe=True)
        for collector in (*PROCESS_WIDE, PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            self.registry.register(collector)
        if gauges is not None:
            self.registry.register(gauges)
        self._runner: web.AppRunner | None = None

    def routes(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.routes(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("health and metrics on http://%s:%s/healthz and /metrics", self.host,
                 self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, request: web.Request) -> web.Response:
        reasons = [r for r in await asyncio.gather(*(check() for check in self.checks)) if r]
        if reasons:
            return web.Response(status=503, text="\n".join(reasons) + "\n")
        return web.Response(text="ok\n")

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})
