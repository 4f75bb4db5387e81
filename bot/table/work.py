"""The unit of work: every change of a table goes through :meth:`Tables.change`.

``async with tables.change(table_id) as (table, tx):`` takes the table's lock and gives the
change a transaction, begun by its first write. The block checks (raising a
:class:`Refusal` before it changes anything), writes through ``tx`` and mirrors each write on
``table``. When the block ends, the transaction commits; then, outside the lock, the observer
is told what became of the table (``unseated``, ``settled``, ``match_over``, and ``changed``
or ``closed``, each whatever the others raise: :mod:`bot.table.observers`) — which re-arms
the table's clock (:mod:`bot.table.clock`). Nothing runs
between the commit and the telling, so whatever the caller does with the table afterwards
(answer a press, raise a refusal saying who took the card) cannot keep a committed change
from being shown and timed.

A block that raises rolls back. A refusal before any write leaves the table as it was; any
other end of a block that wrote (or a failed commit) puts the table back as it was before
the change (:mod:`bot.table.snapshot`, without the store), so memory and every screen hold
only what was stored, and tells the observer (every seat sees its decision again, with live
buttons). A store that could not take the change (down, restarting, a killed connection, a
full disk, a row locked past the lock timeout: :mod:`bot.store.health`) is answered
``store_unavailable``, any other failure ``store_failed``; either way the table is read from
the store again before its next change (a commit whose answer was lost may have been stored
after all), and the clock comes back in ``RETRY_DELAY`` seconds to try again
(:func:`bot.table.clock.due_at`), so a table heals by itself once the store is back.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from types import TracebackType
from typing import cast

from bot.store import Store, StoreBusy, StoreUnavailable, Tx
from bot.table import play
from bot.table.model import Observer, Refusal, Table, TableStatus
from bot.table.observers import isolated
from bot.table.registry import Registry
from bot.table.snapshot import Snapshot

log = logging.getLogger(__name__)

RETRY_DELAY = 1.0  # seconds before the clock tries again a change the store did not take
UNSTORED = frozenset({"store_unavailable", "store_failed"})  # refusals of unstored changes


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
        self._blocked: set[int] = set()  # tables whose change waits for another's lock

    @contextlib.asynccontextmanager
    async def change(self, table_id: int) -> AsyncIterator[tuple[Table, Tx]]:
        """Change one table (``unknown_table`` if it is not open); see the module's doc."""
        table = self.registry.get(table_id)
        async with table.lock:
            before = _news_mark(table)
            failure = await self._resync(table) if table.unsynced else None
            if failure is None:
                saved = Snapshot(table)
                tx = _LazyTx(self.store)
                try:
                    yield table, cast(Tx, tx)
                    await tx.commit()
                except Refusal as refusal:
                    if not tx.begun:
                        raise
                    failure = await self._undo(tx, table, saved, refusal)
                except StoreUnavailable as error:
                    failure = await self._undo(tx, table, saved, error)
                except Exception as error:
                    log.exception("a change of table %s failed; reloading it", table.id)
                    failure = await self._undo(tx, table, saved, error)
                except BaseException as error:  # cancelled: the process is going down
                    await tx.rollback(error)
                    saved.restore(table)
                    raise
                else:
                    if tx.begun:
                        self._stored(table)
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

    async def move_chat(self, old: int, new: int) -> list[Table]:
        """The group ``old`` became the supergroup ``new`` (:meth:`Registry.move_chat
        <bot.table.registry.Registry.move_chat>`, a change of the group under the locks of
        its tables); once it is committed, each table moved is told as after any change."""
        moved = await self.registry.move_chat(old, new)
        for table in moved:
            self._tell(table, _news_mark(table))
        return moved

    async def _undo(self, tx: _LazyTx, table: Table, saved: Snapshot,
                    error: Exception) -> Refusal:
        """Roll the change back and put the table back as it was; what to answer."""
        with contextlib.suppress(StoreUnavailable):  # a lost connection has nothing to undo
            await tx.rollback(error)
        saved.restore(table)
        if isinstance(error, StoreUnavailable):
            self._hold(table, error)
            return _refusal("store_unavailable", error)
        try:  # a bug or a broken constraint: memory may be what the store holds no longer
            await self.registry.reload(table)
        except StoreUnavailable as reload_error:
            self._hold(table, reload_error)
        except Exception:
            log.exception("could not reload table %s", table.id)
            self._hold(table, None)
        return error if isinstance(error, Refusal) else _refusal("store_failed", error)

    def _hold(self, table: Table, error: StoreUnavailable | None) -> None:
        """The change was not stored (or its commit's answer was lost): memory is read
        again before the table's next change, which the clock tries in ``RETRY_DELAY``. A
        table blocked by a lock another session holds says so once."""
        table.unsynced = True
        table.retry_at = self.clock() + RETRY_DELAY
        if isinstance(error, StoreBusy) and table.id not in self._blocked:
            self._blocked.add(table.id)
            log.warning("table %s waits for a lock another session holds (%s); tried again"
                        " every %g s", table.id, error, RETRY_DELAY)

    def _stored(self, table: Table) -> None:
        table.retry_at = None
        if table.id in self._blocked:
            self._blocked.discard(table.id)
            log.info("table %s is no longer blocked", table.id)

    async def _resync(self, table: Table) -> Refusal | None:
        """Read an unsynced table from the store before it changes again; the refusal to
        answer with when the store cannot be read (the clock tries again)."""
        try:
            await self.registry.reload(table)
        except Exception as error:
            if not isinstance(error, StoreUnavailable):
                log.exception("could not reload table %s", table.id)
            table.retry_at = self.clock() + RETRY_DELAY
            key = "store_unavailable" if isinstance(error, StoreUnavailable) else "store_failed"
            return _refusal(key, error)
        table.unsynced, table.retry_at = False, None
        return Refusal("unknown_table") if table.status == TableStatus.CLOSED else None

    def _tell(self, table: Table, before: tuple[int | None, bool]) -> None:
        """Tell the observer what became of the table, the change's news first: who was
        unseated, the hand it finished (not one that was over already), the match it ended;
        then the table itself. Each is told whatever the others raise (logged:
        :func:`bot.table.observers.isolated`)."""
        if table.unseated_names:
            names, table.unseated_names = table.unseated_names, ()
            with isolated("unseated", table.id):
                self.observer.unseated(table, names)
        current = table.current
        if current is not None and current.hand.is_terminal() and before != (current.id, True):
            with isolated("settled", table.id):
                self.observer.settled(table, current)
        if table.status == TableStatus.CLOSED:
            self.registry.remove(table)
            play.refresh_decisions(table, self.clock())
            with isolated("closed", table.id):
                self.observer.closed(table)
            self._tell_match_over(table)
        else:
            self._tell_match_over(table)  # the 总结算 goes before a new lobby
            with isolated("changed", table.id):
                self.observer.changed(table)

    def _tell_match_over(self, table: Table) -> None:
        if table.ended_match is not None:
            match_id, table.ended_match = table.ended_match, None
            with isolated("match_over", table.id):
                self.observer.match_over(table, match_id)


def _news_mark(table: Table) -> tuple[int | None, bool]:
    """(the table's latest hand, whether it was over): a hand over after a change that was
    not before it was finished by the change."""
    current = table.current
    return (current.id, current.hand.is_terminal()) if current is not None else (None, False)


def _refusal(key: str, error: Exception) -> Refusal:
    refusal = Refusal(key)
    refusal.__cause__ = error
    return refusal
