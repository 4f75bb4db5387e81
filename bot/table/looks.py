"""A job that looks at the store beside play: every few seconds, and at once when nudged.

The skill rater (:mod:`bot.table.rater`) and the 复盘 reviewer (:mod:`bot.table.reviewer`)
each keep up with finished hands this way; a look that fails is said and the next one tries
again, and a store that is down was said once by the store itself (``bot.store.health``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.store import StoreUnavailable
from bot.waits import woken

log = logging.getLogger(__name__)


class Looker:
    """Runs :meth:`look` every ``every`` seconds, or at once after :meth:`nudge`."""

    failure = "a background look failed"  # the log's line when a look raises

    def __init__(self, every: float) -> None:
        self.every = every
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def look(self) -> bool:
        """One look; True when more is waiting (the next look comes at once)."""
        raise NotImplementedError

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def nudge(self) -> None:
        """Look now."""
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                if await self.look():
                    continue
            except StoreUnavailable:  # said once by the store: the next look
                pass
            except Exception:  # a fault of its own: said, and the next look tries again
                log.exception(self.failure)
            await woken(self._wake, self.every)
            self._wake.clear()
