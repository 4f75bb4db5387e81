"""群杯 on Telegram's side of the presenter (a :class:`bot.table.cup_service.CupObserver`):
the group's card, edited in place (the sign-up list, then the standings after each round),
the final card (a new message), and the forum topic of each of the cup's tables.

The cards are jobs in the group's outbox under one key per cup, so a burst of changes is
one call made from the stored state when it runs (:mod:`bot.present.outbox`); both are
messages the posting room keeps (:mod:`bot.present.posts`): the card is edited only when its
text changed, the final card is posted once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.i18n import t
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.pacing import Send, goes_first
from bot.present.posts import Kept, Posts
from bot.present.screens import cup as screens
from bot.present.topics import create_topic
from bot.store import Store
from bot.store.cups import CupRow
from bot.store.posts import Slot
from bot.table import CupStatus
from bot.table.cups import Cup, standings

log = logging.getLogger(__name__)


class CupMessages:
    def __init__(self, chats: Chats, courier: Courier, store: Store, posts: Posts) -> None:
        self.chats = chats
        self.courier = courier
        self.store = store
        self.posts = posts

    async def _slot(self, target: int) -> None:
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, Send.ANSWER), key=target)

    def _card(self, shown: CupRow, slot: Slot, key: str,
              screen: Callable[[CupRow, Cup, str], tuple[str, InlineKeyboardMarkup | None]]
              ) -> None:
        """The cup's message ``slot`` in its group, as ``screen`` shows the stored cup."""
        cup_id = shown.id

        async def job() -> int:
            row = await self.store.cup(cup_id)
            if row is None:
                return 0
            target = self.chats.now(row.chat_id)
            text, keyboard = screen(row, Cup.loads(row.state), await self.chats.group_lang(target))
            return await self.posts.keep_text(Kept(slot, cup_id, target), self.courier,
                                              lambda: self._slot(target), text, keyboard,
                                              row.thread_id)
        self.chats.put(shown.chat_id, (key, cup_id), job, Send.CARD)

    def cup_card(self, shown: CupRow) -> None:
        self._card(shown, Slot.CUP_CARD, "cup", lambda row, cup, lang: (
            screens.card_text(row, cup, standings(cup), lang), screens.card_keyboard(row, lang)))

    def cup_waiting(self, shown: CupRow, table_no: int, users: list[int]) -> None:
        """Each of ``users``, whose table of the round is played while others still play,
        is told privately the cup and round, his place now and when the next round starts."""
        cup_id = shown.id
        for user_id in users:
            async def job(user_id: int = user_id) -> int:
                row = await self.store.cup(cup_id)
                if row is None or row.status != CupStatus.PLAYING:
                    return 0
                cup = Cup.loads(row.state)
                mine = next((s for s in standings(cup) if s.player.id == user_id), None)
                if mine is None:
                    return 0
                text = screens.waiting_text(row, cup, mine, table_no, mine.player.lang)
                try:
                    await self.courier.send_message(user_id, text)
                except TelegramError as e:  # he blocked the bot, say: the card has it all
                    log.info("cup %s: %s not told he waits: %s", cup_id, user_id, e)
                return 1
            self.chats.put(user_id, ("cup-wait", cup_id), job)

    def cup_over(self, shown: CupRow) -> None:
        self._card(shown, Slot.CUP_FINAL, "cup-final", lambda row, cup, lang: (
            screens.final_text(row, cup, standings(cup), lang), None))

    def cup_standings(self, row: CupRow, thread_id: int | None) -> None:
        """``/cup`` during a cup: its standings as a new message where it was asked."""
        async def job() -> int:
            fresh = await self.store.cup(row.id) or row
            target = self.chats.now(fresh.chat_id)
            lang = await self.chats.group_lang(target)
            cup = Cup.loads(fresh.state)
            await self._slot(target)
            await self.courier.send_message(target, screens.card_text(
                fresh, cup, standings(cup), lang), reply_markup=screens.card_keyboard(
                fresh, lang), message_thread_id=thread_id)
            return 1
        self.chats.put(row.chat_id, ("cup-ask", row.id), job)

    async def cup_topic(self, row: CupRow, no: int) -> int | None:
        """A topic named for the table, made by the bot; None when it may not (not a forum,
        not an admin with the right to manage topics)."""
        target = self.chats.now(row.chat_id)
        lang = await self.chats.group_lang(target)
        return await create_topic(self.courier.bot, self.store, target,
                                  t(lang, "cup_topic", id=row.id, no=no))
