"""Several bots on one store (SQLite and PostgreSQL, ``store_url``), each bot a table service
on a store of its own opened on the same database, as two processes would: a table is its
bot's, restart recovery serves only its bot's tables, tables from before bots were named are
the first bot's, one seat at a time across all bots (also when two bots seat a player at the
same moment), one table per group topic whichever bot opens it, and one group's hand numbers
however many bots deal in it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from support.service import Counting

from bot.store import Store, open_store
from bot.table import Person, Refusal, TableService
from bot.table.owners import ELSEWHERE

BOT_A, BOT_B = 111, 222
ALICE, BOB, CAROL, DAN = (Person(10 + i, n, "zh")
                          for i, n in enumerate(("Alice", "Bob", "Carol", "Dan")))
PLAYERS = [Person(20 + i, f"P{i}", "zh") for i in range(6)]
GROUP, OTHER_GROUP = -100, -200


def _service(store: Store, bot_id: int) -> TableService:
    return TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5, bot_id=bot_id,
                        seed=7)


@pytest.fixture
async def stores(store_url: str) -> AsyncIterator[tuple[Store, Store]]:
    a, b = await open_store(store_url), await open_store(store_url)
    yield a, b
    await a.close()
    await b.close()


@pytest.fixture
async def bots(stores: tuple[Store, Store]) -> tuple[TableService, TableService]:
    a, b = _service(stores[0], BOT_A), _service(stores[1], BOT_B)
    for person in (ALICE, BOB, CAROL, DAN, *PLAYERS):
        await stores[0].upsert_user(person.user_id, person.name, None, "zh")
    assert await a.load() == [] and await b.load() == []
    return a, b


async def test_each_bot_serves_its_own_tables_after_a_restart(
        bots: tuple[TableService, TableService], stores: tuple[Store, Store]) -> None:
    a, b = bots
    mine = await a.open(GROUP, ALICE)
    theirs = await b.open(OTHER_GROUP, BOB)
    assert [(t.id, t.bot_id) for t in await stores[0].open_tables()] == \
        [(mine.id, BOT_A), (theirs.id, BOT_B)]

    again_a, again_b = _service(stores[0], BOT_A), _service(stores[1], BOT_B)
    assert [t.id for t in await again_a.load()] == [mine.id]
    assert [t.id for t in await again_b.load()] == [theirs.id]
    assert again_a.in_chat(OTHER_GROUP) is None  # the other bot's group: not this bot's table
    with pytest.raises(Refusal, match="unknown_table"):  # a deep link to the other's table
        await again_a.join(theirs.id, CAROL)


async def test_tables_from_before_bots_were_named_are_the_first_bots(
        bots: tuple[TableService, TableService], stores: tuple[Store, Store]) -> None:
    async with stores[0].transaction() as tx:  # as a store one bot served alone left it
        old = await tx.create_table(GROUP, ALICE.user_id, 3)
        await tx.add_seat(old, 0, ALICE.user_id)
    a, b = _service(stores[0], BOT_A), _service(stores[1], BOT_B)
    assert [t.id for t in await a.load()] == [old]
    assert await b.load() == []
    assert [t.bot_id for t in await stores[1].open_tables()] == [BOT_A]


async def test_a_player_sits_at_one_table_across_all_bots(
        bots: tuple[TableService, TableService]) -> None:
    a, b = bots
    at_a = await a.open(GROUP, ALICE)
    at_b = await b.open(OTHER_GROUP, BOB)
    with pytest.raises(Refusal, match="seated_elsewhere"):
        await b.join(at_b.id, ALICE)
    with pytest.raises(Refusal, match="seated_elsewhere"):
        await b.open(OTHER_GROUP, ALICE, thread_id=5)
    assert [p.user_id for p in at_b.players.values()] == [BOB.user_id]  # nothing changed

    await a.leave(at_a.id, ALICE.user_id)
    await b.join(at_b.id, ALICE)
    assert [p.user_id for p in at_b.players.values()] == [BOB.user_id, ALICE.user_id]


async def test_two_bots_seating_one_player_at_once_seat_him_once(
        bots: tuple[TableService, TableService]) -> None:
    a, b = bots
    at_a = await a.open(GROUP, BOB)
    at_b = await b.open(OTHER_GROUP, CAROL)
    for _ in range(5):
        joined = await asyncio.gather(a.join(at_a.id, ALICE), b.join(at_b.id, ALICE),
                                      return_exceptions=True)
        refused = [r for r in joined if isinstance(r, Refusal)]
        assert len(refused) == 1 and refused[0].code == "seated_elsewhere", joined
        winner = at_a if refused[0] is joined[1] else at_b
        await (a if winner is at_a else b).leave(winner.id, ALICE.user_id)


async def test_one_table_per_topic_whichever_bot_opens_it(
        bots: tuple[TableService, TableService], stores: tuple[Store, Store]) -> None:
    a, b = bots
    await a.open(GROUP, ALICE)
    with pytest.raises(Refusal) as quiet:
        await b.open(GROUP, BOB)
    assert quiet.value.code == ELSEWHERE  # the other bot's table answers there
    await b.open(GROUP, BOB, thread_id=5)  # another topic of the group is free

    # both bots read the same /new in a third topic: one table, the second bot says nothing
    opened = await asyncio.gather(a.open(GROUP, CAROL, thread_id=9),
                                  b.open(GROUP, DAN, thread_id=9),
                                  return_exceptions=True)
    assert sorted(type(r).__name__ for r in opened) == ["Refusal", "Table"], opened
    assert next(r for r in opened if isinstance(r, Refusal)).code == ELSEWHERE
    assert [t.thread_id for t in await stores[0].open_tables()] == [None, 5, 9]


async def test_a_groups_hands_are_numbered_once_across_bots(
        bots: tuple[TableService, TableService]) -> None:
    a, b = bots
    tables = []
    for service, thread, three in ((a, 1, PLAYERS[:3]), (b, 2, PLAYERS[3:])):
        table = await service.open(GROUP, three[0], thread_id=thread)
        for person in three[1:]:
            await service.join(table.id, person)
        tables.append((service, table, three[0]))
    await asyncio.gather(*(s.begin(t.id, p.user_id) for s, t, p in tables))
    numbers = sorted(t.current.no for _, t, _ in tables if t.current is not None)
    assert numbers == [1, 2]
