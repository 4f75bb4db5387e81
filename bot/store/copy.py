"""``python -m bot copy-store SRC DST``: a whole store copied to another, on any backends.

The source is checked before anything is opened: it must exist and be a paohuzi store (a
missing file is not created, a file that is not a store is left untouched), and no bot may be
running on it (nor on the destination): SQLite files are locked for the copy as a bot locks its
own (``bot.claim``), a PostgreSQL database is refused while a bot holds its guard there
(:mod:`bot.store.guard`). Both ends are then opened as the bot opens them (so the
destination's schema is created and migrated first), every table is copied with its ids in an
order its references allow, and the row counts of both ends are compared table by table.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import asyncpg

from bot.store.factory import is_postgres, open_store, sqlite_path
from bot.store.guard import bots_running
from bot.store.opening import OPEN_ERRORS, StoreUnusable, shown, why_postgres

if TYPE_CHECKING:
    from bot.store.protocols import Store

# Every table of the schema, each after those it references.
TABLES = ("users", "chats", "tables", "seats", "matches", "hands", "actions", "results",
          "scores", "birds", "votes", "notify", "notified", "apart", "challenges",
          "challenge_players", "challenge_moves", "seasons", "cups", "posts", "chat_timezones",
          "skill_matches", "skill_ratings", "skill_stale", "seat_reviews", "topic_names",
          "club_settings", "dissolve_asks", "pending_presses")


class CopyError(Exception):
    """The copy cannot be made or did not come out whole (the message says which)."""


async def copy_store(source: Path | str, target: Path | str,
                     say: Callable[[str], None] = print) -> dict[str, int]:
    """Copy every table of ``source`` into the empty store ``target``; the rows per table."""
    async with _idle(source, "source", must_exist=True), _idle(target, "destination"):
        src = await _open(source, "source")
        try:
            dst = await _open(target, "destination")
            try:
                counts = await _copy(src, dst, say)
            finally:
                await dst.close()
        finally:
            await src.close()
    say(f"copied {sum(counts.values())} rows in {len(counts)} tables from "
        f"{shown(str(source))} to {shown(str(target))}")
    return counts


async def _open(where: Path | str, role: str) -> Store:
    try:
        return await open_store(where)
    except StoreUnusable as e:
        raise CopyError(f"the {role} {e}") from None


@asynccontextmanager
async def _idle(where: Path | str, role: str, must_exist: bool = False) -> AsyncIterator[None]:
    """While no bot runs on ``where`` (a SQLite file stays locked meanwhile); a source must
    be a paohuzi store already."""
    if is_postgres(where):
        await _idle_postgres(str(where), role, must_exist)
        yield
        return
    path = sqlite_path(where)
    if not path.exists():
        if must_exist:
            raise CopyError(f"the {role} {path} does not exist")
        yield
        return
    if not path.is_file():
        raise CopyError(f"the {role} {path} is not a file")
    if must_exist:
        _check_sqlite_store(path, role)
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CopyError(f"a paohuzi-bot is running on the {role} {path}; stop it "
                            "first") from None
        yield
    finally:
        os.close(fd)


def _check_sqlite_store(path: Path, role: str) -> None:
    """``path`` is a paohuzi SQLite store: read only, changing nothing."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path.absolute()))}?mode=ro", uri=True)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            hands = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'hands'").fetchone()
        finally:
            db.close()
    except sqlite3.Error as e:
        raise CopyError(f"the {role} {path} is not a paohuzi store ({e})") from None
    if not version or hands is None:
        raise CopyError(f"the {role} {path} is not a paohuzi store (an SQLite file without "
                        "its tables)")


async def _idle_postgres(url: str, role: str, must_exist: bool) -> None:
    try:
        db = await asyncpg.connect(url, timeout=10)
    except OPEN_ERRORS as e:
        raise CopyError(f"the {role} {why_postgres(url, e)}") from None
    try:
        if must_exist and await db.fetchval("SELECT to_regclass('schema_version')") is None:
            raise CopyError(f"the {role} {shown(url)} is not a paohuzi store (no schema_version"
                            " table)")
        if await bots_running(db):
            raise CopyError(f"a paohuzi-bot is running on the {role} {shown(url)}; stop it "
                            "first")
    finally:
        await db.close()


async def _copy(src: Store, dst: Store, say: Callable[[str], None]) -> dict[str, int]:
    filled = [t for t in TABLES if await dst.count(t)]
    if filled:
        raise CopyError(f"the destination is not empty ({', '.join(filled)} hold rows)")
    counts: dict[str, int] = {}
    for table in TABLES:
        columns = await src.columns(table)
        async for rows in src.dump(table, columns):
            await dst.load(table, columns, rows)
        counts[table] = await src.count(table)
        copied = await dst.count(table)
        if copied != counts[table]:
            raise CopyError(f"{table}: {counts[table]} rows in the source, {copied} copied")
        say(f"{table}: {copied}")
    return counts
