"""Turn timers on PTB's JobQueue: one job per table, named ``turn:{table_id}``; the
deadlines themselves are :mod:`bot.table.clock`'s.

After every change the job is removed by name and re-armed for the earliest moment some
awaited seat is to be played for (its decision timed out, or it is in 托管 and the bot's short
pause is over), or, between hands, for the end of the wait for 再来一局. The database holds no
timer: on start every open table is simply re-armed (a wait for 再来一局 starts afresh).

PTB shields a running job from the job queue's stop, so a move being played when the bot stops
outlives the stop: :meth:`Timers.idle` waits for it before the store is closed.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.ext import CallbackContext, Job, JobQueue

from bot.table import Refusal, Table, TableService
from bot.table.work import UNSTORED

log = logging.getLogger(__name__)


def job_name(table_id: int) -> str:
    return f"turn:{table_id}"


class Timers:
    def __init__(self, job_queue: JobQueue, service: TableService) -> None:
        self.job_queue = job_queue
        self.service = service
        self._firing: set[asyncio.Task[object]] = set()
        # each table's armed job, not run yet: found by its name, the queue looks through
        # every job (bench/bench_load.py: 2 % of the bot's time at 200 tables)
        self._armed: dict[int, Job] = {}  # type: ignore[type-arg]

    def disarm(self, table: Table) -> None:
        job = self._armed.pop(table.id, None)
        if job is not None:
            job.schedule_removal()

    def arm(self, table: Table) -> None:
        self.disarm(table)
        due = self.service.due_at(table)
        if due is None:
            return
        self._armed[table.id] = self.job_queue.run_once(
            self._fire, when=max(0.0, due - self.service.clock()), name=job_name(table.id),
            data=table.id)

    async def _fire(self, context: CallbackContext) -> None:  # type: ignore[type-arg]
        assert context.job is not None
        table_id = int(context.job.data)  # type: ignore[arg-type]
        if self._armed.get(table_id) is context.job:
            del self._armed[table_id]  # run: nothing to remove
        task = asyncio.current_task()
        assert task is not None
        self._firing.add(task)
        try:
            await self.service.play_due(table_id)
        except Refusal as refusal:
            if refusal.code not in UNSTORED:  # not stored: armed again to try once more
                raise
        finally:
            self._firing.discard(task)

    async def idle(self) -> None:
        """Wait for the moves being played by the timers (their errors are the error
        handler's, as ever)."""
        while self._firing:
            await asyncio.gather(*self._firing, return_exceptions=True)
