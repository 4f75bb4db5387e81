"""The order updates are handled in: concurrently, but each chat's and each user's in turn."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from contextlib import AsyncExitStack

from telegram import Update
from telegram.ext import BaseUpdateProcessor


class OrderedPerSender(BaseUpdateProcessor):
    """Updates handled concurrently, except that those of one chat or of one user keep
    their order (each waits for the earlier ones it shares a chat or a user with).

    Table changes take their table's lock, but opening a table (one per group and forum
    topic) and taking a seat (one table per user) are checked against other tables: two
    ``/new`` at once in one group would both pass the check. Moves come from each player's
    own chat, so the players of one table still press at the same time.
    """

    def __init__(self, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}  # key -> updates holding or awaiting its lock

    async def do_process_update(self, update: object, coroutine: Awaitable[object]) -> None:
        keys = sorted(_sender_keys(update))  # always in one order: no two wait on each other
        for key in keys:
            self._users[key] = self._users.get(key, 0) + 1
        try:
            async with AsyncExitStack() as held:
                for key in keys:
                    await held.enter_async_context(self._locks.setdefault(key, asyncio.Lock()))
                await coroutine
        finally:
            for key in keys:
                self._users[key] -= 1
                if not self._users[key]:
                    del self._users[key], self._locks[key]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


def _sender_keys(update: object) -> set[int]:
    """The chat and the user an update comes from (a private chat's id is its user's). A
    button press is only its user's: a button acts on the table it names, under its lock,
    so the three presses of 再来一局 in one group need not wait for each other's answers."""
    if not isinstance(update, Update):
        return set()
    chat, user = update.effective_chat, update.effective_user
    if update.callback_query is not None:
        chat = None
    return {x.id for x in (chat, user) if x is not None}
