"""Databases as older versions of the program left them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import MIGRATIONS


def old_database(path: Path, version: int) -> None:
    """A database as the program of schema ``version`` left it: only the old migrations."""
    with sqlite3.connect(path) as db:
        for target in range(1, version + 1):
            db.executescript(f"BEGIN;\n{MIGRATIONS[target - 1]}\n"
                             f"PRAGMA user_version = {target};\nCOMMIT;")


def migration_adding(text: str) -> int:
    """The schema version of the one migration whose SQL holds ``text`` (so a test of a
    migration stays right as later ones are added)."""
    found = [version for version, sql in enumerate(MIGRATIONS, 1) if text in sql]
    assert len(found) == 1, (text, found)
    return found[0]
