"""The store of record on a PostgreSQL server that fails under the running bot: its connections
killed, then the server mid-hand, with two computer players and a seat in 托管, restarted at
once (``pg_ctl restart -m immediate``) or crashed and down for ``STOPPED`` seconds; and one
table's row held locked by another session while two other tables play on. Nothing is shown
that is not stored (the group's and the human's private picture are the stored log's), the
hand goes on by itself once the server is back, and its log has every move once, in order.

The server is the test's own (``own_postgres``): the session's is shared with other tests.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import asyncpg
import pytest
from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.outage import (
    LOG_SQL,
    check_said_once,
    check_screens,
    check_shown_stored,
    hand_with_tuoguan,
    moves_of,
    replayed,
    screens,
)
from support.posted import picture_id
from support.postgres import Server
from support.robots import one_human_two_computers

from bot.config import Config
from bot.i18n import t

STOPPED = 20.0  # seconds the server stays down when stopped
HOLD = 5.0  # seconds another session holds a table's row (past the 2 s lock timeout)


def on(server: Server, tg: FakeTelegram, tmp_path, **pace: float) -> Config:  # type: ignore[no-untyped-def]
    """The bot's test configuration on ``server``: Alice in 托管 after 0.5 s, computers
    (and 托管) playing after 0.1 s, unless ``pace`` says otherwise."""
    return make_config(tg, tmp_path / "unused.sqlite3", database_url=server.url,
                       **{"action_timeout": 0.5, "autoplay_delay": 0.1, **pace})


async def stored_log(db: asyncpg.Connection, table_id: int) -> list[tuple[int, int, str]]:
    """(seq, seat, action) of the table's latest hand, as committed."""
    return [tuple(r) for r in await db.fetch(LOG_SQL.format("$1"), table_id)]


def utc_now() -> str:
    """The time now as the action log's ``at`` has it (UTC, to the millisecond)."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


async def stored_by(db: asyncpg.Connection, table_id: int, when: str) -> list[tuple[int, str]]:
    """The moves of the table's latest hand committed before ``when`` (``utc_now``) — before
    a crash, for a time while the server was down: a move's ``at`` is when its transaction
    began, and none begun before a crash commits after it."""
    return [tuple(r) for r in await db.fetch(
        "SELECT seat, action FROM actions WHERE hand_id = (SELECT MAX(id) FROM hands"
        " WHERE table_id = $1) AND at < $2 ORDER BY seq", table_id, when)]


async def wait_stored(db: asyncpg.Connection, table_id: int, moves: int,
                      timeout: float = 30.0) -> None:
    """Until the table's hand has ``moves`` moves stored, or has ended."""
    for _ in range(int(timeout / 0.1)):
        status = await db.fetchval(
            "SELECT status FROM hands WHERE table_id = $1 ORDER BY id DESC LIMIT 1", table_id)
        if status != "running" or len(await stored_log(db, table_id)) >= moves:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table_id} stored fewer than {moves} moves in {timeout} s")


@pytest.mark.parametrize("outage", ["restart", "stop"])
async def test_a_hand_goes_on_by_itself_after_killed_connections_and_a_crashed_server(
        tg: FakeTelegram, tmp_path, own_postgres: Server, caplog, outage: str) -> None:  # noqa: F811
    """``restart``: the server restarted at once (``pg_ctl restart -m immediate``) while the
    hand plays on; ``stop``: the server crashed and down for ``STOPPED`` seconds."""
    caplog.set_level(logging.INFO)
    db = await asyncpg.connect(own_postgres.url)
    async with running_bot(on(own_postgres, tg, tmp_path)) as app:
        svc = services(app)
        alice, group, table = await hand_with_tuoguan(tg, app)
        hand_id = table.current.id

        # every connection of the bot killed: the pool connects afresh, play goes on
        before = len(await stored_log(db, table.id))
        killed = await db.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'")
        assert killed >= 1
        await wait_stored(db, table.id, before + 4)
        await db.close()
        # a line as they went and one as they were back, when a call met one before the
        # pool noticed; then the outage's own
        check_said_once(caplog, (0, 1))
        caplog.clear()

        assert table.status == "playing", "the hand ended before the outage: a longer one"
        if outage == "restart":
            await asyncio.to_thread(own_postgres.restart)
        else:
            await asyncio.to_thread(own_postgres.stop, "immediate")
            await asyncio.sleep(STOPPED / 2)
            frozen, down = list(table.current.hand.log), utc_now()
            takeback = hand_message(tg, alice)
            answer = await tg.press_button(takeback, alice, "取消托管", timeout=20)
            assert answer.text == t("zh", "store_unavailable")  # answered; nothing moves
            await asyncio.sleep(STOPPED / 2)
            await svc.presenter.idle()
            assert table.players[0].autoplay and table.current.hand.log == frozen
            assert table.status == "playing"
            shown = screens(tg, app, group, alice, table)
            await asyncio.to_thread(own_postgres.start)

        db = await asyncpg.connect(own_postgres.url)
        await tg.wait_for(lambda: table.status == "between" or None, timeout=60,
                          what="the hand played to its end after the outage")
        moves = moves_of(await stored_log(db, table.id))
        if outage == "stop":
            # what memory held, and the group and Alice were shown, during the outage is
            # what was stored before the crash
            assert await stored_by(db, table.id, down) == frozen == moves[:len(frozen)]
            check_screens(shown, table, frozen)
            assert len(moves) > len(frozen)
        # and the hand went on from there to its end, each move once, as memory has it
        assert moves == table.current.hand.log and replayed(table, moves).is_terminal()
        assert await db.fetchval("SELECT COUNT(*) FROM results WHERE hand_id = $1",
                                 hand_id) == 3
        assert await db.fetchval("SELECT hands FROM scores WHERE user_id = $1", alice.id) == 1
        await db.close()
        await svc.presenter.idle()  # its settlement shown before the bot stops
        check_screens(screens(tg, app, group, alice, table), table, moves)
    # one line as the server went, one as it came back; a restart at once may be noticed by
    # the pool before any call meets a dead connection (as the killed ones above)
    check_said_once(caplog, (0, 1) if outage == "restart" else (1, 1))


async def test_a_row_locked_by_another_session_holds_only_its_table(
        tg: FakeTelegram, tmp_path, own_postgres: Server, caplog) -> None:  # noqa: F811
    caplog.set_level(logging.INFO)
    db = await asyncpg.connect(own_postgres.url)
    async with running_bot(on(own_postgres, tg, tmp_path, action_timeout=0.3)) as app:
        seated = [await one_human_two_computers(tg, app, name, f"群{n}")
                  for n, name in enumerate(("Alice", "Bob", "Carol"))]
        tables = [table for *_, table in seated]
        locked_group = seated[0][1]
        await tg.wait_for(lambda: all(t.current is not None and len(t.current.hand.log) >= 3
                                      for t in tables) or None, timeout=20)
        locked, *others = tables
        holder = await asyncpg.connect(own_postgres.url)
        async with holder.transaction():
            await holder.execute("SELECT * FROM tables WHERE id = $1 FOR UPDATE", locked.id)
            at = {t.id: len(await stored_log(db, t.id)) for t in tables}
            await asyncio.sleep(HOLD)
            during = {t.id: len(await stored_log(db, t.id)) for t in tables}
            await services(app).presenter.idle()
            # it waits, nothing of its move stored nor shown (its memory holds the move
            # only while its transaction waits for the lock: Table.changing)...
            check_shown_stored(tg.message(locked_group, picture_id(app, locked)).caption,
                               locked, moves_of(await stored_log(db, locked.id)))
        await holder.close()
        assert during[locked.id] == at[locked.id]
        for other in others:  # ...while the others play on
            assert during[other.id] >= at[other.id] + 5 or other.status != "playing", \
                (at, during)
        await wait_stored(db, locked.id, at[locked.id] + 3, timeout=10)  # and it goes on
        for table in tables:
            moves_of(await stored_log(db, table.id))
    await db.close()
    blocked = [r for r in caplog.records if "waits for a lock" in r.getMessage()]
    assert len(blocked) == 1 and str(locked.id) in blocked[0].getMessage()
    check_said_once(caplog, (0, 0))  # the store itself was up all along
