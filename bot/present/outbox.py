"""Per-chat outgoing queue: coalesced, paced, and safe against 429s.

Each chat has one :class:`Outbox`. Work is queued under a key with its
:class:`~bot.present.pacing.Rank`: in a private chat, what goes first (``first``, the
default) and what may lag (see :mod:`bot.present.pacing`), the worker taking the oldest job
that goes first, and a lagging one only when none waits; in a group, the job whose lag is
over first among those the group may take now (:func:`~bot.present.pacing.pick`), each
leaving its rank's reserve of the group's bucket (``wait``,
:func:`~bot.present.pacing.group_wait`), each key's calls at least its rank's ``spacing``
apart. Queuing a key that is already waiting replaces its job in place (a lagging key queued
to go first moves to the end of the first ones), so a burst of changes costs one API call
made from the latest state (jobs read the state when they run, not when they are queued).
The worker runs one job at a time and waits ``interval`` seconds per message-or-edit a job
reports. Given ``sent_at`` (when the chat's
latest call went out, :class:`~bot.present.courier.Courier`), the wait counts from about
when Telegram took it, halfway to its answer: a private chat's one call a second is not
stretched by a whole round trip. A job put as ``spare`` (a seat's new buttons: play waits for
them) need not wait its turn when the chat has a ``burst`` to spend: the chat counts its calls
as a bucket of ``1 + burst`` refilled one per ``interval``, where the others only take the
chat's steady pace and leave the rest for these; so new buttons never wait behind the edit
just made of an older state. A job that hits ``RetryAfter`` goes
back to the front of the queue and the worker sleeps as told: nothing is lost, since the moves
are already in the database and the job re-sends the latest state. A job refused with
``ChatMigrated`` (the group became a supergroup) is tried once more after ``on_migrated``
has moved the chat: the job reads the chat id when it runs.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from bot.present.errors import retry_seconds
from bot.present.pacing import FIRST, LATER, Rank, Waiting, pick
from bot.store import StoreUnavailable
from bot.waits import woken

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[int]]  # returns how many messages or edits it made
# seconds until the chat may take its next call: (now, times of its calls, the call's rank,
# when its lag is over)
Wait = Callable[[float, Sequence[float], Rank, float], float]
SENT_KEPT = 64  # call times kept for a Wait (more than any chat's budget)
SPACED_KEPT = 256  # keys whose last call is kept for their spacing, before the old go
OnMigrated = Callable[[int], Awaitable[None]]  # told the chat's new id
Refused = Callable[[], None]  # told that the chat refused a job's call (403)
SentAt = Callable[[], float | None]  # loop time the chat's latest call went out, if known
NETWORK_RETRIES = 3  # a job failing with network errors is tried again after 1, 2, 4 s
NETWORK_BACKOFF = 1.0


@dataclass
class _Queued:
    """A job waiting under its key: the newest asked, with the most pressing rank and the
    earliest due of the asks it merged."""

    job: Job
    rank: Rank
    due: float
    order: int
    spare: bool


class Outbox:
    def __init__(self, interval: float, max_notes: int = 3,
                 on_migrated: OnMigrated | None = None, wait: Wait | None = None,
                 on_refused: Refused | None = None, sent_at: SentAt | None = None,
                 burst: int = 0) -> None:
        self.interval = interval
        self.burst = burst if interval > 0 else 0
        self.sent_at = sent_at
        self.on_migrated = on_migrated
        self.on_refused = on_refused  # a private chat that does not take the bot's messages
        self.wait = wait  # a group's budget (bot.present.pacing.group_wait), if any
        self.max_notes = max_notes  # one-off messages (key ("note", …)) that may wait at once
        self._queue: dict[Hashable, _Queued] = {}
        self._orders = itertools.count()
        self._sent: deque[float] = deque(maxlen=SENT_KEPT)
        self._spaced: dict[Hashable, float] = {}  # a spaced key -> when its last call went
        self._last = float("-inf")
        self._woken = asyncio.Event()
        self._next_at = 0.0  # the chat's steady pace: its next call
        self._retry_at = 0.0  # none before this (a 429's wait, a network error's backoff)
        self._tokens = float(1 + self.burst)  # the chat's bucket, as of _tokens_at
        self._tokens_at = float("-inf")
        self._task: asyncio.Task[None] | None = None
        self._network_failures: dict[Hashable, int] = {}
        self._after_move: Job | None = None  # the job being tried again after a migration
        self._closed = False  # stopped: nothing more is queued

    def put(self, key: Hashable, job: Job, first: bool = True, spare: bool = False,
            rank: Rank | None = None) -> bool:
        """Queue ``job`` under ``key`` with ``rank`` (in a private chat, from ``first``:
        ahead of what may lag; ``spare``: it may spend the chat's burst); False when a
        one-off note is dropped (queue full) or the outbox is stopped."""
        if self._closed:
            return False
        if key not in self._queue and _is_note(key) \
                and sum(map(_is_note, self._queue)) >= self.max_notes:
            return False
        if rank is None:
            rank = FIRST if first else LATER
        now = asyncio.get_running_loop().time()
        queued = self._queue.get(key)
        if queued is None:
            self._queue[key] = _Queued(job, rank, now + rank.lag, next(self._orders), spare)
        else:
            queued.job, queued.rank = job, queued.rank.merge(rank)
            queued.due = min(queued.due, now + rank.lag)
            queued.spare = queued.spare or spare
        self._woken.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._work())
        return True

    @property
    def busy(self) -> bool:
        return self._task is not None

    async def drain(self) -> None:
        while self._task is not None:
            await asyncio.shield(self._task)

    def close(self) -> None:
        """Queue nothing more, and cancel the job under way and the rest."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        """:meth:`close`, then wait until the worker has ended."""
        task = self._task
        self.close()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._queue:
                now = loop.time()
                key, wait = pick([Waiting(k, q.due, q.order, self._ready_at(k, q, now))
                                  for k, q in self._queue.items()], now,
                                 strict=self.wait is None)
                if key is None:  # a job queued meanwhile wakes the worker
                    self._woken.clear()
                    await woken(self._woken, wait)
                    continue
                queued = self._queue.pop(key)
                job = queued.job
                started = loop.time()
                try:
                    made = await job()
                except RetryAfter as e:
                    seconds = retry_seconds(e)
                    log.warning("429 from Telegram for %r: sent again in %g s", key, seconds)
                    self._retry(key, queued, loop.time() + seconds)
                    continue
                except ChatMigrated as e:
                    if await self._migrate(job, e.new_chat_id):
                        self._retry(key, queued, loop.time())
                        continue
                    log.error("outgoing job %r dropped: its chat moved to %s", key,
                              e.new_chat_id)
                    made = 0
                except BadRequest as e:  # (a NetworkError in PTB) retrying would not help
                    log.warning("outgoing job %r failed: %s", key, e)
                    made = 1
                except NetworkError as e:  # timeouts, connection trouble: a few more tries
                    tries = self._network_failures.get(key, 0) + 1
                    if tries <= NETWORK_RETRIES:
                        log.warning("outgoing job %r: %s; try %d again", key, e, tries)
                        self._network_failures[key] = tries
                        self._retry(key, queued,
                                    loop.time() + NETWORK_BACKOFF * 2 ** (tries - 1))
                        continue
                    log.error("outgoing job %r dropped after %d network errors", key, tries)
                    self._network_failures.pop(key, None)
                    made = 1
                except Forbidden as e:  # 403: the user blocked the bot, or never opened it
                    log.warning("outgoing job %r refused: %s", key, e)
                    if self.on_refused is not None:
                        self.on_refused()
                    made = 1  # it reached Telegram: count it
                except TelegramError as e:
                    log.warning("outgoing job %r failed: %s", key, e)
                    made = 1  # it may have reached Telegram: count it
                except StoreUnavailable as e:  # said once by the store (bot.store.health)
                    log.info("outgoing job %r: %s", key, e)
                    made = 1
                except Exception:
                    log.exception("outgoing job %r failed", key)
                    made = 1
                else:
                    self._network_failures.pop(key, None)
                if made:
                    self._last = loop.time()  # once Telegram has it: the budget's safe side
                    self._took(self._paced_from(started), made)
                    self._sent.extend([self._last] * made)
                    if queued.rank.spacing > 0:
                        self._space(key, queued.rank.spacing)
        finally:
            self._task = None

    def _ready_at(self, key: Hashable, queued: _Queued, now: float) -> float:
        """When the chat may take the call of the job queued under ``key``: at its steady
        pace, or, for a spare job, as soon as its bucket holds a call; in a group, once its
        bucket holds it too (and its rank's reserve), and its key's spacing is over."""
        if queued.spare and self.burst:
            at = max(self._retry_at, self._tokens_at + (1 - self._tokens) * self.interval)
        else:
            at = self._next_at
        if self.wait is not None:
            at = max(at, now + self.wait(now, self._sent, queued.rank, queued.due))
        if queued.rank.spacing > 0 and key in self._spaced:
            at = max(at, self._spaced[key] + queued.rank.spacing)
        return at

    def _space(self, key: Hashable, spacing: float) -> None:
        """Note the key's call for its spacing; keys spaced long ago are forgotten."""
        self._spaced.pop(key, None)
        self._spaced[key] = self._last
        if len(self._spaced) > SPACED_KEPT:
            old = self._last - spacing
            for stale in [k for k, at in self._spaced.items() if at < old]:
                del self._spaced[stale]

    def _took(self, at: float, made: int) -> None:
        """The chat took ``made`` calls, the last about ``at``: its pace and its bucket."""
        self._next_at = at + self.interval * made
        if self.burst:
            full = 1 + self.burst
            self._tokens = min(full, self._tokens + (at - self._tokens_at) / self.interval) \
                - made
            self._tokens_at = at

    def _paced_from(self, started: float) -> float:
        """About when Telegram took the job's last call: halfway between its going out (if
        the chat says, and it went out during the job) and the job's end, the answer."""
        went = self.sent_at() if self.sent_at is not None else None
        return (went + self._last) / 2 if went is not None and started <= went <= self._last \
            else self._last

    async def _migrate(self, job: Job, new_chat_id: int) -> bool:
        """Move the chat for a job refused with ``ChatMigrated``; True if it is to be tried
        again (once: refused again, it does not follow the move)."""
        if self.on_migrated is None or job is self._after_move:
            self._after_move = None
            return False
        self._after_move = job
        try:
            await self.on_migrated(new_chat_id)
        except Exception:
            log.exception("could not move the chat to %s", new_chat_id)
            return False
        return True

    def _retry(self, key: Hashable, queued: _Queued, at: float) -> None:
        """Back to the front of its class (a newer job for the key, if queued, wins)."""
        newer = self._queue.get(key)
        if newer is not None:
            newer.rank = newer.rank.merge(queued.rank)
            newer.due, newer.order = min(newer.due, queued.due), min(newer.order, queued.order)
            newer.spare = newer.spare or queued.spare
        else:
            self._queue[key] = queued
        self._next_at = self._retry_at = at
        self._tokens, self._tokens_at = 0.0, at  # the chat is full as far as it knows


def _is_note(key: Hashable) -> bool:
    return isinstance(key, tuple) and bool(key) and key[0] == "note"
