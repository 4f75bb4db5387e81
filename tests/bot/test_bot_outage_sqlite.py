"""The SQLite store failing under the running bot mid-hand, with two computer players and a
seat in 托管: the disk full (every COMMIT refused with SQLITE_FULL, as a full disk refuses
WAL mode's writes at commit), and the file locked by another process past the busy timeout.
Nothing is shown that is not stored, presses are answered, and the hand goes on by itself
once the store takes writes again, its log with every move once, in order.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.outage import (
    LOG_SQL,
    check_said_once,
    check_screens,
    hand_with_tuoguan,
    moves_of,
    screens,
)

from bot.i18n import t
from bot.store import sqlite as sqlite_store
from bot.table import Table

OUTAGE = 1.5  # seconds the store refuses writes (past a retry or two)


def stored(db: Path, table_id: int) -> list[tuple[int, str]]:
    """The moves of the table's latest hand, as committed (read as another process would)."""
    with sqlite3.connect(db) as conn:
        return moves_of(conn.execute(LOG_SQL.format("?"), (table_id,)).fetchall())


def full_disk(conn) -> list[int]:  # type: ignore[no-untyped-def]
    """Make the bot's connection's COMMITs fail with SQLITE_FULL while the returned list
    starts with 1; its length - 1 counts the refused commits."""
    full = [1]
    real = conn.execute

    def execute(sql: str, *args: object):  # type: ignore[no-untyped-def]
        if full[0] and sql == "COMMIT":
            full.append(1)
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode, error.sqlite_errorname = 13, "SQLITE_FULL"
            raise error
        return real(sql, *args)
    conn.execute = execute
    return full


async def check_frozen(tg: FakeTelegram, app, alice, group, table: Table, db: Path) -> list:  # type: ignore[no-untyped-def]
    """While the store refuses: a press is answered and changes nothing, and the group and
    Alice (her private picture too) are shown the stored moves; returns them."""
    answer = await tg.press_button(hand_message(tg, alice), alice, "取消托管", timeout=20)
    assert answer.text == t("zh", "store_unavailable")
    await asyncio.sleep(OUTAGE)
    await services(app).presenter.idle()
    moves = stored(db, table.id)
    assert table.players[0].autoplay and table.status == "playing"
    check_screens(screens(tg, group, alice, table), table, moves)
    return moves


async def check_resumed(tg: FakeTelegram, app, table: Table, db: Path, frozen: list) -> None:  # type: ignore[no-untyped-def]
    await tg.wait_for(lambda: table.status == "between" or None, timeout=60,
                      what="the hand played to its end after the outage")
    await services(app).presenter.idle()  # its settlement shown before the bot stops
    moves = stored(db, table.id)
    assert moves[:len(frozen)] == frozen and len(moves) > len(frozen)
    assert moves == table.current.hand.log
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results WHERE hand_id = ?",
                            (table.current.id,)).fetchone() == (3,)


async def test_a_full_disk_holds_the_hand_until_there_is_room(
        tg: FakeTelegram, tmp_path, caplog) -> None:  # noqa: F811
    caplog.set_level(logging.INFO)
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db, action_timeout=0.5)) as app:
        svc = services(app)
        alice, group, table = await hand_with_tuoguan(tg, app)
        full = full_disk(svc.store._db)  # the bot's own connection (private: a test's fault)
        await tg.wait_for(lambda: len(full) > 1 or None, timeout=20,
                          what="a commit refused for want of room")
        frozen = await check_frozen(tg, app, alice, group, table, db)
        full[0] = 0  # room again
        await check_resumed(tg, app, table, db, frozen)
    check_said_once(caplog)


async def test_a_file_locked_past_the_busy_timeout_holds_the_hand_until_it_is_free(
        tg: FakeTelegram, tmp_path, caplog, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 500)  # the same, sooner
    caplog.set_level(logging.INFO)
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db, action_timeout=0.5)) as app:
        alice, group, table = await hand_with_tuoguan(tg, app)
        other = sqlite3.connect(db, isolation_level=None)  # a backup, an sqlite3 shell
        other.execute("BEGIN EXCLUSIVE")
        try:
            frozen = await check_frozen(tg, app, alice, group, table, db)
        finally:
            other.execute("ROLLBACK")
            other.close()
        await check_resumed(tg, app, table, db, frozen)
    check_said_once(caplog)


