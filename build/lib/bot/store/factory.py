"""Which store to open: a SQLite path, or a URL naming the backend."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.store.opening import OPEN_ERRORS, StoreUnusable, why_postgres, why_sqlite
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from bot.store.protocols import Store

SQLITE_URL = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(where: Path | str) -> bool:
    return str(where).startswith(POSTGRES_SCHEMES)


def sqlite_path(where: Path | str) -> Path:
    """The file a SQLite path or ``sqlite:///ABSOLUTE/PATH`` URL names."""
    text = str(where)
    if text.startswith(SQLITE_URL):  # sqlite:////abs/path too: one leading slash
        return Path("/" + text.removeprefix(SQLITE_URL).lstrip("/"))
    return Path(text)


async def open_store(where: Path | str) -> Store:
    """Open (creating and migrating as needed) the store ``where`` names: a
    ``postgresql://USER@HOST:PORT/DB`` URL is PostgreSQL (asyncpg); a path or a
    ``sqlite:///ABSOLUTE/PATH`` URL is a SQLite file. :class:`StoreUnusable` (one line) when
    it cannot be opened."""
    if is_postgres(where):
        try:
            return await PostgresStore.open(str(where))
        except OPEN_ERRORS as e:
            raise StoreUnusable(why_postgres(str(where), e)) from None
    path = sqlite_path(where)
    try:
        return await SqliteStore.open(path)
    except OPEN_ERRORS as e:
        raise StoreUnusable(why_sqlite(str(path), e)) from None
