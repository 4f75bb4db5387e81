"""Which store to open: a SQLite path, or a URL naming the backend."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from bot.store.protocols import Store

SQLITE_URL = "sqlite:///"


async def open_store(where: Path | str) -> Store:
    """Open the store at ``where``: ``sqlite:///ABSOLUTE/PATH`` or a plain path is SQLite."""
    text = str(where)
    if text.startswith(SQLITE_URL):
        return await SqliteStore.open("/" + text.removeprefix(SQLITE_URL))
    return await SqliteStore.open(where)
