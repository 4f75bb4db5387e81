"""The move clock survives a restart (bot.table.clock.restore): a decision's deadline is where
it was, the time the bot was down counted, instead of starting anew (586 s left became
599 s); so are a seat's clock started afresh by taking 托管 back, and the wait for 再来一局."""

import asyncio
import dataclasses

from support.e2e import make_config, running_bot, services
from support.play import start_hand

from bot.table import clock
from bot.table.model import Decision, HandRecord, Player, Table, TableStatus


async def test_a_decisions_deadline_is_kept_across_a_restart(fake_tg, tmp_path):
    tg = fake_tg
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=600.0)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        service = svc.service
        for _ in range(3):  # a few moves, so that the clock runs from a stored move
            seat, d = next((s, d) for s, d in table.decisions.items() if d.legal)
            await service.act(table.id, table.players[seat].user_id, d.version, 0)
        await svc.presenter.idle()
        waiting = {s: service.deadline(table, s) - service.clock()
                   for s, d in table.decisions.items() if d.legal}
        assert waiting and all(500 < left <= 600 for left in waiting.values())
        await asyncio.sleep(1.5)
    await asyncio.sleep(1.5)  # the bot is down: its time counts
    async with running_bot(config) as app:
        service = services(app).service
        table = service.in_chat(group.id)
        after = {s: service.deadline(table, s) - service.clock()
                 for s, d in table.decisions.items() if d.legal}
        assert after.keys() == waiting.keys()
        for seat, left in waiting.items():  # 3 s and the restart's own time later
            assert left - 8 < after[seat] <= left - 2.9, (left, after[seat])


def _table(status: TableStatus = TableStatus.PLAYING) -> Table:
    table = Table(1, -100, 1, 1, status, 0, 0, 5)
    for seat in range(3):
        table.players[seat] = Player(10 + seat, f"p{seat}", "zh", False, False)
    table.current = HandRecord(7, 1, object(), (10, 11, 12), ("p0", "p1", "p2"),  # type: ignore[arg-type]
                               awaited_at=1000.0, ended_at=1200.0)
    return table


def test_restore_counts_from_the_stored_times():
    table = _table()
    for seat, legal in ((0, ("d:1",)), (1, ()), (2, ("pass",))):
        table.decisions[seat] = Decision(3, legal, (legal,), since=50.0)
        table.offered[seat, 3] = table.decisions[seat]
    # read at clock time 50, epoch 1030: seat 0 was awaited 30 s; seat 2 took 托管 back at
    # 1020 (its clock started afresh then); an older take-back does not count
    clock.restore(table, now=50.0, wall=1030.0, clock_from={0: 900.0, 2: 1020.0})
    assert table.decisions[0].since == 20.0 and table.offered[0, 3].since == 20.0
    assert table.decisions[2].since == 40.0
    assert table.decisions[1].since == 50.0  # nothing to wait for


def test_restore_keeps_the_wait_for_the_next_hand():
    table = _table(TableStatus.BETWEEN)
    table.between_since = 50.0
    clock.restore(table, now=50.0, wall=1230.0, clock_from={})
    assert table.between_since == 20.0


def test_restore_gives_the_wait_for_the_next_hand_its_grace():
    table = _table(TableStatus.BETWEEN)
    pace = clock.Pace(action_timeout=600.0, autoplay_delay=1.5, ready_timeout=120.0)
    # the hand ended 500 s before the restart: past the wait, but nobody is unseated at once
    clock.restore(table, now=50.0, wall=1700.0, clock_from={}, pace=pace)
    assert table.between_since == 50.0 + clock.RESTART_GRACE - 120.0
    # ended 30 s before: the wait goes on where it was
    clock.restore(table, now=50.0, wall=1230.0, clock_from={}, pace=pace)
    assert table.between_since == 20.0


def test_restore_leaves_a_table_the_store_kept_no_times_for():
    table = _table()
    table.current = dataclasses.replace(table.current, awaited_at=None)  # type: ignore[type-var]
    table.decisions[0] = Decision(3, ("d:1",), (), since=50.0)
    clock.restore(table, now=50.0, wall=1030.0, clock_from={})
    assert table.decisions[0].since == 50.0


def test_a_person_keeps_a_grace_after_a_long_outage_a_computer_does_not():
    table = _table()
    table.players[1] = Player(-1, "电脑", "zh", False, False)  # a computer player
    for seat in (0, 1):
        table.decisions[seat] = Decision(3, ("d:1",), (), since=50.0)
    pace = clock.Pace(action_timeout=60.0, autoplay_delay=1.0)
    # an hour down: the person's deadline is RESTART_GRACE away, the computer plays now
    clock.restore(table, now=50.0, wall=1000.0 + 3600, clock_from={}, pace=pace)
    assert clock.deadline(table, 0, pace) == 50.0 + clock.RESTART_GRACE
    assert clock.deadline(table, 1, pace) < 50.0
