"""``python -m bot copy-store SRC DST``: a whole store copied to another, on any backends.

Both ends are opened as the bot opens them (so the destination's schema is created and
migrated first), every table is copied with its ids in an order its references allow, and
the row counts of both ends are compared table by table.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.store.factory import open_store

if TYPE_CHECKING:
    from bot.store.protocols import Store

# Every table of the schema, each after those it references.
TABLES = ("users", "chats", "tables", "seats", "matches", "hands", "actions", "results",
          "scores", "birds", "votes", "notify", "notified", "seasons")


class CopyError(Exception):
    """The copy cannot be made or did not come out whole (the message says which)."""


async def copy_store(source: Path | str, target: Path | str,
                     say: Callable[[str], None] = print) -> dict[str, int]:
    """Copy every table of ``source`` into the empty store ``target``; the rows per table."""
    src = await open_store(source)
    try:
        dst = await open_store(target)
        try:
            return await _copy(src, dst, say)
        finally:
            await dst.close()
    finally:
        await src.close()


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
