"""The PostgreSQL store: an asyncpg pool, shared by several bot processes.

Reads take any connection of the pool; each transaction runs on a connection of its own,
beside the others of this process and of other processes: the callers serialise the changes
of one table themselves (:mod:`bot.table.work`), and the rows and advisory locks keep the
rest apart. A transaction waits ``LOCK_TIMEOUT`` for a lock and ``STATEMENT_TIMEOUT`` for a
statement, so that a row another session holds delays only the change that needs it
(:class:`bot.store.health.StoreBusy`); a server that is down, restarting or killed the
connection raises :class:`bot.store.health.StoreUnavailable`, and the pool connects afresh
on the next call. The schema version is the one row of
``schema_version``; migrations run under an advisory lock, so that two processes starting
at once migrate once. :meth:`PostgresStore.claim` holds a bot's token for this process
(:mod:`bot.store.guard`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.club import ClubQueries
from bot.store.conn import Row
from bot.store.guard import Guard
from bot.store.health import Health, StoreBusy, StoreUnavailable
from bot.store.schema import migrations
from bot.store.writes import Writes

# Advisory lock keys: (MIGRATION_LOCK, 0) while migrating (the two-key space); in the one-key
# space, which never meets the two-key one, a bot's id while a process serves that bot, a
# user's id while a transaction seats him, a group's id while one numbers its next hand.
# These never meet either: bots' accounts never sit at a table, and groups' ids are negative.
MIGRATION_LOCK = 0x50485A  # "PHZ"

_PARAM = re.compile(r"\?")

LOCK_TIMEOUT = "2s"  # a transaction's wait for a row or advisory lock
STATEMENT_TIMEOUT = "10s"  # a transaction's statement
CONNECT_TIMEOUT = 5.0  # seconds to open a connection of the pool
COMMAND_TIMEOUT = 30.0  # seconds the client waits for any answer (a vanished server)
_TIMEOUTS = (f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}';"
             f" SET LOCAL statement_timeout = '{STATEMENT_TIMEOUT}'")


def unavailable(error: BaseException) -> type[StoreUnavailable] | None:
    """:data:`bot.store.health.Classify` for asyncpg's errors."""
    if isinstance(error, (asyncpg.LockNotAvailableError, asyncpg.QueryCanceledError,
                          asyncpg.TransactionRollbackError)):  # timeouts, deadlocks
        return StoreBusy
    if isinstance(error, (OSError, TimeoutError, asyncpg.PostgresConnectionError,
                          asyncpg.OperatorInterventionError, asyncpg.InsufficientResourcesError,
                          asyncpg.ReadOnlySQLTransactionError)):  # down, killed, a standby
        return StoreUnavailable
    if isinstance(error, asyncpg.InterfaceError) and "closed" in str(error):
        return StoreUnavailable
    if type(error) is asyncpg.InternalClientError and "another operation" in str(error):
        # a killed connection whose server's last word (its FATAL error, read while no call
        # waited) has come but not yet its end: the driver's protocol stays busy with that
        # error, and a call in between finds it so (tests/bot/store/test_store_killed_postgres.py)
        return StoreUnavailable
    return None


@cache
def dollar_params(sql: str) -> str:
    """``?`` parameters as PostgreSQL's ``$1, $2, …`` (the store's SQL has no ``?`` in a
    literal)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PARAM.sub(number, sql)


class PostgresConn:
    """:class:`bot.store.conn.Conn` over an asyncpg pool or connection."""

    def __init__(self, db: asyncpg.Pool | asyncpg.Connection | PoolConnectionProxy,
                 health: Health) -> None:
        self._db = db
        self._health = health

    async def one(self, sql: str, args: Sequence[object]) -> Row | None:
        with self._health.watch():
            return await self._db.fetchrow(dollar_params(sql), *args)

    async def all(self, sql: str, args: Sequence[object]) -> list[Row]:
        with self._health.watch():
            return list(await self._db.fetch(dollar_params(sql), *args))

    async def run(self, sql: str, args: Sequence[object]) -> int:
        with self._health.watch():
            status = await self._db.execute(dollar_params(sql), *args)
        count = status.rpartition(" ")[2]  # "UPDATE 3", "INSERT 0 1"
        return int(count) if count.isdigit() else 0

    async def insert(self, sql: str, args: Sequence[object]) -> int:
        with self._health.watch():
            return int(await self._db.fetchval(dollar_params(sql) + " RETURNING id", *args))


class PostgresWrites(Writes):
    """The writes, with the locks that keep several processes' transactions apart."""

    async def lock_user(self, user_id: int) -> None:
        await self._conn.one("SELECT pg_advisory_xact_lock(?)", (user_id,))

    async def lock_chat(self, chat_id: int) -> None:
        await self._conn.one("SELECT pg_advisory_xact_lock(?)", (chat_id,))

    async def lock_skill(self) -> None:
        await self._conn.one("SELECT pg_advisory_xact_lock(?, 1)", (MIGRATION_LOCK,))


async def migrate(db: asyncpg.Connection | PoolConnectionProxy) -> int:
    """Apply the missing migrations in one transaction; return the version."""
    steps = migrations("postgresql")
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1, 0)", MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        version = await db.fetchval("SELECT version FROM schema_version")
        if version is None:
            await db.execute("INSERT INTO schema_version VALUES (0)")
            version = 0
        if version > len(steps):
            raise RuntimeError(
                f"database schema {version} is newer than this program ({len(steps)})")
        for target in range(version + 1, len(steps) + 1):
            await db.execute(steps[target - 1])
        await db.execute("UPDATE schema_version SET version = $1", len(steps))
    return len(steps)


class PostgresStore(ClubQueries):
    """The store in one PostgreSQL database."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.health = Health(unavailable)
        super().__init__(PostgresConn(pool, self.health))
        self._pool = pool
        self._url = url
        self._claims: list[Guard] = []

    @classmethod
    async def open(cls, url: Path | str) -> PostgresStore:
        """Open the database at the ``postgresql://`` URL ``url`` (as :meth:`Store.open`
        takes a path or a URL), creating and migrating its tables as needed."""
        pool = await asyncpg.create_pool(str(url), min_size=0, max_size=8, timeout=CONNECT_TIMEOUT,
                                         command_timeout=COMMAND_TIMEOUT)
        try:
            async with pool.acquire() as db:
                await migrate(db)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, str(url))

    async def close(self) -> None:
        for guard in self._claims:
            await guard.release()
        self._claims.clear()
        await self._pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Writes]:
        with self.health.watch():
            db = await self._pool.acquire()
        try:
            tx = db.transaction()
            try:
                with self.health.watch():
                    await tx.start()
                    await db.execute(_TIMEOUTS)
                yield PostgresWrites(PostgresConn(db, self.health))
                with self.health.watch():
                    await tx.commit()
                self.health.back()
            except BaseException:
                try:
                    await tx.rollback()
                except Exception:  # lost, or in an unknown state: never back into the pool
                    # (a connection the server closed is already out of it: nothing to end)
                    with contextlib.suppress(asyncpg.InterfaceError):
                        db.terminate()
                raise
        finally:
            with contextlib.suppress(Exception):  # a broken connection is dropped, not kept
                await self._pool.release(db)

    async def schema_version(self) -> int:
        row = await self._one("SELECT version FROM schema_version")
        assert row is not None
        return int(row["version"])

    async def claim(self, bot_id: int, on_lost: Callable[[], None] = lambda: None) -> bool:
        """Serve ``bot_id`` from this process: False when another process already does.
        Held until :meth:`close` or until the process ends, however it ends, and through
        reconnections (:class:`bot.store.guard.Guard`); ``on_lost`` is called if another
        process took it while this one's connection was away."""
        guard = Guard(self._url, bot_id, on_lost)
        if not await guard.take():
            return False
        self._claims.append(guard)
        return True

    # --- whole tables (copy-store, benchmarks): names from the schema, never from users ---

    async def columns(self, table: str) -> list[str]:
        rows = await self._all("SELECT column_name FROM information_schema.columns"
                               " WHERE table_schema = current_schema() AND table_name = ?"
                               " ORDER BY ordinal_position", table)
        return [r["column_name"] for r in rows]

    async def count(self, table: str) -> int:
        row = await self._one(f"SELECT COUNT(*) FROM {table}")
        assert row is not None
        return int(row[0])

    async def dump(self, table: str, columns: Sequence[str],
                   batch: int = 10_000) -> AsyncIterator[list[tuple[object, ...]]]:
        """Every row of ``table`` (those ``columns``), ``batch`` rows at a time."""
        async with self._pool.acquire() as db, db.transaction():
            cursor = await db.cursor(f"SELECT {', '.join(columns)} FROM {table}")
            while rows := await cursor.fetch(batch):
                yield [tuple(r) for r in rows]

    async def load(self, table: str, columns: Sequence[str],
                   rows: Iterable[Sequence[object]]) -> None:
        """Insert rows as they are (ids included) with COPY, then move the table's id
        sequence past them."""
        async with self._pool.acquire() as db, db.transaction():
            await db.copy_records_to_table(table, records=rows, columns=list(columns))
            if "id" in columns:
                await db.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                                 f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)")
