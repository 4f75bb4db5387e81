"""复盘 sent to a private chat: one seat's review of a finished hand, asked for with 🔍 复盘.

The review (``engine.review.review_hand`` of that seat alone, from its own view) costs up to
about a second of CPU (``bench/bench_review.py``), so it is computed in a worker thread, and
its pictures of the flagged moments drawn on the renderer's thread, in a queue of its own
beside the chat's outbox: the chat's hand messages of a new hand never wait behind it. Then
the chat's outbox sends the text and the pictures (:mod:`bot.present.screens.review`) one a
job, behind whatever else the chat has to send: a review pressed around 再来一局 does not hold
back the next deal. A review already on its way to a chat is not computed twice.
"""

from __future__ import annotations

import asyncio
from typing import Any

from telegram.error import RetryAfter

from bot.present.chats import Chats
from bot.present.courier import Courier
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
                pictures = [(await self.chats.render(render_moment, review, seat, step,
                                                     played.names),
                             moment_caption(review, seat, step, lang))
                            for step in pictured(review, seat)]
            except BaseException:
                self._pending.discard(key)
                raise
            text = review_text(review, seat, played, lang)
            self._deliver(user_id, played.id, [(None, text), *pictures])
            return 0  # nothing sent here: nothing to pace
        self.chats.put(("review", user_id), played.id, compute)
        return True

    def _deliver(self, user_id: int, hand_id: int,
                 messages: list[tuple[bytes | None, str]]) -> None:
        """Send the review's messages (a text, then the pictures with their captions) one
        job at a time, each queued once the one before it is sent and behind what the chat
        sends first: a new deal's hand, buttons or result queued meanwhile goes ahead, and
        waits at most for the one review message being sent, never the whole review (each
        message costs the chat a second of its pace). One 复盘 is one notification: its
        text's."""
        if not messages:
            self._pending.discard((user_id, hand_id))
            return
        (photo, text), rest = messages[0], messages[1:]

        async def one() -> int:
            try:
                await self.chats.gate.slot(urgent=False, key=user_id)
                if photo is None:
                    await self.courier.send_message(user_id, text)
                else:  # the text came with a notification: its pictures come silently
                    await self.courier.send_photo(user_id, photo, caption=text,
                                                  disable_notification=True)
            except RetryAfter:
                raise  # the outbox sends it again after the wait
            except BaseException:  # refused or lost: the rest is not sent, 复盘 may be asked again
                self._pending.discard((user_id, hand_id))
                raise
            self._deliver(user_id, hand_id, rest)
            return 1
        self.chats.outbox(user_id).put(("review", hand_id, len(rest)), one, first=False)
