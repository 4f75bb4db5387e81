"""A settled hand's running totals and birds for the pages (:class:`bot.present.screens.seat.Settled`):
read from the store once per hand, off the push that first needs them, which then goes out
without them; the pages are told again once they are read."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable

from bot.present.screens.seat import Settled
from bot.table import HandRecord, Table, TableService

log = logging.getLogger(__name__)


class SettledFacts:
    def __init__(self, service: TableService, told: Callable[[Table], None]) -> None:
        self._service, self._told = service, told
        self._known: weakref.WeakKeyDictionary[HandRecord, Settled] = \
            weakref.WeakKeyDictionary()
        self._reading: weakref.WeakSet[HandRecord] = weakref.WeakSet()
        self._tasks: set[asyncio.Task[None]] = set()

    def of(self, table: Table, record: HandRecord) -> Settled | None:
        """The hand's totals if read; else None, and they are read (once) for next time."""
        if record.hand.outcome is None:
            return None
        known = self._known.get(record)
        if known is None and record not in self._reading:
            self._reading.add(record)
            task = asyncio.get_running_loop().create_task(self._read(table, record))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return known

    async def _read(self, table: Table, record: HandRecord) -> None:
        store = self._service.store
        try:
            totals = await store.table_totals(table.id)
            birds = await store.hand_birds(record.id)
        except Exception as e:  # the store is down: the sheet shows the hand's points alone
            log.warning("settlement totals for the pages not read: %s", e)
            self._reading.discard(record)
            return
        self._known[record] = Settled(totals, tuple(birds))
        self._told(table)
