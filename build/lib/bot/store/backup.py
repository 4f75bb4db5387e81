"""``python -m bot backup DEST`` and ``python -m bot restore SRC`` for the SQLite store
(a PostgreSQL store is backed up with ``pg_dump``: docs/deploy.md).

A backup is taken with SQLite's online backup API while the bot runs: the whole file is
copied in one step, inside one read transaction, so that it is the store as of one commit
(WAL mode: the bot's writes go on meanwhile), checked whole (``PRAGMA integrity_check``)
and only then given its name. A restore copies a backup, checked the same way, into the
store's file while no bot runs on it (locked as a bot locks it, :mod:`bot.claim`'s
``flock``), and only into a file that holds no store yet: an existing store is moved away by
the operator, never overwritten here.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path


class BackupError(Exception):
    """The backup or restore cannot be made (one line: which file, and why)."""


@dataclass(frozen=True)
class Copied:
    path: Path
    size: int  # bytes
    tables: int  # the tables the store holds, open or closed
    hands: int


def backup(src: Path, dest: Path) -> Copied:
    """Back the store ``src`` up into the new file ``dest``."""
    if dest.exists():
        raise BackupError(f"{dest} exists already: name a new file")
    if not dest.parent.is_dir():
        raise BackupError(f"the directory {dest.parent} does not exist")
    _check_store(src)
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        _copy(src, part)
        copied = _check_store(part)
        os.replace(part, dest)
    finally:
        part.unlink(missing_ok=True)
    return Copied(dest, dest.stat().st_size, copied.tables, copied.hands)


def restore(src: Path, dest: Path) -> Copied:
    """Restore the backup ``src`` into ``dest``, the store's file (DB_PATH): refused while a
    bot runs on it or when it holds a store already."""
    checked = _check_store(src)
    if not dest.parent.is_dir():
        raise BackupError(f"the directory {dest.parent} does not exist")
    fd = os.open(dest, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(f"{dest} is in use by a running paohuzi-bot; stop it "
                              "first") from None
        if os.fstat(fd).st_size > 0 or Path(f"{dest}-wal").exists():
            raise BackupError(f"{dest} holds a store already: move it (and its -wal and "
                              "-shm files) away first, or restore into a new DB_PATH")
        _copy(src, dest)
        _check_store(dest)
    finally:
        os.close(fd)  # the store's connections are closed: the lock goes with it
    return Copied(dest, dest.stat().st_size, checked.tables, checked.hands)


def _copy(src: Path, dest: Path) -> None:
    """The whole of ``src`` into ``dest`` in one step of the backup API (several steps would
    start over whenever the bot commits in between)."""
    with closing(sqlite3.connect(src)) as source, closing(sqlite3.connect(dest)) as target:
        source.backup(target)


def _check_store(path: Path) -> Copied:
    """``path`` is a whole paohuzi store: what it holds."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            [(verdict,)] = db.execute("PRAGMA integrity_check").fetchall()
            if verdict != "ok":
                raise BackupError(f"{path} is damaged: {verdict}")
            names = {n for (n,) in db.execute("SELECT name FROM sqlite_master")}
            if not {"tables", "hands", "actions"} <= names:
                raise BackupError(f"{path} is not a paohuzi store")
            [(tables,)] = db.execute("SELECT count(*) FROM tables").fetchall()
            [(hands,)] = db.execute("SELECT count(*) FROM hands").fetchall()
    except sqlite3.Error as e:
        raise BackupError(f"{path} is not a usable SQLite database: {e}") from None
    return Copied(path, path.stat().st_size, int(tables), int(hands))
