"""The presenter's door to the Bot API: every message, picture, file and edit it (and what
sends through it: votes, notes) makes goes through a :class:`Courier`. Edits that would
change nothing pass quietly; a message already gone is deleted quietly."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Bot, ChatFullInfo, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import BadRequest, Forbidden

from bot.present.errors import not_modified

log = logging.getLogger(__name__)


class Courier:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    # --- the Bot API's own calls ---------------------------------------------------------

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> Message:
        return await self.bot.send_message(chat_id, text, **kwargs)

    async def send_photo(self, chat_id: int, photo: bytes, *, caption: str | None = None,
                         **kwargs: Any) -> Message:
        return await self.bot.send_photo(chat_id, photo, caption=caption, **kwargs)

    async def send_document(self, chat_id: int, document: Any, *, caption: str | None = None,
                            **kwargs: Any) -> Message:
        return await self.bot.send_document(chat_id, document, caption=caption, **kwargs)

    async def edit_message_text(self, text: str, chat_id: int, message_id: int,
                                **kwargs: Any) -> object:
        return await self.bot.edit_message_text(text, chat_id, message_id, **kwargs)

    async def edit_message_caption(self, chat_id: int, message_id: int, *, caption: str,
                                   **kwargs: Any) -> object:
        return await self.bot.edit_message_caption(chat_id, message_id, caption=caption,
                                                   **kwargs)

    async def edit_message_media(self, media: InputMediaPhoto, chat_id: int, message_id: int,
                                 **kwargs: Any) -> object:
        return await self.bot.edit_message_media(media, chat_id, message_id, **kwargs)

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
        try:
            await self.edit_message_media(InputMediaPhoto(photo, caption=caption), chat_id,
                                          message_id, reply_markup=markup)
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
