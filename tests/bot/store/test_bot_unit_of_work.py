"""The unit of work (bot.table.work): after every commit the observer is told and the clock
re-armed whatever the caller then does; a change that rolls back leaves the table in memory
as the store holds it."""

from __future__ import annotations

import contextlib
import random

import pytest
from support.service import PEOPLE, Clock, Observer, mover, seated

from bot.store import Store, StoreUnavailable
from bot.table import Refusal, Table, TableService, TableStatus, play
from bot.table.work import RETRY_DELAY


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


async def test_a_change_the_store_cannot_take_shows_nothing_and_is_tried_again(
        world, monkeypatch) -> None:
    """The commit fails and the store cannot even be read (down): the table is put back as
    it was without it (the observer's write-ahead check holds at every telling), the same
    keyboard stays live, and the clock comes back; once the store is back the table is read
    again and plays on, its log numbered by the store."""
    service, observer, store = world
    table = await seated(service)
    seat = mover(table)
    decision, log, version = table.decisions[seat], list(table.current.hand.log), table.version
    real = store.transaction

    @contextlib.asynccontextmanager
    async def lost_commit():  # type: ignore[no-untyped-def]
        async with real() as tx:
            yield tx
            raise StoreUnavailable("connection lost at COMMIT")

    async def unreadable(_: Table) -> None:
        raise StoreUnavailable("connection refused")
    monkeypatch.setattr(store, "transaction", lost_commit)
    monkeypatch.setattr(service.registry, "reload", unreadable)
    with pytest.raises(Refusal, match="store_unavailable"):
        await service.act(table.id, PEOPLE[seat].user_id, decision.version, 0)
    assert table.current.hand.log == log and table.version == version
    assert table.decisions[seat] is decision
    assert observer.armed[-1] == (version, service.clock() + RETRY_DELAY)
    service.clock.now += RETRY_DELAY  # the clock's try, the store still down
    with pytest.raises(Refusal, match="store_unavailable"):
        await service.play_due(table.id)
    assert table.current.hand.log == log and observer.armed[-1][1] > service.clock()

    monkeypatch.undo()  # the store is back
    service.clock.now += RETRY_DELAY
    await service.play_due(table.id)
    assert not table.unsynced and service.due_at(table) == table.decisions[seat].since + 60
    answer = await service.act(table.id, PEOPLE[seat].user_id, table.decisions[seat].version, 0)
    assert answer.key in ("played", "claim_pending")
    assert table.current.hand.log == [*log, (seat, decision.legal[0])] \
        == list((await store.last_hand(table.id)).log)


async def test_a_table_read_again_keeps_its_hand_record(world) -> None:
    """A table read from the store again after a change that rolled back keeps its hand's
    record, updated in place: the presenter keys what each message of the hand shows by that
    object (bot.present.shown), and took a new one for another hand — a seat's held edit
    then told its player the hand was over."""
    service, _, store = world
    table = await seated(service)
    record, seat = table.current, mover(table)
    with pytest.raises(Refusal, match="store_failed"):
        async with service.work.change(table.id) as (same, tx):
            await service._apply(tx, same, seat, same.decisions[seat].legal[0], auto=False)
            raise RuntimeError("a failure after the move was written")
    assert table.current is record
    assert record.hand.log == list((await store.last_hand(table.id)).log)
    answer = await service.act(table.id, PEOPLE[seat].user_id, table.decisions[seat].version, 0)
    assert answer.key in ("played", "claim_pending")
    assert table.current is record and record.hand.log[-1][0] == seat
