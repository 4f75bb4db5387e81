"""The bot-wide pace of messages-or-edits, with the ones play waits for first.

Telegram lets a bot send about 30 messages a second in all. At that ceiling, what to send
first matters: a seat's new decision (the game waits for that player's buttons) goes before
catch-up edits, group pictures and pings, which coalesce meanwhile in their chat's
:class:`~bot.outbox.Outbox` (each job reads the state when it runs, so waiting longer costs
nothing but freshness). A job takes its slot *before* it renders, so no picture waits in
memory for its turn; PTB's ``AIORateLimiter`` stays underneath as the hard guarantee.
"""

from __future__ import annotations

import asyncio
from collections import deque

BURST = 5  # slots an idle gate may grant at once


class Gate:
    def __init__(self, interval: float, burst: int = BURST) -> None:
        self.step = interval  # seconds between two slots
        self.burst = burst
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._normal: deque[asyncio.Future[None]] = deque()
        self._next_at = 0.0
        self._pump: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        return len(self._urgent) + len(self._normal)

    async def slot(self, urgent: bool = False) -> None:
        """Wait for a slot: urgent waiters are served first, each class in arrival order."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        (self._urgent if urgent else self._normal).append(future)
        if self._pump is None:
            self._pump = loop.create_task(self._run())
        await future

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._urgent or self._normal:
                now = loop.time()
                self._next_at = max(self._next_at, now - self.burst * self.step)
                if self._next_at > now:
                    await asyncio.sleep(self._next_at - now)
                future = (self._urgent or self._normal).popleft()
                if future.done():  # its job was cancelled while waiting
                    continue
                future.set_result(None)
                self._next_at += self.step
        finally:
            self._pump = None

    def cancel(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
