"""Leaving (issue #10.3, #10.9): anyone leaving starts a new 局 (the next dealer is drawn again,
the 荒庄 count restarts), kept over a restart; the opener leaving hands the table on."""

from __future__ import annotations

import random

import pytest

from bot.store import Store
from bot.tables import Person, Table, TableService
from tests.test_bot_tables import PEOPLE, Clock, _Observer, seated

SEED = 7


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in [*PEOPLE, DAVE]:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    yield TableService(store, _Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                       autoplay_delay=1.5, clock=Clock(), seed=SEED)
    await store.close()


DAVE = Person(40, "D", "zh")


async def finish(service: TableService, table: Table) -> None:
    rng = random.Random(5)
    while table.status == "playing":
        seat = rng.choice([s for s, d in table.decisions.items() if d.legal])
        d = table.decisions[seat]
        await service.act(table.id, PEOPLE[seat].user_id, d.version, rng.randrange(len(d.legal)))


async def restarted(service: TableService) -> Table:
    fresh = TableService(service.store, service.observer, action_timeout=60,
                         autoplay_delay=1.5, seed=SEED)
    [table] = await fresh.load()
    return table


def first_dealer(table: Table, no: int) -> int:
    """The dealer drawn for hand ``no`` of a new 局 (the seeded source: see TableService)."""
    return random.Random(f"{SEED}:{table.id}:{no}").randrange(3)


@pytest.mark.parametrize("how", ["leave", "escape"])
async def test_a_player_leaving_starts_a_new_ju(service, how: str) -> None:
    table = await seated(service)
    if how == "leave":
        await finish(service, table)
        table.draws_in_row = 2  # as after two 荒庄 in a row
        async with service.store.transaction() as tx:
            await tx.update_table(table.id, draws_in_row=2)
    carried = table.dealer  # the next dealer as the finished (or running) hand left it
    assert carried is not None
    assert first_dealer(table, 2) != carried  # these seeds tell a drawn dealer from it
    await service.leave(table.id, PEOPLE[2].user_id)  # 逃跑 if the hand is on
    assert (table.status, table.dealer, table.draws_in_row) == ("lobby", None, 0)
    again = await restarted(service)  # kept in the store
    assert (again.dealer, again.draws_in_row) == (None, 0)
    await service.join(table.id, DAVE)
    await service.begin(table.id, PEOPLE[0].user_id)
    assert table.current.no == 2
    assert table.current.hand.dealer == first_dealer(table, 2)  # drawn, as the first was


async def test_the_opener_leaving_hands_the_table_to_the_next_seated(service) -> None:
    table = await service.open(-100, PEOPLE[0])
    await service.add_robot(table.id, PEOPLE[0].user_id, "zh")  # a computer never opens
    await service.join(table.id, PEOPLE[1])
    await service.leave(table.id, PEOPLE[0].user_id)
    assert table.opener_id == PEOPLE[1].user_id
    assert (await restarted(service)).opener_id == PEOPLE[1].user_id
    await service.stop(table.id, PEOPLE[1].user_id, is_admin=False)  # and may close it
    assert table.status == "closed"
