"""Presses in flight (bot.telegram.journal) on every backend: kept once however often a
poll brings them, read back oldest first per bot, forgotten one by one; a start replays each
press left once."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Update

from bot.store import Store
from bot.telegram.journal import PressJournal


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


async def test_a_start_replays_each_press_left_once(store: Store) -> None:
    """What a killed run left is queued once; the same press sent again by Telegram (killed
    between keeping it and the next poll) is neither kept again nor handled twice."""
    press = {"update_id": 5, "callback_query": {
        "id": "q5", "chat_instance": "1", "data": "a:1:0:0",
        "from": {"id": 1, "is_bot": False, "first_name": "Ann"}}}
    left = PressJournal()
    left.open(store, 7)
    await left.keep([press, {"update_id": 6, "message": {}}])  # presses only
    assert [u for u, _ in await store.pending_presses(7)] == [5]

    journal = PressJournal()  # the next start
    journal.open(store, 7)
    queue: asyncio.Queue[object] = asyncio.Queue()
    assert await journal.replay(None, queue) == 1  # type: ignore[arg-type]
    replayed = queue.get_nowait()
    assert isinstance(replayed, Update) and replayed.callback_query is not None
    assert replayed.callback_query.data == "a:1:0:0"
    again = Update.de_json(press, None)  # type: ignore[arg-type]
    assert journal.again(again) and not journal.again(replayed)
    await journal.answered(replayed)
    await journal.keep([press])  # Telegram's copy is not kept again
    assert await store.pending_presses(7) == []
