"""The table service without Telegram: write-ahead, forged and stale presses, 托管, replay."""

from __future__ import annotations

import random

import pytest
from support.service import PEOPLE, Clock, Observer, mover, seated

from bot.store import Store
from bot.table import Person, Refusal, TableService
from engine import player


@pytest.fixture
async def world(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    observer = Observer(tmp_path / "db.sqlite3")
    clock = Clock()
    service = TableService(store, observer, action_timeout=60, autoplay_delay=1.5, clock=clock,
                           rng=random.Random(3))
    yield service, observer, clock
    await store.close()


async def test_lobby_rules(world) -> None:
    service, observer, _ = world
    table = await service.open(-100, PEOPLE[0])
    with pytest.raises(Refusal, match="table_exists"):
        await service.open(-100, PEOPLE[1])
    with pytest.raises(Refusal, match="already_seated"):
        await service.join(table.id, PEOPLE[0])
    with pytest.raises(Refusal, match="seated_elsewhere"):
        await service.open(-200, PEOPLE[0])
    with pytest.raises(Refusal, match="need_seats"):
        await service.begin(table.id, PEOPLE[0].user_id)
    with pytest.raises(Refusal, match="not_seated"):
        await service.begin(table.id, PEOPLE[1].user_id)
    await service.join(table.id, PEOPLE[1])
    await service.leave(table.id, PEOPLE[1].user_id)
    await service.leave(table.id, PEOPLE[0].user_id)  # the last one out closes the table
    assert service.in_chat(-100) is None and observer.closed_tables == [table]


async def test_a_press_acts_for_the_pressers_own_seat_only(world) -> None:
    service, _, _ = world
    table = await seated(service)
    seat = mover(table)
    decision = table.decisions[seat]
    others = [p for s, p in enumerate(PEOPLE) if s != seat and not table.decisions[s].legal]
    before = (table.version, list(table.current.hand.log))
    for person in others:  # the same data pressed by another seated player
        with pytest.raises(Refusal, match="not_your_turn"):
            await service.act(table.id, person.user_id, decision.version, 0)
    with pytest.raises(Refusal, match="not_seated"):
        await service.act(table.id, 999, decision.version, 0)
    with pytest.raises(Refusal, match="stale"):
        await service.act(table.id, PEOPLE[seat].user_id, decision.version - 1, 0)
    with pytest.raises(Refusal, match="stale"):
        await service.act(table.id, PEOPLE[seat].user_id, decision.version, len(decision.legal))
    assert (table.version, list(table.current.hand.log)) == before
    answer = await service.act(table.id, PEOPLE[seat].user_id, decision.version, 0)
    assert answer.move == decision.legal[0]
    assert table.current.hand.log[-1] == (seat, answer.move)
    # the same press again is answered like the first and plays nothing
    assert await service.act(table.id, PEOPLE[seat].user_id, decision.version, 0) == answer
    assert table.current.hand.log[-1] == (seat, answer.move)
    assert len(table.current.hand.log) == len(before[1]) + 1


async def test_hands_play_to_the_end_and_reload_identically(world, tmp_path) -> None:
    service, observer, _ = world
    table = await seated(service)
    rng = random.Random(8)
    while table.status == "playing":
        seat = rng.choice([s for s, d in table.decisions.items() if d.legal])
        d = table.decisions[seat]
        await service.act(table.id, PEOPLE[seat].user_id, d.version, rng.randrange(len(d.legal)))
    assert table.status == "between" and observer.settled_hands == [table.current]
    for p in PEOPLE:
        await service.again(table.id, p.user_id)
    assert table.status == "playing" and table.current.no == 2
    for _ in range(5):
        seat = mover(table)
        await service.act(table.id, PEOPLE[seat].user_id, table.decisions[seat].version, 0)
    # a second service on the same database (a restart) rebuilds the same table
    fresh = TableService(service.store, observer, action_timeout=60, autoplay_delay=1.5)
    [again] = await fresh.load()
    assert again.current.hand.log == table.current.hand.log
    assert again.current.hand.public_view() == table.current.hand.public_view()
    assert (again.version, again.status, again.dealer) == (table.version, "playing", table.dealer)
    assert {s: p.user_id for s, p in again.players.items()} == \
        {s: p.user_id for s, p in table.players.items()}


async def test_timeout_puts_a_seat_in_tuoguan_and_plays_for_it(world) -> None:
    service, _, clock = world
    table = await seated(service)
    seat = mover(table)
    assert service.due_at(table) == clock.now + 60
    await service.play_due(table.id)  # too early: nothing happens
    assert table.current.hand.log == []
    clock.now += 60
    view = table.current.hand.private_view(seat)
    public = [e for e in table.current.hand.history if e.visible_to is None]
    await service.play_due(table.id)
    assert table.players[seat].autoplay
    assert table.current.hand.log[0] == (seat, player.choose(view, public))  # the policy's
    # from now on this seat is played after the short pause; taking control back resets it
    await service.take_back(table.id, PEOPLE[seat].user_id)
    assert not table.players[seat].autoplay


async def test_a_table_that_cannot_be_replayed_does_not_stop_the_others(world) -> None:
    service, observer, _ = world
    broken = await seated(service)
    await service.store.upsert_user(99, "D", None, "zh")
    fine = await service.open(-200, Person(99, "D", "zh"))
    async with service.store.transaction() as tx:
        await tx.append_action(broken.current.id, 0, "bogus")
    fresh = TableService(service.store, observer, action_timeout=60, autoplay_delay=1.5)
    assert [t.id for t in await fresh.load()] == [fine.id]
