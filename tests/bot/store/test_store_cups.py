"""The store's part for 群杯 on every backend: a cup's row and state read back, one open cup
per group (the schema's index refuses a second), the bot's live cups (a done one until its
final card is posted), a group's upgrade moving its cup, and a table's results."""

from __future__ import annotations

import pytest
from support.postgres import INTEGRITY_ERRORS

from bot.store import Store
from bot.store.posts import Slot

GROUP = -100


@pytest.fixture
def store(opened_store: Store) -> Store:
    return opened_store


async def test_cups_read_back_on_every_backend(store: Store) -> None:
    async with store.transaction() as tx:
        cid = await tx.add_cup(7, GROUP, None, 1, '{"a": 1}', 10.0)
    with pytest.raises(INTEGRITY_ERRORS):  # one open one a group
        async with store.transaction() as tx:
            await tx.add_cup(7, GROUP, None, 2, "{}", 11.0)
    row = await store.open_cup(GROUP)
    assert row is not None and (row.id, row.status, row.state) == (cid, "signup", '{"a": 1}')
    assert await store.kept(Slot.CUP_CARD, cid, GROUP) is None
    async with store.transaction() as tx:
        await tx.set_cup(cid, state='{"b": 2}', status="playing")
        await tx.set_post(Slot.CUP_CARD, (cid, GROUP), 5)
        await tx.move_chat(GROUP, GROUP - 1)
    assert await store.open_cup(GROUP) is None
    moved = await store.open_cup(GROUP - 1)
    assert moved is not None and (moved.status, moved.state) == ("playing", '{"b": 2}')
    assert await store.kept(Slot.CUP_CARD, cid, GROUP) == 5  # in the chat it was made in
    assert await store.kept(Slot.CUP_CARD, cid, GROUP - 1) is None
    async with store.transaction() as tx:
        await tx.set_cup(cid, status="done")
    assert await store.open_cup(GROUP - 1) is None
    assert [r.id for r in await store.live_cups(7)] == [cid]  # its final card is due
    assert await store.live_cups(8) == []
    async with store.transaction() as tx:
        await tx.set_post(Slot.CUP_FINAL, (cid, GROUP - 1), 6)
        second = await tx.add_cup(7, GROUP - 1, 3, 1, "{}", 12.0)  # the group's next cup
    assert [r.id for r in await store.live_cups(7)] == [second]
    assert await store.table_results(12345) == (0, {})
