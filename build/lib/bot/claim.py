"""One bot per database: before the bot starts, its SQLite database is checked and locked
for this process (``python -m bot`` calls :func:`claim_database`)."""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path


class StartupError(Exception):
    """The bot cannot start; the message is one line for the operator."""


def claim_database(path: Path) -> int:
    """Check that ``path`` is a usable SQLite database and lock it for this process.

    Returns the file descriptor that holds the lock: keep it open while the bot runs (the
    kernel releases the lock when the process ends, however it ends), and close it only after
    the store is closed (closing any descriptor of a file drops the process's POSIX locks on
    it, SQLite's included). A second bot on the same database would answer every press
    twice, so it is refused here. The lock is ``flock`` on the database file itself, which
    SQLite's own (``fcntl``) locks ignore.
    """
    if not path.parent.is_dir():
        raise StartupError(f"DB_PATH {path}: the directory {path.parent} does not exist")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise StartupError(f"DB_PATH {path} cannot be opened for writing: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StartupError(f"DB_PATH {path} is in use by another running paohuzi-bot; "
                           "stop it first (one bot per database)") from None
    try:
        _check_writable(path)
    except sqlite3.Error as e:
        os.close(fd)
        raise StartupError(f"DB_PATH {path} is not a usable SQLite database: {e}") from None
    return fd


def _check_writable(path: Path) -> None:
    """Open the database as the store will (WAL) and take a write lock, writing nothing."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")
    finally:
        db.close()
