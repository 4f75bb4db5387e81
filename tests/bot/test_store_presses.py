"""The store's part for presses in flight (bot.telegram.journal) on every backend: kept
once however often a poll brings them, read back oldest first per bot, forgotten one by one."""

from __future__ import annotations

import pytest

from bot.store import Store


@pytest.fixture
def store(opened_store: Store) -> Store:
    return opened_store


async def test_presses_are_kept_once_per_bot_until_forgotten(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.keep_presses(7, [(12, '{"update_id": 12}'), (11, '{"update_id": 11}')])
        await tx.keep_presses(8, [(11, '{"other": "bot"}')])
    async with store.transaction() as tx:  # brought again (a redelivery): kept as it was
        await tx.keep_presses(7, [(11, '{"changed": true}')])
    assert await store.pending_presses(7) == [(11, '{"update_id": 11}'),
                                              (12, '{"update_id": 12}')]
    async with store.transaction() as tx:
        await tx.forget_press(7, 11)
        await tx.forget_press(7, 99)  # never kept: nothing to forget
    assert await store.pending_presses(7) == [(12, '{"update_id": 12}')]
    assert await store.pending_presses(8) == [(11, '{"other": "bot"}')]
