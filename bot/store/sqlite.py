"""The SQLite store: one aiosqlite connection (WAL, autocommit outside transactions).

One lock serialises the transactions because the single connection is shared by every
coroutine (and SQLite has one writer at a time anyway); reads run on it between them. A
file locked by another process is waited for ``BUSY_TIMEOUT_MS``; then, as on a full disk or
an I/O error, the call raises :class:`bot.store.health.StoreUnavailable`, and a transaction
whose COMMIT failed is rolled back if SQLite left it open, so that the connection takes the
next one. The schema version is SQLite's ``user_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.store.club import ClubQueries
from bot.store.conn import Row
from bot.store.health import Health, StoreUnavailable
from bot.store.schema import migrations
from bot.store.writes import Writes

BUSY_TIMEOUT_MS = 5000  # how long a call waits for a file another process holds locked
# SQLite's primary result codes that mean "not now" rather than "never": busy or locked by
# another connection, read-only, out of memory, I/O error, disk full, cannot open the file
_UNAVAILABLE = frozenset({5, 6, 7, 8, 10, 13, 14})


def unavailable(error: BaseException) -> type[StoreUnavailable] | None:
    """:data:`bot.store.health.Classify` for sqlite3's errors."""
    if isinstance(error, sqlite3.OperationalError) \
            and getattr(error, "sqlite_errorcode", 0) & 0xFF in _UNAVAILABLE:
        return StoreUnavailable
    return None


class SqliteConn:
    """:class:`bot.store.conn.Conn` over an aiosqlite connection.

    Each call is one hop to aiosqlite's thread and back: a transaction holds the store's one
    connection for all of its statements, and under load each hop waits for a turn of the
    busy event loop (bench/bench_load.py: a statement as execute, fetch and close, three
    hops, held every table's move behind the lock for up to seconds)."""

    def __init__(self, db: aiosqlite.Connection, health: Health) -> None:
        self._db = db
        self._health = health

    async def one(self, sql: str, args: Sequence[object]) -> Row | None:
        rows = await self.all(sql, args)
        return rows[0] if rows else None

    async def all(self, sql: str, args: Sequence[object]) -> list[Row]:
        with self._health.watch():
            return list(await self._db.execute_fetchall(sql, args))

    async def run(self, sql: str, args: Sequence[object]) -> int:
        with self._health.watch():
            # a write has run to its end: its cursor holds nothing and needs no closing hop
            return (await self._db.execute(sql, args)).rowcount

    async def insert(self, sql: str, args: Sequence[object]) -> int:
        with self._health.watch():
            row = await self._db.execute_insert(sql, args)
            assert row is not None
            return int(row[0])


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply the missing migrations, each in its own transaction; return the version."""
    steps = migrations("sqlite")
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    version = row[0] if row else 0
    if version > len(steps):
        raise RuntimeError(f"database schema {version} is newer than this program ({len(steps)})")
    for target in range(version + 1, len(steps) + 1):
        await db.executescript(
            f"BEGIN;\n{steps[target - 1]}\nPRAGMA user_version = {target};\nCOMMIT;"
        )
    return len(steps)


class SqliteStore(ClubQueries):
    """The store in one SQLite file."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.health = Health(unavailable)
        super().__init__(SqliteConn(db, self.health))
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Writes]:
        """One transaction at a time. Whatever ends it early, from its BEGIN on, a ROLLBACK
        follows: a BEGIN cut off in a cancelled task (at a stop, say) still runs in SQLite's
        thread, and without it the connection stayed in that transaction, refusing every
        write after it ("cannot start a transaction within a transaction")."""
        async with self._lock:
            try:
                await self._conn.run("BEGIN IMMEDIATE", ())
                yield Writes(self._conn)
                await self._conn.run("COMMIT", ())
                self.health.back()
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        """Roll back what is open once the statements sent before it have run (aiosqlite
        runs them in the order sent, and a cancelled caller's too): a BEGIN not run yet when
        its caller was cancelled, or a failed COMMIT that rolled back already (a full disk)
        or not (busy). Nothing open, or the connection closed at a stop: nothing to do."""
        with contextlib.suppress(sqlite3.Error, ValueError):
            await self._db.execute("ROLLBACK")

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def claim(self, bot_id: int, on_lost: Callable[[], None] = lambda: None) -> bool:
        """A SQLite file is one process's as a whole: ``bot.app.claim_database`` locks the
        file before the store opens, so every bot id of it is this process's."""
        return True

    # --- whole tables (copy-store, benchmarks): names from the schema, never from users ---

    async def columns(self, table: str) -> list[str]:
        return [r["name"] for r in await self._all(f"PRAGMA table_info({table})")]

    async def count(self, table: str) -> int:
        row = await self._one(f"SELECT COUNT(*) FROM {table}")
        assert row is not None
        return int(row[0])

    async def dump(self, table: str, columns: Sequence[str],
                   batch: int = 10_000) -> AsyncIterator[list[tuple[object, ...]]]:
        """Every row of ``table`` (those ``columns``), ``batch`` rows at a time."""
        async with self._db.execute(f"SELECT {', '.join(columns)} FROM {table}") as cur:
            while rows := await cur.fetchmany(batch):
                yield [tuple(r) for r in rows]

    async def load(self, table: str, columns: Sequence[str],
                   rows: Iterable[Sequence[object]]) -> None:
        """Insert rows as they are (ids included), in one transaction."""
        marks = ", ".join("?" * len(columns))
        async with self.transaction():
            await self._db.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
