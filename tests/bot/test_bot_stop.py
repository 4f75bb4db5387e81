"""A graceful stop while the clock is playing moves: the job queue's stop waits for the jobs
running when it starts, but a move those jobs arm may start meanwhile, and PTB shields it from
the cancelling that follows, so it outlives ``Application.stop``; the store is closed only
after it (``bot.present.timers.Timers.idle``), and the move is stored, not lost in a closed
pool."""

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
    first, second = asyncio.Event(), asyncio.Event()
    first_go_on, second_go_on = asyncio.Event(), asyncio.Event()
    play_due = service.play_due

    async def held(table_id: int) -> None:
        if not first.is_set():  # running when the stop starts; arms the next move, which
            first.set()         # starts before this one has ended
            await first_go_on.wait()
            await play_due(table_id)
            await asyncio.wait_for(second.wait(), timeout=10)
            return
        second.set()
        await second_go_on.wait()
        await play_due(table_id)

    _, _, _, table = await one_human_two_computers(tg, app)
    service.play_due = held  # type: ignore[method-assign]
    await asyncio.wait_for(first.wait(), timeout=10)
    stopping = asyncio.create_task(bot.__aexit__(None, None, None))
    await asyncio.sleep(0.2)  # the stop has begun: the job queue waits for the first move
    first_go_on.set()
    await asyncio.wait_for(second.wait(), timeout=10)
    hand_id = table.current.id
    before = stored_moves(db, hand_id)
    await asyncio.sleep(1.0)
    assert not stopping.done()  # the stop waits for the move under way
    second_go_on.set()
    await asyncio.wait_for(stopping, timeout=10)

    after = stored_moves(db, hand_id)
    assert after > before
    assert after == len(table.current.hand.log)  # what was played is what is stored
