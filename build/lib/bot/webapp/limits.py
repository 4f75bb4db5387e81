"""Per-user rate limit of the live page's requests: a token bucket (``burst`` at once, then
``rate`` a second), so that one user cannot load the bot's event loop."""

from __future__ import annotations

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
