"""The presenter's door to the Bot API: every message, picture, file and edit it (and what
sends through it: votes, notes) makes goes through a :class:`Courier`. Every text and caption
is cut to Telegram's limits here (:mod:`bot.present.fit`), whoever wrote it. Edits that would
change nothing pass quietly; a message already gone is deleted quietly. It notes when each
chat's latest message-or-edit went out (``sent_at``): a private chat's outbox paces its
calls from there (:class:`~bot.present.outbox.Outbox`), not from the answer a round trip
later."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram import Bot, ChatFullInfo, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from bot.present.errors import not_modified
from bot.present.fit import MAX_CAPTION, MAX_TEXT, fit, fit_html

log = logging.getLogger(__name__)


class Courier:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.sent_at: dict[int, float] = {}  # chat -> loop time its latest call went out

    def _sending(self, chat_id: int) -> None:
        self.sent_at[chat_id] = asyncio.get_running_loop().time()

    # --- the Bot API's own calls ---------------------------------------------------------

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> Message:
        text = _fitted(text, MAX_TEXT, kwargs)
        self._sending(chat_id)
        return await self.bot.send_message(chat_id, text, **kwargs)

    async def send_photo(self, chat_id: int, photo: bytes, *, caption: str | None = None,
                         **kwargs: Any) -> Message:
        caption = None if caption is None else _fitted(caption, MAX_CAPTION, kwargs)
        self._sending(chat_id)
        return await self.bot.send_photo(chat_id, photo, caption=caption, **kwargs)

    async def send_document(self, chat_id: int, document: Any, *, caption: str | None = None,
                            **kwargs: Any) -> Message:
        caption = None if caption is None else _fitted(caption, MAX_CAPTION, kwargs)
        self._sending(chat_id)
        return await self.bot.send_document(chat_id, document, caption=caption, **kwargs)

    async def edit_message_text(self, text: str, chat_id: int, message_id: int,
                                **kwargs: Any) -> object:
        text = _fitted(text, MAX_TEXT, kwargs)
        self._sending(chat_id)
        return await self.bot.edit_message_text(text, chat_id, message_id, **kwargs)

    async def edit_message_caption(self, chat_id: int, message_id: int, *, caption: str,
                                   **kwargs: Any) -> object:
        caption = _fitted(caption, MAX_CAPTION, kwargs)
        self._sending(chat_id)
        return await self.bot.edit_message_caption(chat_id, message_id, caption=caption,
                                                   **kwargs)

    async def get_chat(self, chat_id: int) -> ChatFullInfo:
        return await self.bot.get_chat(chat_id)

    # --- edits and deletions that may find nothing to do ----------------------------------

    async def edit_text(self, chat_id: int, message_id: int, text: str,
                        markup: InlineKeyboardMarkup | None, **kwargs: Any) -> None:
        try:
            await self.edit_message_text(text, chat_id, message_id, reply_markup=markup,
                                         **kwargs)
        except BadRequest as e:
            if not not_modified(e):
                raise

    async def edit_caption(self, chat_id: int, message_id: int, caption: str,
                           markup: InlineKeyboardMarkup | None, **kwargs: Any) -> None:
        try:
            await self.edit_message_caption(chat_id, message_id, caption=caption,
                                            reply_markup=markup, **kwargs)
        except BadRequest as e:
            if not not_modified(e):
                raise

    async def edit_media(self, chat_id: int, message_id: int, photo: bytes, caption: str,
                         markup: InlineKeyboardMarkup | None) -> None:
        media = InputMediaPhoto(photo, caption=fit(caption, MAX_CAPTION))
        self._sending(chat_id)
        try:
            await self.bot.edit_message_media(media, chat_id, message_id, reply_markup=markup)
        except BadRequest as e:
            if not not_modified(e):
                raise

    async def delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.delete_message(chat_id, message_id)
        except (BadRequest, Forbidden) as e:
            log.info("could not delete message %s in %s: %s", message_id, chat_id, e)

    async def probe(self, user_id: int, text: str) -> bool:
        """Send a private message; False when the user has not opened the bot (403)."""
        try:
            await self.send_message(user_id, text)
        except Forbidden:
            return False
        return True


def _fitted(text: str, limit: int, kwargs: dict[str, Any]) -> str:
    """``text`` cut to ``limit``; an HTML text cut loses its markup (its ``parse_mode`` in
    ``kwargs`` goes)."""
    if kwargs.get("parse_mode") != ParseMode.HTML:
        return fit(text, limit)
    text, kept = fit_html(text, limit)
    if not kept:
        kwargs["parse_mode"] = None
    return text
