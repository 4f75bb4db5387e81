"""What the store's SQL runs on: one backend's connection behind four calls.

The queries (:mod:`bot.store.reads`, :mod:`bot.store.writes`) are written once, with ``?``
parameters and SQL that SQLite and PostgreSQL both read; each backend supplies a
:class:`Conn` that runs them (and rewrites the parameters where it must).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

# A result row: aiosqlite.Row and asyncpg.Record both read by column name and by position.
Row = Any


class Conn(Protocol):
    async def one(self, sql: str, args: Sequence[object]) -> Row | None:
        """The first row of a query, or None."""

    async def all(self, sql: str, args: Sequence[object]) -> list[Row]:
        """Every row of a query."""

    async def run(self, sql: str, args: Sequence[object]) -> int:
        """Run a write; the number of rows it changed."""

    async def insert(self, sql: str, args: Sequence[object]) -> int:
        """Run an INSERT of one row into a table keyed by ``id``; the new row's id."""


def epoch(text: str | None) -> float | None:
    """Seconds since the epoch of a time the schema keeps (``YYYY-MM-DD HH:MM:SS``, with
    ``.fff`` in the action log's ``at``), in UTC; None for none."""
    if not text:
        return None
    shape = "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S"
    return datetime.strptime(text, shape).replace(tzinfo=UTC).timestamp()


def now() -> str:
    """The time as the schema keeps it (UTC, ``YYYY-MM-DD HH:MM:SS``, SQLite's datetime())."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
