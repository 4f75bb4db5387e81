"""A standing table's lobby after a match, in the table service with a clock the test moves:
the seated keep their seat by 准备 within READY_TIMEOUT or are unseated; it deals by itself
once full of ready players; the wait survives a restart; a club's 自动准备 leaves everyone
ready at once."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from support.service import PEOPLE, Clock, Counting

from bot.store import ClubSettings, Store
from bot.table import Table, TableService, TableStatus
from bot.table.lobby import awaits_ready
from engine.rules import table_rules

READY, FULL = 30.0, 10.0
GROUP = -100
A = PEOPLE[0]


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await opened.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    yield opened
    await opened.close()


def service_of(store: Store, clock: Clock) -> TableService:
    return TableService(store, Counting(), action_timeout=5, autoplay_delay=1,
                        ready_timeout=READY, full_start_delay=FULL, clock=clock,
                        rng=random.Random(3))


async def run_clock(service: TableService, table: Table, clock: Clock,
                    until: object) -> None:
    """Move the clock to whatever is due next and play it, until ``until()``."""
    for _ in range(5000):
        if until():  # type: ignore[operator]
            return
        due = service.due_at(table)
        assert due is not None, "nothing due"
        clock.now = max(clock.now, due)
        await service.play_due(table.id)
    raise AssertionError("never came")


async def a_match(store: Store, clock: Clock) -> tuple[TableService, Table]:
    """A standing 湖南 2-seat table of 4-hand matches: A sits with a computer player and plays
    (in 托管) one match, pressing 再来一局 between hands."""
    service = service_of(store, clock)
    table = await service.open(GROUP, PEOPLE[2], table_rules("hunan", 2), match_hands=4,
                               standing=True)
    await service.join(table.id, A)
    await service.add_robot(table.id, A.user_id, "zh")
    for k in range(1, 5):
        await run_clock(service, table, clock, lambda k=k: table.current is not None
                        and table.current.match_place == (k, 4)
                        and table.current.hand.is_terminal())
        if k < 4:
            await service.again(table.id, A.user_id)
    assert table.status == TableStatus.LOBBY
    assert table.match is None and len(table.players) == 2
    return service, table


async def test_who_presses_ready_keeps_his_seat_and_it_deals_by_itself(store: Store) -> None:
    clock = Clock()
    service, table = await a_match(store, clock)
    assert awaits_ready(table) and service.due_at(table) == clock.now + READY
    clock.now += READY / 2
    await service.begin(table.id, A.user_id)  # 准备
    assert not awaits_ready(table) and service.due_at(table) == clock.now + FULL
    clock.now += FULL
    await service.play_due(table.id)
    assert table.status == TableStatus.PLAYING and table.match is not None
    assert table.match.hand_no == 1


async def test_who_walks_away_is_unseated_and_the_table_waits_empty(store: Store) -> None:
    clock = Clock()
    service, table = await a_match(store, clock)
    clock.now += READY - 1
    await service.play_due(table.id)
    assert len(table.players) == 2  # not yet
    clock.now += 1
    await service.play_due(table.id)
    assert not table.players and table.status == TableStatus.LOBBY  # the computer went too
    assert service.due_at(table) is None and table.standing
    await service.join(table.id, PEOPLE[1])  # a newcomer sits down ready
    assert table.players[0].ready and service.due_at(table) is None  # not full


async def test_the_wait_for_ready_starts_again_after_a_restart(store: Store) -> None:
    clock = Clock()
    _, table = await a_match(store, clock)
    clock.now += READY - 1
    again = service_of(store, clock)
    [loaded] = await again.load()
    assert awaits_ready(loaded) and again.due_at(loaded) == clock.now + READY
    await again.begin(loaded.id, A.user_id)
    third = service_of(store, clock)  # 准备 is stored: after another restart it deals
    [loaded] = await third.load()
    assert not awaits_ready(loaded) and third.due_at(loaded) == clock.now + FULL
    clock.now += FULL
    await third.play_due(loaded.id)
    assert loaded.status == TableStatus.PLAYING


async def test_auto_ready_leaves_everyone_ready_after_a_match(store: Store) -> None:
    await store.set_club_settings(GROUP, PEOPLE[2].user_id, ClubSettings(auto_ready=True))
    clock = Clock()
    service, table = await a_match(store, clock)
    assert not awaits_ready(table) and all(p.ready or p.robot for p in table.players.values())
    assert service.due_at(table) == clock.now + FULL  # full of ready players: it deals
    clock.now += FULL
    await service.play_due(table.id)
    assert table.status == TableStatus.PLAYING
