"""The presenter: the Telegram side of the table observer, and the one object callers hold.

The group gets one panel at a time (:mod:`bot.present.panels`): the lobby, one photo per hand,
then a settlement message, through the group's outbox paced to one call per
``group_interval`` seconds. Each seated player has one hand message in the private chat
(:mod:`bot.present.seats`), paced to one call per ``dm_interval``; the hand's 醒家 sees the
table picture there instead (his own copy), and at the hand's end each player (and each bird)
gets his result there, with 再来一局 / 离开 (:mod:`bot.present.results`). One-off messages answering
commands are :mod:`bot.present.notes`. What each shows comes from :mod:`bot.present.screens`;
when each goes from :mod:`bot.present.pacing`. Every call waits its turn at the bot-wide
:class:`~bot.present.gate.Gate` and goes through the :class:`~bot.present.courier.Courier`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Sequence
from functools import partial

from telegram import Bot, InlineKeyboardMarkup

from bot import links
from bot.i18n import t
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.gate import Gate
from bot.present.live import LiveSeats
from bot.present.notes import Notes
from bot.present.outbox import Outbox
from bot.present.pacing import Pacing
from bot.present.painter import Painter
from bot.present.panels import GroupPanels
from bot.present.posts import Post, Posts
from bot.present.results import ResultMessages
from bot.present.reviews import Reviews
from bot.present.seats import SeatMessages
from bot.present.shown import Shown
from bot.store import PlayedHand, Store
from bot.table import HandRecord, Table, TableService, TableStatus

log = logging.getLogger(__name__)


class Presenter:
    """Schedules every message and edit of the tables, and the one-off ones of commands."""

    def __init__(self, bot: Bot, store: Store, service: TableService, *, pacing: Pacing,
                 default_lang: str, username: str, webapp_url: str | None = None,
                 app_short_name: str | None = None, paint_process: bool = False) -> None:
        self.bot = Courier(bot)
        self.store = store
        self.service = service
        self.pacing = pacing
        self.default_lang = default_lang
        self.username = username
        self.chats = Chats(store, pacing, default_lang, self.migrate, self.bot.sent_at,
                           Painter(process=paint_process))
        self.notes = Notes(self.chats, self.bot)
        shown = Shown()
        self.posts = Posts(store)  # what the table's messages are, and where
        self.panels = GroupPanels(self.chats, self.bot, self.notes, shown, self.posts, store,
                                  service,
                                  deep_link=self.deep_link, on_retry=self.changed,
                                  app_link=None if app_short_name is None else
                                  partial(links.app_link, username, app_short_name))
        self.seats = SeatMessages(self.chats, self.bot, shown, self.posts, service, webapp_url)
        self.results = ResultMessages(self.chats, self.bot, store,
                                      on_unreached=self.panels.settlement_later)
        self.reviews = Reviews(self.chats, self.bot)
        self._shown = shown

    # --- plumbing ----------------------------------------------------------------------

    @property
    def gate(self) -> Gate:
        return self.chats.gate

    def outbox(self, chat_id: int) -> Outbox:
        return self.chats.outbox(chat_id)

    def chat_now(self, chat_id: int) -> int:
        """The chat's id now: a basic group's supergroup id once it was upgraded."""
        return self.chats.now(chat_id)

    async def migrate(self, old: int, new: int) -> None:
        """The group ``old`` became the supergroup ``new`` (told by a service message or by a
        call refused with ChatMigrated). The service moves its table and records, and tells
        the observer as after any change; whatever is queued for the old id goes to the new
        one through the same outbox (one pace, one order), and the table's group messages
        are posted afresh there (:mod:`bot.present.posts`: none is in the new chat)."""
        self.chats.moved(old, new)
        for table in await self.service.move_chat(old, new):
            log.info("table %s moved with its group from %s to %s", table.id, old, new)

    async def idle(self) -> None:
        """Send what is held back now, then wait until nothing is queued (tests)."""
        await self.chats.idle()

    async def shutdown(self) -> None:
        self.panels.cancel()
        await self.chats.shutdown()
        self.posts.close()

    async def restored(self, tables: Sequence[Table]) -> None:
        """After a restart: read back what the restored tables had posted."""
        for table in tables:
            await self.posts.load(table)

    def deep_link(self, table_id: int) -> str:
        return links.start(self.username, links.JOIN, table_id)

    async def group_lang(self, chat_id: int) -> str:
        return await self.chats.group_lang(chat_id)

    def set_group_lang(self, chat_id: int, lang: str) -> None:
        self.chats.set_group_lang(chat_id, lang)

    async def probe_dm(self, user_id: int, text: str) -> bool:
        """Send a private message; False when the user has not opened the bot (403)."""
        return await self.bot.probe(user_id, text)

    # --- the live seat (bot.present.live) ----------------------------------------------

    def hold_live(self, live: LiveSeats) -> None:
        """Seats whose live page is open: their pictures wait, and the group's picture of a
        table played on live pages alone follows at the onlookers' pace."""
        self.seats.live = self.panels.live = live

    def seat_released(self, table: Table, user_id: int) -> None:
        """The user's live page closed: his picture is brought up to date."""
        record, seat = table.current, table.seat_of(user_id)
        if record is not None and seat is not None:
            self.seats.give_back(table, record, seat, user_id)

    def page_closed(self, user_id: int) -> None:
        """The user's last live page closed: :meth:`seat_released` at his table, if any."""
        table = self.service.table_of_user(user_id)
        if table is not None:
            self.seat_released(table, user_id)

    def public_trustee(self, record: HandRecord) -> frozenset[int]:
        """The hand's seats in 托管 as the group was told (what every seat may know)."""
        return frozenset(self._shown.hand(record).trustee)

    # --- observer ----------------------------------------------------------------------

    def changed(self, table: Table) -> None:
        self.results.refresh(table)
        self.posts.seated(table)
        if table.status == TableStatus.LOBBY or self.posts.get(Post.lobby(table)) is not None:
            self.panels.lobby_later(table)
        old = self._shown.table(table).open_settlement
        if old is not None and (old is not table.current or table.status != TableStatus.BETWEEN):
            self.panels.settlement_later(table, old)  # play moved on: its buttons go
        record = table.current
        if record is None:
            return
        if table.status == TableStatus.BETWEEN:
            self.panels.settlement_later(table, record)
        elif table.status == TableStatus.PLAYING:
            self.panels.publish_trustee(table, record)
            self.panels.table_later(table, record)
        for seat, user_id in enumerate(record.users):
            self.seats.sync_later(table, record, seat, user_id)

    def settled(self, table: Table, record: HandRecord) -> None:
        self.panels.publish_trustee(table, record)
        self.panels.table_later(table, record)
        self.panels.settlement_later(table, record)
        self.results.settled_later(table, record)
        for seat, user_id in enumerate(record.users):
            if table.seat_of(user_id) is None:  # left (逃跑): final picture, no keyboard
                self.seats.sync_later(table, record, seat, user_id)

    def voided(self, table: Table, record: HandRecord, stopper: str) -> None:
        """/stop (by ``stopper``) voided the running hand ``record``: its private chats are
        told who stopped it and that it does not count."""
        self.results.voided_later(table, record, stopper)

    def unposted(self, table: Table, record: HandRecord) -> None:
        """After a restart: post the settlement of a hand the group never saw (without
        buttons: its table has moved on)."""
        self.panels.settlement_later(table, record)

    def match_over(self, table: Table, match_id: int) -> None:
        """Post a match's 总结算 (picture and text caption) in the table's topic, once: after
        the settlement of its last hand, which is queued first."""
        self.panels.match_later(table, match_id)

    def closed(self, table: Table) -> None:
        """The table is gone: its lobby (if shown) says so without buttons, else a note."""
        self.results.refresh(table)
        if self.posts.get(Post.lobby(table)) is not None:
            self.panels.lobby_later(table)
        elif not table.private:
            self.note(table.chat_id, lambda lang: t(lang, "stopped"), thread_id=table.thread_id)
        old = self._shown.table(table).open_settlement
        if old is not None:  # its 再来一局 / 离开 buttons go
            self.panels.settlement_later(table, old)
        if table.current is not None:
            record = table.current
            for seat, user_id in enumerate(record.users):
                self.seats.sync_later(table, record, seat, user_id)

    # --- one-off messages (see bot.present.notes) ---------------------------------------

    def note(self, chat_id: int, text_of: Callable[[str], str], *, lang: str | None = None,
             buttons_of: Callable[[str], Sequence[tuple[str, str]]] | None = None,
             thread_id: int | None = None) -> None:
        self.notes.note(chat_id, text_of, lang=lang, buttons_of=buttons_of, thread_id=thread_id)

    def keyboard_note(self, chat_id: int, text_of: Callable[[str], str],
                      markup_of: Callable[[str], InlineKeyboardMarkup | None], *,
                      lang: str | None = None, thread_id: int | None = None) -> None:
        self.notes.keyboard_note(chat_id, text_of, markup_of, lang=lang, thread_id=thread_id)

    def link_note(self, chat_id: int, text_of: Callable[[str], str],
                  links_of: Callable[[str], Sequence[tuple[str, str]]], *, lang: str | None = None,
                  key: Hashable | None = None) -> None:
        self.notes.link_note(chat_id, text_of, links_of, lang=lang, key=key)

    def document(self, chat_id: int, name: str, data: bytes,
                 caption_of: Callable[[str], str], *, lang: str | None = None,
                 thread_id: int | None = None) -> None:
        self.notes.document(chat_id, name, data, caption_of, lang=lang, thread_id=thread_id)

    def photo(self, chat_id: int, draw: Callable[[str], bytes],
              caption_of: Callable[[str], str], *, lang: str | None = None,
              thread_id: int | None = None) -> None:
        self.notes.photo(chat_id, draw, caption_of, lang=lang, thread_id=thread_id)

    def replay(self, chat_id: int, played: PlayedHand, step: int, *, lang: str | None = None,
               thread_id: int | None = None, message_id: int | None = None) -> None:
        link = None if chat_id > 0 else links.start(self.username, links.REPLAY, played.id)
        self.notes.replay(chat_id, played, step, lang=lang, thread_id=thread_id,
                          message_id=message_id, link=link)

    def review(self, user_id: int, played: PlayedHand, seat: int, lang: str) -> bool:
        """Send ``seat``'s 复盘 of the hand to the user's private chat (the caller checked
        that he sat there); False when it is already on its way (:mod:`bot.present.reviews`)."""
        return self.reviews.send(user_id, played, seat, lang)
