"""The club's store on every backend (SQLite and PostgreSQL, ``store_url``): pairs kept apart
in a group (set once, undone once, moved with the group), a user found by his username in
any case and kept when a later write does not know it, the groups a user plays in, and a
standing table read back as such."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store, open_store

GROUP, OTHER_GROUP, NEW_GROUP = -100, -200, -300


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    s = await open_store(store_url)
    yield s
    await s.close()


async def test_pairs_kept_apart_per_group(store: Store) -> None:
    assert await store.set_apart(GROUP, 3, 1, by=9, on=True)
    assert not await store.set_apart(GROUP, 1, 3, by=9, on=True)  # the same pair
    assert await store.set_apart(GROUP, 1, 2, by=9, on=True)
    assert await store.set_apart(OTHER_GROUP, 2, 3, by=9, on=True)
    assert await store.apart_pairs(GROUP) == [(1, 2), (1, 3)]
    assert await store.apart_from(GROUP, 1) == {2, 3}
    assert await store.apart_from(GROUP, 3) == {1}  # not the other group's pair
    assert await store.set_apart(GROUP, 2, 1, by=9, on=False)
    assert not await store.set_apart(GROUP, 2, 1, by=9, on=False)
    assert await store.apart_pairs(GROUP) == [(1, 3)]
    async with store.transaction() as tx:  # the group became a supergroup
        await tx.move_chat(GROUP, NEW_GROUP)
    assert await store.apart_pairs(GROUP) == [] and await store.apart_pairs(NEW_GROUP) == [(1, 3)]


async def test_a_user_by_username_and_his_groups(store: Store) -> None:
    await store.upsert_user(1, "Alice", "Alice_X", "zh")
    await store.upsert_user(1, "Alice", None, "zh", dm_ok=True)  # a write that lacks it
    found = await store.user_by_username("alice_x")
    assert found is not None and found.user_id == 1 and found.dm_ok
    assert await store.user_by_username("bob") is None
    async with store.transaction() as tx:
        table_id = await tx.create_table(GROUP, 1, 1)
        await tx.update_table(table_id, standing=1)
        await tx.exec("INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins,"
                      " birds) VALUES (?, 'qq', 1, 5, 1, 1, 0)", GROUP)
        await tx.subscribe(OTHER_GROUP, 1, on=True)
    assert await store.groups_of(1) == {GROUP, OTHER_GROUP}
    assert await store.groups_of(2) == set()
    [row] = await store.open_tables()
    assert row.standing and row.id == table_id
