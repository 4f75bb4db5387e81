"""The store's units of work that need nothing of their callers but arguments, each in a
transaction of its own: a message id kept (:mod:`bot.present.posts`), a vote opened or
dropped (:mod:`bot.present.votes`), a subscriber's note marked (:mod:`bot.present.notify`), a
press in flight kept or forgotten (:mod:`bot.telegram.journal`), a group moved and tables
claimed (:mod:`bot.table.registry`), ratings saved and a seat's review kept
(:mod:`bot.table.rater`, :mod:`bot.table.reviewer`), a 群杯 or a 复式挑战 and its players
written (:mod:`bot.table.cup_service`, :mod:`bot.table.challenge_service`). Their callers
open no transaction."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.challenges import ChallengeMove
from bot.store.posts import Slot
from bot.store.reads import Queries
from bot.store.skill import SkillState


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

    async def move_group(self, old: int, new: int, table_ids: Sequence[int]) -> None:
        """A group became a supergroup (``old`` id -> ``new``): its rows move
        (:meth:`bot.store.writes.Writes.move_chat`) and the group messages of the tables
        ``table_ids`` are forgotten, as one."""
        async with self.transaction() as tx:
            await tx.move_chat(old, new)
            for table_id in table_ids:
                await tx.leave_group_posts(table_id)

    async def claim_tables(self, bot_id: int) -> int:
        """The open tables no bot owns yet become ``bot_id``'s; how many."""
        async with self.transaction() as tx:
            return await tx.claim_tables(bot_id)

    async def save_ratings_over(self, state: SkillState, rule_set: str,
                                ratings: list[tuple[int, float, float, int]],
                                keys: list[int]) -> bool:
        """The ratings folded from the rule set's ``state`` written
        (:meth:`bot.store.skill.SkillWrites.save_ratings`), under the ratings' lock, unless
        another bot wrote since ``state`` was read: False, and nothing written."""
        async with self.transaction() as tx:
            await tx.lock_skill()
            if await tx.skill_state(rule_set) != state:
                return False
            await tx.save_ratings(rule_set, ratings, keys, state.seq + 1, state.stale)
        return True

    async def add_seat_review(self, hand_id: int, seat: int, user_id: int, decisions: int,
                              loss: float) -> None:
        """A seat's review kept (:meth:`bot.store.skill.SkillWrites.add_seat_review`)."""
        async with self.transaction() as tx:
            await tx.add_seat_review(hand_id, seat, user_id, decisions, loss)

    async def add_cup(self, bot_id: int, chat_id: int, thread_id: int | None, opener_id: int,
                      state: str, at: float) -> int:
        """A new 群杯 (:meth:`bot.store.cups.CupWrites.add_cup`); its id. Raises when the
        group has an open one already (the schema's one open cup a group)."""
        async with self.transaction() as tx:
            return await tx.add_cup(bot_id, chat_id, thread_id, opener_id, state, at)

    async def set_cup(self, cup_id: int, *, state: str | None = None,
                      status: str | None = None) -> None:
        """A cup's state or status (those given) written."""
        async with self.transaction() as tx:
            await tx.set_cup(cup_id, state=state, status=status)

    async def add_challenge(self, bot_id: int, chat_id: int, thread_id: int | None,
                            opener_id: int, rules: str, seeds: Sequence[int], deadline: float,
                            at: float) -> int:
        """A new 复式挑战 (:meth:`bot.store.challenges.ChallengeWrites.add_challenge`); its
        id. Raises when the group has an open one already."""
        async with self.transaction() as tx:
            return await tx.add_challenge(bot_id, chat_id, thread_id, opener_id, rules, seeds,
                                          deadline, at)

    async def end_challenge(self, challenge_id: int) -> bool:
        """The challenge closed; False when it was already."""
        async with self.transaction() as tx:
            return await tx.end_challenge(challenge_id)

    async def add_challenge_player(self, challenge_id: int, user_id: int, name: str, lang: str,
                                   at: float) -> None:
        """He starts the challenge."""
        async with self.transaction() as tx:
            await tx.add_challenge_player(challenge_id, user_id, name, lang, at)

    async def set_challenge_player(self, challenge_id: int, user_id: int, *,
                                   status: str) -> None:
        """His status in the challenge."""
        async with self.transaction() as tx:
            await tx.set_challenge_player(challenge_id, user_id, status=status)

    async def add_challenge_move(self, challenge_id: int, user_id: int, move: ChallengeMove,
                                 status: str | None = None) -> None:
        """His move kept, and with it his new status when given (his last deal played)."""
        async with self.transaction() as tx:
            await tx.add_challenge_move(challenge_id, user_id, move)
            if status is not None:
                await tx.set_challenge_player(challenge_id, user_id, status=status)
