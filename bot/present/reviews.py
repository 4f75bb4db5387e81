"""复盘 sent to a private chat: one seat's review of a finished hand, asked for with 🔍 复盘.

The review (``engine.review.review_hand`` of that seat alone, from its own view) costs up to
about a second of CPU (``bench/bench_review.py``), so it is computed in a worker thread, and
in a queue of its own beside the chat's outbox: the chat's hand messages of a new hand never
wait behind it. Then the chat's outbox sends the text and the pictures of the flagged moments
(:mod:`bot.present.screens.review`; drawn on the renderer's thread), paced like any answer.
A review already on its way to a chat is not computed twice.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.pacing import Send, goes_first
from bot.present.screens.review import moment_caption, pictured, review_text
from bot.store import PlayedHand
from engine.review import Review, review_hand
from render.review import render_moment


def record_of(played: PlayedHand) -> dict[str, Any]:
    """The hand's record as ``engine.review`` reads it (the fields /export writes for it)."""
    return {"rules": played.rule_set, "seed": played.seed, "dealer": played.dealer,
            "base": played.base, "log": [list(entry) for entry in played.log]}


def review_of(played: PlayedHand, seat: int, lang: str) -> Review:
    """The seat's 复盘 of the finished hand, in ``lang``."""
    return review_hand(record_of(played), seat=seat, lang=lang)


class Reviews:
    def __init__(self, chats: Chats, courier: Courier) -> None:
        self.chats = chats
        self.courier = courier
        self._pending: set[tuple[int, int]] = set()  # (user, hand) being computed or sent

    def send(self, user_id: int, played: PlayedHand, seat: int, lang: str) -> bool:
        """Queue the review of ``seat`` (the user's own) of the hand for the user's private
        chat; False when it is already on its way there."""
        key = (user_id, played.id)
        if key in self._pending:
            return False
        self._pending.add(key)

        async def compute() -> int:
            try:
                review = await asyncio.to_thread(review_of, played, seat, lang)
            except BaseException:
                self._pending.discard(key)
                raise

            async def deliver() -> int:
                try:
                    return await self._deliver(user_id, played, seat, review, lang)
                finally:
                    self._pending.discard(key)
            self.chats.put(user_id, ("review", played.id), deliver)
            return 0  # nothing sent here: nothing to pace
        self.chats.put(("review", user_id), played.id, compute)
        return True

    async def _deliver(self, user_id: int, played: PlayedHand, seat: int, review: Review,
                       lang: str) -> int:
        """The text, then one picture per flagged moment; returns the messages sent."""
        await self._slot(user_id)
        await self.courier.send_message(user_id, review_text(review, seat, played, lang))
        sent = 1
        for step in pictured(review, seat):
            picture = await self.chats.render(render_moment, review, seat, step, played.names)
            await self._slot(user_id)
            await self.courier.send_photo(user_id, picture,
                                          caption=moment_caption(review, seat, step, lang))
            sent += 1
        return sent

    async def _slot(self, user_id: int) -> None:
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, Send.ANSWER),
                                   key=user_id)
