"""The 复盘 figures behind a season's 技术分, computed in the background: for every human seat
of this bot's finished hands, its decisions and the points they lost against the strong
player (``engine.review``: the loss of a decision is measured in played-out deals, so a bad
run of cards costs nothing — only choices do).

A seat's review costs up to about a second of CPU (``bench/bench_review.py``), too much for
the bot's process, whose event loop serves every table: it runs in a process of its own at a
lower priority (``os.nice``), one seat at a time, newest hands first, and the figures are
stored with the hand (``seat_reviews``). Play never waits for it; the season board counts the
seats reviewed so far (it says how many). Hands finished before the bot started are reviewed
too, the last :data:`BACKLOG` of them. ``REVIEW_SEATS=0`` turns it off.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.store import PlayedHand, Store
from bot.table.looks import Looker
from bot.workers import quiet, submit
from engine.review import review_hand

log = logging.getLogger(__name__)

REVIEW_EVERY = 10.0  # seconds between two looks when there was nothing to review
BACKLOG = 500  # hands finished before the bot started that are reviewed too
BATCH = 16  # seats read in one look
NICE = 10  # the reviewing process's priority below the bot's
PARENT_CHECK = 0.5  # seconds between two looks of the reviewing process at the bot's


def seat_figures(record: dict[str, Any], seat: int) -> tuple[int, float]:
    """(decisions, points lost) of one seat's 复盘 (runs in the reviewing process)."""
    mine = review_hand(record, seat=seat).seat(seat)
    return len(mine.decisions), sum(d.loss for d in mine.decisions)


def record_of(played: PlayedHand) -> dict[str, Any]:
    """The hand's record as ``engine.review`` reads it."""
    return {"rules": played.rule_set, "seed": played.seed, "dealer": played.dealer,
            "base": played.base, "log": [list(entry) for entry in played.log]}


def _worker_start(bot_pid: int) -> None:
    """In the reviewing process: a lower priority, and an end as soon as the bot's process is
    gone (killed, say), which a worker waiting for its next seat would not notice. Stop
    signals are the bot's alone (:mod:`bot.workers`)."""
    quiet()
    with contextlib.suppress(OSError):
        os.nice(NICE)

    def watch() -> None:
        while os.getppid() == bot_pid:
            time.sleep(PARENT_CHECK)
        os._exit(0)
    threading.Thread(target=watch, name="leave-with-bot", daemon=True).start()


class Reviewer(Looker):
    failure = "no seat review figures could be computed now"

    def __init__(self, store: Store, bot_id: int, every: float = REVIEW_EVERY) -> None:
        super().__init__(every)
        self.store = store
        self.bot_id = bot_id
        self._since: int | None = None
        self._pool: Executor | None = None

    async def look(self) -> bool:
        """One look (when nudged: a hand was finished); True while more seats may wait."""
        return await self.catch_up() > 0

    async def stop(self) -> None:
        await super().stop()
        if self._pool is not None:
            # a seat under way is dropped, not waited for (up to seconds of CPU at a low
            # priority, which the bot's exit would wait out): its figures are the next run's.
            # (Python 3.14's ProcessPoolExecutor.terminate_workers does this.)
            workers = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.kill()
            self._pool = None

    async def catch_up(self, limit: int = BATCH) -> int:
        """Review up to ``limit`` seats not reviewed yet; how many were."""
        if self._since is None:
            self._since = max(0, await self.store.last_hand_id() - BACKLOG)
        done = 0
        for hand_id, seat, user_id in await self.store.unreviewed_seats(self.bot_id,
                                                                         self._since, limit):
            found = await self.store.played_hand(hand_id)
            if found is None:
                continue
            try:
                decisions, loss = await self._compute(record_of(found[1]), seat)
            except BrokenProcessPool:
                raise
            except Exception:  # a record it cannot review: said once, and stored as none
                log.exception("hand %d seat %d could not be reviewed", hand_id, seat)
                decisions, loss = 0, 0.0
            await self.store.add_seat_review(hand_id, seat, user_id, decisions, loss)
            done += 1
        return done

    async def _compute(self, record: dict[str, Any], seat: int) -> tuple[int, float]:
        if self._pool is None:
            # spawned, not forked: a fork would copy the bot's threads' locks mid-use
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_worker_start,
                                             initargs=(os.getpid(),))
        try:
            return await submit(self._pool, seat_figures, record, seat)
        except BrokenProcessPool:
            log.warning("the reviewing process died: a new one takes the next seat")
            self._pool = None
            raise
