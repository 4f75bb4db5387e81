"""A competition's card in its group (a 复式挑战's, a 群杯's): sent once, then edited in place
only when its text changed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable

from telegram import InlineKeyboardMarkup

from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.pacing import Send, goes_first


class Cards:
    def __init__(self, chats: Chats, courier: Courier) -> None:
        self.chats = chats
        self.courier = courier
        self._texts: dict[Hashable, str] = {}  # the text shown, by card

    async def slot(self, target: int) -> None:
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, Send.ANSWER), key=target)

    async def show(self, key: Hashable, target: int, thread_id: int | None,
                   msg_id: int | None, text: str, markup: InlineKeyboardMarkup | None,
                   remember: Callable[[int], Awaitable[None]]) -> int:
        """The card ``key`` in chat ``target`` as ``text``: a new message (its id given to
        ``remember``) when ``msg_id`` is None, else an edit; the calls made."""
        if self._texts.get(key) == text:
            return 0
        await self.slot(target)
        if msg_id is None:
            msg = await self.courier.send_message(target, text, reply_markup=markup,
                                                  message_thread_id=thread_id)
            await remember(msg.message_id)
        else:
            await self.courier.edit_text(target, msg_id, text, markup)
        self._texts[key] = text
        return 1
