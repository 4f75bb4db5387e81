"""What keeps the live page's server up: a per-user rate limit of its requests (a token
bucket, ``burst`` at once, then ``rate`` a second), so that one user cannot load the bot's
event loop; a cap on the WebSockets still to sign in, per address and in all, so that
strangers cannot hold the process's open files; and their noise counted, not logged line by
line."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class RateLimit:
    def __init__(self, rate: float = 10.0, burst: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[int, tuple[float, float]] = {}  # user: (tokens, as of)

    def allow(self, user_id: int) -> bool:
        now = self.clock()
        tokens, since = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - since) * self.rate)
        if tokens < 1:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget the full ones: they are the default
            self._buckets = {u: b for u, b in self._buckets.items() if b[0] < self.burst - 1}
        return True


class Noise:
    """Strangers' noise (refused sockets, malformed requests, a full file table) counted and
    logged as one WARNING a kind at most every ``every`` seconds, with the count since the
    last, instead of a line (or a traceback) each."""

    def __init__(self, log: logging.Logger, every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.every, self.clock = log, every, clock
        self.counts: dict[str, int] = {}  # kind: since the process started
        self._unsaid: dict[str, int] = {}  # kind: since its last WARNING
        self._said: dict[str, float] = {}  # kind: when its last WARNING was logged

    def count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self._unsaid[kind] = self._unsaid.get(kind, 0) + 1
        now = self.clock()
        if now - self._said.get(kind, -self.every) >= self.every:
            self.log.warning("live seat: %s (%d since the last report, %d in all)",
                             kind, self._unsaid.pop(kind), self.counts[kind])
            self._said[kind] = now


class SignIns:
    """The WebSockets that have not signed in yet (sent their init data): at most
    ``per_address`` from one address and ``total`` in all; :meth:`admit` refuses the others."""

    def __init__(self, per_address: int = 16, total: int = 256) -> None:
        self.per_address, self.total = per_address, total
        self._by_address: dict[str, int] = {}
        self._open = 0

    def admit(self, address: str) -> bool:
        held = self._by_address.get(address, 0)
        if held >= self.per_address or self._open >= self.total:
            return False
        self._by_address[address] = held + 1
        self._open += 1
        return True

    def done(self, address: str) -> None:
        held = self._by_address.pop(address, 0) - 1
        if held > 0:
            self._by_address[address] = held
        self._open -= 1

    def __len__(self) -> int:
        return self._open
