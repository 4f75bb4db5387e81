"""The store's single writes for the presenter and the press journal, each in a transaction
of its own: a message id kept (:mod:`bot.present.posts`), a vote opened or dropped
(:mod:`bot.present.votes`), a subscriber's note marked (:mod:`bot.present.notify`), a press
in flight kept or forgotten (:mod:`bot.telegram.journal`). Their callers open no
transaction: the unit of work is the store's."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.posts import Slot
from bot.store.reads import Queries


class Units(Queries):
    """The single writes over :class:`bot.store.reads.Queries`, one transaction each."""

    async def set_post(self, slot: Slot, key: tuple[int, ...], msg_id: int | None) -> None:
        """The message id of a slot's post (:meth:`bot.store.posts.PostWrites.set_post`)."""
        async with self.transaction() as tx:
            await tx.set_post(slot, key, msg_id)

    async def add_vote(self, table_id: int, kind: str, proposer: int) -> int:
        """A vote opened at a table; its id."""
        async with self.transaction() as tx:
            return await tx.add_vote(table_id, kind, proposer)

    async def drop_vote(self, vote_id: int) -> None:
        """A vote over (carried, refused, timed out or cancelled by a restart)."""
        async with self.transaction() as tx:
            await tx.drop_vote(vote_id)

    async def mark_notified(self, table_id: int, user_id: int) -> bool:
        """Whether the subscriber was not told of the table yet (and now is marked told)."""
        async with self.transaction() as tx:
            return await tx.mark_notified(table_id, user_id)

    async def keep_presses(self, bot_id: int, presses: Sequence[tuple[int, str]]) -> None:
        """Presses (update id, JSON) kept until answered
        (:meth:`bot.store.presses.PressWrites.keep_presses`)."""
        async with self.transaction() as tx:
            await tx.keep_presses(bot_id, presses)

    async def forget_press(self, bot_id: int, update_id: int) -> None:
        """A press answered (or never to be)."""
        async with self.transaction() as tx:
            await tx.forget_press(bot_id, update_id)
