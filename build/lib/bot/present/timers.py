"""Turn timers on the event loop: one per table; the deadlines themselves are
:mod:`bot.table.clock`'s.

After every change the table's timer is cancelled and set again for the earliest moment some
awaited seat is to be played for (its decision timed out, or it is in 托管 and the bot's short
pause is over), or, between hands, for the end of the wait for 再来一局. The database holds no
timer: on start every open table is simply re-armed (a wait for 再来一局 starts afresh).

The loop's own timers, not PTB's job queue: a job there is three objects in a reference cycle
(PTB's, APScheduler's and its trigger), made and dropped at every move, and adding one costs
APScheduler a sorted insert and a log line (bench/bench_load.py at 200 tables: 4 % of the
bot's loop, and garbage its full collections stop the loop for). When the bot stops,
:meth:`Timers.stop` sets no more and :meth:`Timers.idle` waits for the moves being played.
"""

from __future__ import annotations

import asyncio
import logging

from bot.store import StoreUnavailable
from bot.table import Refusal, Table, TableService
from bot.table.work import UNSTORED

log = logging.getLogger(__name__)


class Timers:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._armed: dict[int, asyncio.TimerHandle] = {}  # by table: not fired yet
        self._firing: set[asyncio.Task[None]] = set()
        self._stopped = False

    def disarm(self, table: Table) -> None:
        handle = self._armed.pop(table.id, None)
        if handle is not None:
            handle.cancel()

    def arm(self, table: Table) -> None:
        self.disarm(table)
        due = self.service.due_at(table)
        if due is None or self._stopped:
            return
        self._armed[table.id] = asyncio.get_running_loop().call_later(
            max(0.0, due - self.service.clock()), self._fire, table.id)

    def _fire(self, table_id: int) -> None:
        del self._armed[table_id]  # a timer set again cancels the one before: this is it
        task = asyncio.get_running_loop().create_task(self._play(table_id))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _play(self, table_id: int) -> None:
        try:
            await self.service.play_due(table_id)
        except Refusal as refusal:
            if refusal.code not in UNSTORED:  # not stored: armed again to try once more
                log.error("table %s: its due move was refused", table_id, exc_info=refusal)
        except StoreUnavailable:  # the store says that once (bot.store.health); armed again
            pass
        except Exception:
            log.exception("table %s: its due move failed", table_id)

    def stop(self) -> None:
        """The bot stops: no timer fires from now on."""
        self._stopped = True
        for handle in self._armed.values():
            handle.cancel()
        self._armed.clear()

    async def idle(self) -> None:
        """Wait for the moves being played by the timers."""
        while self._firing:
            await asyncio.gather(*self._firing, return_exceptions=True)
