"""One-off messages in a chat: a text (with a row of buttons or links), a picture answering a
command, a file, a replay step. Each is queued in its chat's outbox and built in the chat's
language when its turn comes."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Hashable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import Forbidden

from bot.i18n import t
from bot.present import replays
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.fit import MAX_CAPTION, MAX_TEXT, split_lines, utf16_len
from bot.present.pacing import Send, goes_first
from bot.present.screens.review import review_row
from bot.store import PlayedHand

log = logging.getLogger(__name__)

class Notes:
    def __init__(self, chats: Chats, courier: Courier) -> None:
        self.chats = chats
        self.courier = courier
        self._ids = itertools.count()

    def key(self) -> Hashable:
        """A new note's outbox key (notes beyond the outbox's few waiting are dropped)."""
        return "note", next(self._ids)

    async def _slot(self, target: int) -> None:
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, Send.ANSWER),
                                   key=target)

    def note(self, chat_id: int, text_of: Callable[[str], str], *, lang: str | None = None,
             buttons_of: Callable[[str], Sequence[tuple[str, str]]] | None = None,
             thread_id: int | None = None) -> None:
        """A one-off text in a chat (in its forum topic ``thread_id``, if any); ``text_of(lang)``
        builds it (dropped if too many wait), in ``lang`` or the chat's language, with one row
        of (label, callback data) buttons from ``buttons_of(lang)`` if given (a question:
        确认 / 取消)."""
        def markup_of(chosen: str) -> InlineKeyboardMarkup | None:
            return None if buttons_of is None else InlineKeyboardMarkup(
                [[InlineKeyboardButton(text, callback_data=data)
                  for text, data in buttons_of(chosen)]])
        self.keyboard_note(chat_id, text_of, markup_of, lang=lang, thread_id=thread_id)

    def keyboard_note(self, chat_id: int, text_of: Callable[[str], str],
                      markup_of: Callable[[str], InlineKeyboardMarkup | None], *,
                      lang: str | None = None, thread_id: int | None = None) -> None:
        """A one-off text with the keyboard ``markup_of(lang)`` builds (a list of tables with
        their seat buttons), queued like a note."""
        async def job() -> int:
            target = self.chats.now(chat_id)
            chosen = await self.chats.lang_of(target, lang)
            await self._slot(target)
            await self.courier.send_message(target, text_of(chosen), reply_markup=markup_of(chosen),
                                            message_thread_id=thread_id)
            return 1
        self.chats.put(chat_id, self.key(), job)

    def link_note(self, chat_id: int, text_of: Callable[[str], str],
                  links_of: Callable[[str], Sequence[tuple[str, str]]], *, lang: str | None = None,
                  key: Hashable | None = None) -> None:
        """A one-off text with one row of (label, URL) buttons (a deep link: 添加到群组, or
        入座 at a table), queued like a note; under ``key`` (if given) a later one replaces
        one still waiting. A private chat that refuses it (the user blocked the bot) is
        logged and skipped."""
        async def job() -> int:
            target = self.chats.now(chat_id)
            chosen = await self.chats.lang_of(target, lang)
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(text, url=url)
                                            for text, url in links_of(chosen)]])
            await self._slot(target)
            try:
                await self.courier.send_message(target, text_of(chosen), reply_markup=markup)
            except Forbidden as e:
                log.info("chat %s refused a note: %s", target, e)
            return 1
        self.chats.put(chat_id, key if key is not None else self.key(), job)

    def document(self, chat_id: int, name: str, data: bytes,
                 caption_of: Callable[[str], str], *, lang: str | None = None,
                 thread_id: int | None = None) -> None:
        """A file in a chat (``/export``, ``/rules``; in its forum topic ``thread_id``, if
        any), queued like a note; its caption in ``lang`` or the chat's language."""
        async def job() -> int:
            target = self.chats.now(chat_id)
            chosen = await self.chats.lang_of(target, lang)
            await self._slot(target)
            await self.courier.send_document(target, InputFile(data, filename=name),
                                             caption=caption_of(chosen),
                                             message_thread_id=thread_id)
            return 1
        self.chats.put(chat_id, self.key(), job)

    def photo(self, chat_id: int, draw: Callable[[str], bytes],
              caption_of: Callable[[str], str], *, lang: str | None = None,
              thread_id: int | None = None) -> None:
        """A picture answering a command (/rank, /me; in its forum topic ``thread_id``, if
        any), queued like a note: ``draw(lang)`` paints it on the render thread, its caption
        (the same in words, for search and screen readers) is ``caption_of(lang)``; one too
        long for a caption follows the picture as text, in as many messages as it takes."""
        async def job() -> int:
            target = self.chats.now(chat_id)
            chosen = await self.chats.lang_of(target, lang)
            picture = await self.chats.render(draw, chosen)
            caption = caption_of(chosen)
            fits = utf16_len(caption) <= MAX_CAPTION
            await self._slot(target)
            await self.courier.send_photo(target, picture, caption=caption if fits else None,
                                          message_thread_id=thread_id)
            if fits:
                return 1
            parts = split_lines(caption, MAX_TEXT)  # too long for a caption: the text follows
            for part in parts:
                await self._slot(target)
                await self.courier.send_message(target, part, message_thread_id=thread_id)
            return 1 + len(parts)
        self.chats.put(chat_id, self.key(), job)

    def replay(self, chat_id: int, played: PlayedHand, step: int, *, lang: str | None = None,
               thread_id: int | None = None, message_id: int | None = None,
               link: str | None = None) -> None:
        """A replay message (:mod:`bot.present.replays`) at ``step``, with 🔍 复盘 under its
        stepper (the presser's own review, if he sat at the hand): a new one, or an edit of
        the one ``message_id``; with ``link`` (a group's), a last row opening the same
        replay in the viewer's private chat. Edits of one message share a key in the chat's outbox, so a
        press while an edit waits its turn replaces it: rapid presses cost few edits, paced
        like any other, and the last one shows the last step asked for."""
        async def job() -> int:
            target = self.chats.now(chat_id)
            chosen = await self.chats.lang_of(target, lang)
            picture = await self.chats.render(replays.picture, played, step, chosen)
            caption = replays.caption(played, step, chosen)
            rows = [*replays.buttons(played, step), review_row(played.id, chosen)]
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(text, callback_data=data) for text, data in row]
                 for row in rows]
                + ([[InlineKeyboardButton(t(chosen, "btn_replay_dm"), url=link)]]
                   if link is not None else []))
            await self._slot(target)
            if message_id is None:
                await self.courier.send_photo(target, picture, caption=caption,
                                              reply_markup=markup, message_thread_id=thread_id)
            else:
                await self.courier.edit_media(target, message_id, picture, caption, markup)
            return 1
        key = self.key() if message_id is None else ("replay", message_id)
        self.chats.put(chat_id, key, job)
