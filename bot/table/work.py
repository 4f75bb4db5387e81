"""The unit of work: every change of a table goes through :meth:`Tables.change`.

``async with tables.change(table_id) as (table, tx):`` takes the table's lock and gives the
change a transaction, begun by its first write. The block checks (raising a
:class:`Refusal` before it changes anything), writes through ``tx`` and mirrors each write on
``table``. When the block ends, the transaction commits; then, outside the lock, the observer
is told what became of the table (``unseated``, ``settled``, ``match_over``, and ``changed``
or ``closed``) — which re-arms the table's clock (:mod:`bot.table.clock`). Nothing runs
between the commit and the telling, so whatever the caller does with the table afterwards
(answer a press, raise a refusal saying who took the card) cannot keep a committed change
from being shown and timed.

A block that raises rolls back. A refusal before any write leaves the table as it was; any
other end of a block that wrote (or a failed commit) reloads the table from the store, so
memory is what the store holds, and tells the observer (every seat sees its decision again,
with live buttons); a failure that is not a refusal is answered ``store_failed``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from types import TracebackType
from typing import cast

from bot.store import Store, Tx
from bot.table import play
from bot.table.model import Observer, Refusal, Table, TableStatus
from bot.table.registry import Registry

log = logging.getLogger(__name__)


class _LazyTx:
    """A transaction begun by its first call (a refused or idle change opens none), standing
    in for the store's ``Tx``."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._stack = contextlib.AsyncExitStack()
        self._tx: Tx | None = None

    @property
    def begun(self) -> bool:
        return self._tx is not None

    def __getattr__(self, name: str) -> Callable[..., Awaitable[object]]:
        async def call(*args: object, **kwargs: object) -> object:
            if self._tx is None:
                self._tx = await self._stack.enter_async_context(self._store.transaction())
            return await getattr(self._tx, name)(*args, **kwargs)
        return call

    async def commit(self) -> None:
        await self._stack.aclose()

    async def rollback(self, error: BaseException) -> None:
        await self._stack.__aexit__(type(error), error, cast(TracebackType, error.__traceback__))


class Tables:
    """The registry's tables, changed one unit of work at a time."""

    def __init__(self, registry: Registry, store: Store, observer: Observer,
                 clock: Callable[[], float]) -> None:
        self.registry = registry
        self.store = store
        self.observer = observer
        self.clock = clock

    @contextlib.asynccontextmanager
    async def change(self, table_id: int) -> AsyncIterator[tuple[Table, Tx]]:
        """Change one table (``unknown_table`` if it is not open); see the module's doc."""
        table = self.registry.get(table_id)
        failure: Refusal | None = None
        async with table.lock:
            before = _news_mark(table)
            tx = _LazyTx(self.store)
            try:
                yield table, cast(Tx, tx)
            except Refusal as refusal:
                if not tx.begun:
                    raise
                await self._undo(tx, table, refusal)
                failure = refusal
            except Exception as error:
                log.exception("a change of table %s failed; reloading it", table.id)
                await self._undo(tx, table, error)
                failure = _store_failed(error)
            except BaseException as error:  # cancelled: the process is going down
                await tx.rollback(error)
                raise
            else:
                try:
                    await tx.commit()
                except Exception as error:
                    log.exception("could not commit a change of table %s", table.id)
                    await self._undo(None, table, error)
                    failure = _store_failed(error)
        self._tell(table, before)
        if failure is not None:
            raise failure

    async def add(self, create: Callable[[Tx], Awaitable[Table]]) -> Table:
        """A new table: ``create`` writes it in one transaction and returns it; once
        committed it is registered and the observer told."""
        async with self.store.transaction() as tx:
            table = await create(tx)
        self.registry.add(table)
        self._tell(table, (None, False))
        return table

    async def _undo(self, tx: _LazyTx | None, table: Table, error: BaseException) -> None:
        """Roll the change back (``tx`` None: its commit failed) and reload the table."""
        try:
            if tx is not None:
                await tx.rollback(error)
            await self.registry.reload(table)
        except Exception:  # the store is down: the next change tries again
            log.exception("could not reload table %s", table.id)

    def _tell(self, table: Table, before: tuple[int | None, bool]) -> None:
        """Tell the observer what became of the table, the change's news first: who was
        unseated, the hand it finished (not one that was over already), the match it ended;
        then the table itself. The last is told whatever the others raise."""
        try:
            if table.unseated_names:
                names, table.unseated_names = table.unseated_names, ()
                self.observer.unseated(table, names)
            current = table.current
            if current is not None and current.hand.is_terminal() \
                    and before != (current.id, True):
                self.observer.settled(table, current)
        finally:
            if table.status == TableStatus.CLOSED:
                self.registry.remove(table)
                play.refresh_decisions(table, self.clock())
                self.observer.closed(table)
                self._tell_match_over(table)
            else:
                self._tell_match_over(table)  # the 总结算 goes before a new lobby
                self.observer.changed(table)

    def _tell_match_over(self, table: Table) -> None:
        if table.ended_match is not None:
            match_id, table.ended_match = table.ended_match, None
            self.observer.match_over(table, match_id)


def _news_mark(table: Table) -> tuple[int | None, bool]:
    """(the table's latest hand, whether it was over): a hand over after a change that was
    not before it was finished by the change."""
    current = table.current
    return (current.id, current.hand.is_terminal()) if current is not None else (None, False)


def _store_failed(error: Exception) -> Refusal:
    refusal = Refusal("store_failed")
    refusal.__cause__ = error
    return refusal
