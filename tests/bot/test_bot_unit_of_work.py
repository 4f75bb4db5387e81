"""The unit of work (bot.table.work): after every commit the observer is told and the clock
re-armed whatever the caller then does; a change that rolls back leaves the table in memory
as the store holds it."""

from __future__ import annotations

import random

import pytest
from support.service import PEOPLE, Clock, Observer, mover, seated

from bot.store import Store
from bot.table import Refusal, Table, TableService, TableStatus, play


class Armed(Observer):
    """Records, at each ``changed``, what the timers would be armed for."""

    def __init__(self, db_path, service_of) -> None:  # type: ignore[no-untyped-def]
        super().__init__(db_path)
        self.service_of = service_of
        self.armed: list[tuple[int, float | None]] = []

    def changed(self, table: Table) -> None:
        super().changed(table)
        self.armed.append((table.version, self.service_of().due_at(table)))


@pytest.fixture
async def world(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    services: list[TableService] = []
    observer = Armed(tmp_path / "db.sqlite3", lambda: services[0])
    services.append(TableService(store, observer, action_timeout=60, autoplay_delay=1.5,
                                 clock=Clock(), rng=random.Random(3)))
    yield services[0], observer, store
    await store.close()


async def test_a_raise_after_the_commit_still_refreshes_and_rearms(world, monkeypatch) -> None:
    service, observer, store = world
    table = await seated(service)
    seat = mover(table)
    decision = table.decisions[seat]
    before = len(observer.armed)

    def broken(*args: object) -> None:
        raise RuntimeError("the answer could not be worded")
    monkeypatch.setattr(play, "press_answer", broken)
    with pytest.raises(RuntimeError):
        await service.act(table.id, PEOPLE[seat].user_id, decision.version, 0)
    # the move counts, is shown, and the next decision is timed
    assert table.current.hand.log[-1] == (seat, decision.legal[0])
    assert (await store.last_hand(table.id)).log[-1] == (seat, decision.legal[0])
    assert observer.armed[before:] == [(table.version, service.due_at(table))]
    assert service.due_at(table) is not None


async def test_a_failure_after_a_write_rolls_back_and_reloads(world) -> None:
    service, observer, store = world
    table = await seated(service)
    log, version, changes = list(table.current.hand.log), table.version, observer.changes
    seat = mover(table)
    with pytest.raises(Refusal, match="store_failed"):
        async with service.work.change(table.id) as (same, tx):
            await service._apply(tx, same, seat, same.decisions[seat].legal[0], auto=False)
            raise RuntimeError("a failure after the move was written")
    # the move was rolled back in the store and in memory, and every seat is shown again
    assert table.current.hand.log == log == list((await store.last_hand(table.id)).log)
    assert table.version == version and table.status == TableStatus.PLAYING
    assert observer.changes == changes + 1
    assert observer.armed[-1] == (version, service.due_at(table))
    answer = await service.act(table.id, PEOPLE[seat].user_id, table.decisions[seat].version, 0)
    assert answer.key in ("played", "claim_pending")  # the reloaded decision works


async def test_a_refusal_before_any_write_changes_and_tells_nothing(world) -> None:
    service, observer, _ = world
    table = await seated(service)
    changes, version = observer.changes, table.version
    with pytest.raises(Refusal, match="already_seated"):
        await service.join(table.id, PEOPLE[0])
    with pytest.raises(Refusal, match="in_play"):
        await service.again(table.id, PEOPLE[1].user_id)
    assert observer.changes == changes and table.version == version
