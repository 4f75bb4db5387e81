"""A graceful stop while the clock is playing moves: the move under way when the stop begins
is played to its end and stored before the store closes (``bot.present.timers.Timers.idle``),
not lost in a closed pool, and no timed move starts once the stop has begun
(``Timers.stop``): the moves it would make are the next run's, from what was stored."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.robots import one_human_two_computers


def stored_moves(db, hand_id: int) -> int:  # type: ignore[no-untyped-def]
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT count(*) FROM actions WHERE hand_id = ?",
                            (hand_id,)).fetchone()[0]


async def test_a_move_under_way_at_a_stop_is_stored_before_the_store_closes(
        tg: FakeTelegram, tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    bot = running_bot(make_config(tg, db, action_timeout=0.2))  # every seat on the clock soon
    app = await bot.__aenter__()
    service = services(app).service
    under_way, go_on = asyncio.Event(), asyncio.Event()
    started_after: list[int] = []  # timed moves begun once the stop had begun
    play_due = service.play_due

    async def held(table_id: int) -> None:
        if under_way.is_set():
            started_after.append(table_id)
        under_way.set()
        await go_on.wait()
        await play_due(table_id)

    _, _, _, table = await one_human_two_computers(tg, app)
    service.play_due = held  # type: ignore[method-assign]
    await asyncio.wait_for(under_way.wait(), timeout=10)
    hand_id = table.current.id
    before = stored_moves(db, hand_id)
    stopping = asyncio.create_task(bot.__aexit__(None, None, None))
    await asyncio.sleep(1.0)
    assert not stopping.done()  # the stop waits for the move under way
    go_on.set()
    await asyncio.wait_for(stopping, timeout=10)

    after = stored_moves(db, hand_id)
    assert after > before
    assert after == len(table.current.hand.log)  # what was played is what is stored
    assert started_after == []  # its next timed move is left to the next run
