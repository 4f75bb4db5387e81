"""The bot-wide pace of messages-or-edits, with the ones play waits for first.

Telegram lets a bot send about 30 messages a second in all. At that ceiling, what to send
first matters: the buttons a table waits for (a seat's new decision, a settlement's 再来一局, a
new lobby) go before catch-up edits, group pictures and pings, which coalesce meanwhile in
their chat's :class:`~bot.present.outbox.Outbox` (each job reads the state when it runs, so waiting
longer costs nothing but freshness). A job takes its slot *before* it renders, so no picture waits in
memory for its turn; PTB's ``AIORateLimiter`` stays underneath as the hard guarantee.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Hashable

# Slots an idle gate may grant at once (plus one): at 25 a second, 3 + 1 + 25 stays under
# Telegram's 30 in any sliding second (5 let 31 through once play was concurrent)
BURST = 3


class Gate:
    def __init__(self, interval: float, burst: int = BURST) -> None:
        self.step = interval  # seconds between two slots
        self.burst = burst
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._normal: deque[asyncio.Future[None]] = deque()
        self._keyed: dict[Hashable, asyncio.Future[None]] = {}  # normal waiters by key
        self._next_at = 0.0
        self._pump: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        return len(self._urgent) + len(self._normal)

    async def slot(self, urgent: bool = False, key: Hashable | None = None) -> None:
        """Wait for a slot: urgent waiters are served first, each class in arrival order.
        A normal waiter with a ``key`` (its chat) may be made urgent by :meth:`promote`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        (self._urgent if urgent else self._normal).append(future)
        if key is not None and not urgent:
            self._keyed[key] = future
        if self._pump is None:
            self._pump = loop.create_task(self._run())
        try:
            await future
        finally:
            if key is not None and self._keyed.get(key) is future:
                del self._keyed[key]

    def promote(self, key: Hashable) -> None:
        """The normal waiter of ``key``, if any, joins the urgent ones: its chat's one running
        job waits here, and what it is to send (it reads the state once let through) has
        become urgent; else a catch-up edit would hold new buttons back behind it."""
        future = self._keyed.pop(key, None)
        if future is not None and not future.done():
            self._normal.remove(future)
            self._urgent.append(future)

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
