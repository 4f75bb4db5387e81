"""``python -m bot`` / ``paohuzi-bot``: read the configuration, check and claim the database,
wait for the Bot API (:mod:`bot.telegram.reach`) and run (long polling, or a webhook with
WEBHOOK_URL). Start-up errors are one line and exit 2.

``python -m bot copy-store SRC DST`` copies a whole store into an empty one instead;
``python -m bot webapp`` serves the live seat of several bots sharing one PostgreSQL store;
``python -m bot backup DEST`` / ``restore SRC`` back the SQLite store up and restore it;
``python -m bot healthcheck`` asks the running bot's ``/healthz`` (METRICS_PORT);
``python -m bot cup-check STATE.json`` re-derives a 群杯's seating from its state."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable, Mapping
from typing import NoReturn, TypeVar

from bot.config import ConfigError, load_config

T = TypeVar("T")


def main() -> None:
    if sys.argv[1:2] == ["copy-store"]:
        copy_store(sys.argv[2:])
        return
    if sys.argv[1:2] == ["webapp"]:
        shared_webapp()
        return
    if sys.argv[1:2] in (["backup"], ["restore"]):
        backup_or_restore(sys.argv[1], sys.argv[2:])
        return
    if sys.argv[1:2] == ["healthcheck"]:
        healthcheck()
        return
    if sys.argv[1:2] == ["cup-check"]:
        cup_check(sys.argv[2:])
        return
    config = _configured(load_config)
    # httpx logs every request URL at INFO, and those URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from bot.claim import StartupError, claim_database  # after the config is known good
    from bot.telegram.app import run
    from bot.telegram.reach import reach_bot_api

    lock: int | None = None
    try:
        if config.database_url:  # the bot's token is claimed once the store is open
            asyncio.run(_check_store(config.database_url))
        else:
            lock = claim_database(config.db_path)
        asyncio.run(reach_bot_api(config))
        run(config)
    except StartupError as e:
        _fail(str(e))
    except KeyboardInterrupt:  # Ctrl-C while waiting for the Bot API
        sys.exit(130)
    finally:
        if lock is not None:
            os.close(lock)


async def _check_store(url: str) -> None:
    """Open (and migrate) the PostgreSQL store once before anything else, so that a wrong
    DATABASE_URL is one line at once, not after the Bot API is reached."""
    from bot.claim import StartupError
    from bot.store import StoreUnusable, open_store

    try:
        store = await open_store(url)
    except StoreUnusable as e:
        raise StartupError(f"DATABASE_URL {e}") from None
    await store.close()


def copy_store(args: list[str]) -> None:
    """``copy-store SRC DST``: copy a whole store into an empty one (URLs
    ``sqlite:///ABSOLUTE/PATH`` or ``postgresql://USER@HOST:PORT/DB``), printing the rows
    copied per table and in all. A source that is missing, not a store or in use is refused
    (:mod:`bot.store.copy`), in one line, exit 2."""
    if len(args) != 2:
        _fail("usage: python -m bot copy-store SRC DST (sqlite:///ABSOLUTE/PATH or "
              "postgresql://USER@HOST:PORT/DB)")
    from bot.store.copy import CopyError
    from bot.store.copy import copy_store as copy

    try:
        asyncio.run(copy(args[0], args[1]))
    except (CopyError, OSError) as e:
        _fail(f"copy-store: {e}")


def backup_or_restore(command: str, args: list[str]) -> None:
    """``backup DEST``: the store at DB_PATH backed up into the new file DEST, the bot
    running or not; ``restore SRC``: the backup SRC restored into DB_PATH, a file with no
    store yet, the bot stopped (:mod:`bot.store.backup`). One line said, or one line and
    exit 2."""
    what = "DEST" if command == "backup" else "SRC"
    if len(args) != 1:
        _fail(f"usage: python -m bot {command} {what} (a file; the store is DB_PATH's)")
    try:
        config = load_config(os.environ)
    except ConfigError as e:
        _fail(str(e))
    if config.database_url:
        _fail(f"{command}: DATABASE_URL names a PostgreSQL store: back it up with pg_dump and "
              "restore it with pg_restore (docs/deploy.md, Backups)")
    from pathlib import Path

    from bot.store.backup import BackupError, backup, restore

    try:
        if command == "backup":
            done = backup(config.db_path, Path(args[0]))
        else:
            done = restore(Path(args[0]), config.db_path)
    except (BackupError, OSError) as e:
        _fail(f"{command}: {e}")
    print(f"{command}: {done.path} ({done.size} bytes): {done.tables} tables, "
          f"{done.hands} hands")


def healthcheck() -> None:
    """Exit 0 when the bot's (or the live seat server's) ``/healthz`` on METRICS_PORT says
    200, else print why and exit 1: a container's health check, with no curl in the image."""
    import urllib.error
    import urllib.request

    from bot.config import load_health_port

    try:
        host, port = load_health_port(os.environ)
    except ConfigError as e:
        _fail(str(e))
    host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=10) as answer:
            print(answer.read().decode().strip())
    except urllib.error.HTTPError as e:
        print(e.read().decode().strip() or f"HTTP {e.code}")
        sys.exit(1)
    except OSError as e:
        print(f"no answer on {host}:{port}: {e}")
        sys.exit(1)


def shared_webapp() -> None:
    """``webapp``: one live seat server for every bot of WEBAPP_TOKENS on DATABASE_URL
    (:mod:`bot.webapp.multi`); each bot runs as ``python -m bot`` with WEBAPP_URL and no
    WEBAPP_PORT."""
    from bot.config import load_shared_webapp

    shared = _configured(load_shared_webapp)
    from bot.store import StoreUnusable
    from bot.webapp.multi import serve

    try:
        asyncio.run(serve(shared))
    except StoreUnusable as e:
        _fail(f"DATABASE_URL {e}")


def _configured(load: Callable[[Mapping[str, str]], T]) -> T:
    """The settings ``load`` reads from the environment (and .env), then logging set up; a
    bad setting is one line, exit 2."""
    try:
        settings = load(os.environ)
    except ConfigError as e:
        _fail(str(e))
    from bot.logs import setup

    setup(json_lines=bool(getattr(settings, "log_json", False)))  # LOG_FORMAT
    return settings


def _fail(message: str) -> NoReturn:
    print(f"paohuzi-bot: {message}", file=sys.stderr)
    sys.exit(2)


def cup_check(args: list[str]) -> None:
    """``python -m bot cup-check STATE.json``: a 群杯's seating re-derived round by round
    from its state (the ``cups.state`` column; ``bot.table.cups.rederive``); exits 1 when a
    round differs."""
    from pathlib import Path

    from bot.table.cups import Cup, rederive
    if len(args) != 1:
        _fail("usage: python -m bot cup-check STATE.json  (sqlite3 DB 'SELECT state FROM cups"
              " WHERE id = N' > STATE.json)")
    lines = rederive(Cup.loads(Path(args[0]).read_text()))
    print("\n".join(lines))
    sys.exit(0 if all("differs" not in line for line in lines) else 1)


if __name__ == "__main__":
    main()

