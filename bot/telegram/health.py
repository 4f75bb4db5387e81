"""The bot's ``/healthz`` and ``/metrics`` (METRICS_PORT, :mod:`bot.metrics`): healthy while
updates can arrive and the store answers (:func:`bot.store.health.probe`).

Updates can arrive: by long polling, while getUpdates is answered (a long poll returns at
least every ten seconds, empty or not); by webhook, which is quiet while nobody plays, while
getWebhookInfo, asked every ``WEBHOOK_CHECK`` seconds, is answered and tells of no failed
delivery since the last update that came."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from telegram import Bot, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.metrics import UPDATES
from bot.telegram.request import AiohttpRequest

log = logging.getLogger(__name__)

STALE = 20.0  # seconds without an answer from the Bot API before updates count as not arriving
WEBHOOK_CHECK = 10.0  # seconds between two getWebhookInfo, with a webhook


class Arrivals:
    """When the Bot API last answered the way updates come (``polls.answered_at``, the
    getUpdates client's; or getWebhookInfo's answers) and when the last update came."""

    def __init__(self, polls: AiohttpRequest, webhook: Bot | None = None) -> None:
        self._polls = polls  # the getUpdates client
        self._bot = webhook  # with a webhook: the bot that asks getWebhookInfo
        self._since = time.monotonic()
        self._info_at: float | None = None
        self._failed: tuple[float, str] | None = None  # a delivery failed: when (epoch), why
        self.update_at: float | None = None  # time.time() of the last update
        self._task: asyncio.Task[None] | None = None

    def arrived(self) -> None:
        UPDATES.inc()
        self.update_at = time.time()

    async def check(self) -> str | None:
        """None while updates can arrive; else why not (one line)."""
        answered = self._info_at if self._bot is not None else self._polls.answered_at
        quiet = time.monotonic() - (answered if answered is not None else self._since)
        if quiet > STALE:
            how = "getWebhookInfo" if self._bot is not None else "getUpdates"
            return f"updates: the Bot API has not answered {how} for {quiet:.0f} s"
        if self._failed is not None:
            when, why = self._failed
            if self.update_at is None or when > self.update_at:
                return f"updates: Telegram could not deliver to the webhook ({why})"
        return None

    def start(self) -> None:
        if self._bot is not None:
            self._task = asyncio.get_running_loop().create_task(self._watch(self._bot))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self, bot: Bot) -> None:
        while True:
            try:
                info = await bot.get_webhook_info()
            except TelegramError as error:  # unanswered: check() says so after STALE s
                log.debug("getWebhookInfo: %s", error)
            except Exception:  # one answer it cannot read does not end the watch
                log.exception("getWebhookInfo's answer could not be read")
            else:
                self._info_at = time.monotonic()
                failed = info.last_error_date
                self._failed = None if failed is None else \
                    (failed.timestamp(), info.last_error_message or "no reason given")
            await asyncio.sleep(WEBHOOK_CHECK)


async def arrived(arrivals: Arrivals, update: Update,
                  context: ContextTypes.DEFAULT_TYPE) -> None:
    """The first handler of every update: counted, and its time kept."""
    arrivals.arrived()
