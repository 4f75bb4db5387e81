"""The SQLite store failing under the running bot mid-hand, with two computer players and a
seat in 托管: the disk full (SQLite itself refuses the page a move needs: ``PRAGMA
max_page_count`` at the file's size on the bot's connection), and the file locked by another
process past the busy timeout (a press then is answered). Nothing is shown that is not
stored, the hand holds, and it goes on by itself once the store takes writes again, its log
with every move once, in order.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import aiosqlite
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


def small_pages(db: Path) -> None:
    """An empty store of SQLite's smallest pages (512 bytes), which the bot then migrates:
    a few moves fill one, so that a disk full at the store's size soon refuses a move (at
    4 kB a hand may end before it needs another page)."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA page_size = 512")
        conn.execute("VACUUM")


async def max_page_count(conn: aiosqlite.Connection, pages: int | None = None) -> int:
    """The pages the store on ``conn`` may grow to, as a disk with that much room would let
    it; set to ``pages`` first when given (never below the store's size now: 1 is its size)."""
    sql = "PRAGMA max_page_count" + ("" if pages is None else f" = {pages}")
    async with conn.execute(sql) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def check_frozen(tg: FakeTelegram, app, alice, group, table: Table, db: Path) -> list:  # type: ignore[no-untyped-def]
    """While the store refuses: the hand holds, and the group and Alice (her private picture
    too) are shown the stored moves; returns them."""
    await asyncio.sleep(OUTAGE)
    await services(app).presenter.idle()
    moves = stored(db, table.id)
    assert table.players[0].autoplay and table.status == "playing"
    check_screens(screens(tg, app, group, alice, table), table, moves)
    return moves


async def check_resumed(tg: FakeTelegram, app, alice, group, table: Table, db: Path,  # type: ignore[no-untyped-def]
                        frozen: list) -> None:
    await tg.wait_for(lambda: table.status == "between" or None, timeout=60,
                      what="the hand played to its end after the outage")
    await services(app).presenter.idle()  # its settlement shown before the bot stops
    moves = stored(db, table.id)
    assert moves[:len(frozen)] == frozen and len(moves) > len(frozen)
    assert moves == table.current.hand.log
    check_screens(screens(tg, app, group, alice, table), table, moves)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results WHERE hand_id = ?",
                            (table.current.id,)).fetchone() == (3,)


async def test_a_full_disk_holds_the_hand_until_there_is_room(
        tg: FakeTelegram, tmp_path, caplog) -> None:  # noqa: F811
    """SQLite raises SQLITE_FULL for the page a move needs, which the bot takes for the store
    unavailable. (A change that fits in the pages there are, her 取消托管, goes through: as on
    a disk with a little room, so she does not press.)"""
    caplog.set_level(logging.INFO)
    db = tmp_path / "db.sqlite3"
    small_pages(db)
    async with running_bot(make_config(tg, db, action_timeout=0.5)) as app:
        svc = services(app)
        alice, group, table = await hand_with_tuoguan(tg, app)
        conn = svc.store._db  # the bot's own connection (private: a test's fault)
        room = await max_page_count(conn)
        size = await max_page_count(conn, 1)  # no room beyond the pages it has
        await tg.wait_for(lambda: not svc.store.health.up or None, timeout=20,
                          what="a move refused for want of room")
        frozen = await check_frozen(tg, app, alice, group, table, db)
        assert await max_page_count(conn) == size  # full all along
        await max_page_count(conn, room)
        await check_resumed(tg, app, alice, group, table, db, frozen)
    check_said_once(caplog)


async def test_a_file_locked_past_the_busy_timeout_holds_the_hand_until_it_is_free(
        tg: FakeTelegram, tmp_path, caplog, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 500)  # the same, sooner
    caplog.set_level(logging.INFO)
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db, action_timeout=0.5)) as app:
        alice, group, table = await hand_with_tuoguan(tg, app)
        # a backup, an sqlite3 shell; it waits for a transaction of the bot's under way off
        # the event loop, where the bot can end it (else both wait out the busy timeout)
        other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        await asyncio.to_thread(other.execute, "BEGIN EXCLUSIVE")
        try:
            answer = await tg.press_button(hand_message(tg, alice), alice, "取消托管", timeout=20)
            assert answer.text == t("zh", "store_unavailable")
            frozen = await check_frozen(tg, app, alice, group, table, db)
        finally:
            other.execute("ROLLBACK")
            other.close()
        await check_resumed(tg, app, alice, group, table, db, frozen)
    check_said_once(caplog)


