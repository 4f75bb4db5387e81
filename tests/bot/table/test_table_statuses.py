"""The table room's status enums hold exactly the values the store's rows may hold (each
column's CHECK constraint, as a freshly migrated store has it): an enum is the bare string
it replaced, so rows written before and after read the same."""

from __future__ import annotations

import enum
import re
import sqlite3
from pathlib import Path

import pytest

from bot.store.factory import open_store
from bot.table import (
    ChallengeStatus,
    CupStatus,
    EntrantStatus,
    HandStatus,
    MatchStatus,
    TableStatus,
)

COLUMNS: list[tuple[str, type[enum.StrEnum]]] = [
    ("tables", TableStatus), ("hands", HandStatus), ("matches", MatchStatus),
    ("challenges", ChallengeStatus), ("challenge_players", EntrantStatus), ("cups", CupStatus),
]


@pytest.mark.parametrize(("table", "status"), COLUMNS, ids=[t for t, _ in COLUMNS])
async def test_a_status_enum_is_its_columns_check(tmp_path: Path, table: str,
                                                  status: type[enum.StrEnum]) -> None:
    path = tmp_path / "db.sqlite3"
    await (await open_store(path)).close()
    with sqlite3.connect(path) as conn:
        [(sql,)] = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                (table,)).fetchall()
    [allowed] = re.findall(r"CHECK \(status IN \(([^)]*)\)\)", sql)
    assert {v.strip(" '") for v in allowed.split(",")} == {s.value for s in status}
    assert all(s == s.value and f"{s}" == s.value for s in status)  # stored as the string
