"""Telegram's flood limits, simulated, and per-chat send/edit timestamps, always recorded.

Every successful message-or-edit (send*, editMessage*) is timestamped per chat with the injected
clock (``time.monotonic`` by default). Enforcement is optional: with ``RateLimits`` set, a call
over a limit is answered 429 "Too Many Requests: retry after N" with ``parameters.retry_after``
and is not delivered (not recorded either), as Telegram does.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from .errors import ApiError


@dataclass(frozen=True)
class RateLimits:
    """Limits from Telegram's bot FAQ. A private chat is a token bucket (``private_per_second``
    refill, ``private_burst`` capacity); a group allows ``group_per_minute`` in any sliding 60 s;
    all chats together allow ``global_per_second`` in any sliding second."""

    private_per_second: float = 1.0
    private_burst: int = 3
    group_per_minute: int = 20
    global_per_second: int = 30


@dataclass(frozen=True)
class Rejection:
    chat_id: int
    time: float
    retry_after: int


def max_in_window(times: list[float], window: float) -> int:
    """Most timestamps in any half-open window [t, t + window) of a sorted list."""
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] >= window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


class FloodControl:
    def __init__(self, clock: Callable[[], float], limits: RateLimits | None = None) -> None:
        self.clock = clock
        self.limits = limits
        self.times: dict[int, list[float]] = defaultdict(list)
        self.all_times: list[float] = []
        self.rejections: list[Rejection] = []
        self._buckets: dict[int, tuple[float, float]] = {}  # chat id -> (tokens, at)

    def admit(self, chat_id: int, private: bool) -> None:
        """Record one message-or-edit to ``chat_id`` now, or raise ApiError(429) if limited."""
        now = self.clock()
        if self.limits is not None:
            retry = self._retry_after(chat_id, private, now, self.limits)
            if retry:
                self.rejections.append(Rejection(chat_id, now, retry))
                raise ApiError(
                    429, f"Too Many Requests: retry after {retry}", {"retry_after": retry}
                )
        self.times[chat_id].append(now)
        self.all_times.append(now)

    def _retry_after(self, chat_id: int, private: bool, now: float, limits: RateLimits) -> int:
        waits = [0.0]
        recent = len(self.all_times) - bisect.bisect_right(self.all_times, now - 1.0)
        if recent >= limits.global_per_second:
            waits.append(self.all_times[-limits.global_per_second] + 1.0 - now)
        if private:
            tokens, at = self._buckets.get(chat_id, (float(limits.private_burst), now))
            tokens = min(float(limits.private_burst), tokens + (now - at) * limits.private_per_second)
            if tokens < 1.0:
                waits.append((1.0 - tokens) / limits.private_per_second)
            elif max(waits) == 0:
                tokens -= 1.0
            self._buckets[chat_id] = (tokens, now)
        else:
            times = self.times[chat_id]
            if len(times) - bisect.bisect_right(times, now - 60.0) >= limits.group_per_minute:
                waits.append(times[-limits.group_per_minute] + 60.0 - now)
        wait = max(waits)
        return max(1, math.ceil(wait)) if wait > 0 else 0

    def max_in_window(self, chat_id: int, window: float = 60.0) -> int:
        return max_in_window(self.times.get(chat_id, []), window)
