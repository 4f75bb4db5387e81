"""The group's panels of a table: the lobby message, one photo per hand (edited as the hand
goes, with a short move log), its settlement, a match's 总结算, and the lines that tell the
table of a seat's 托管. The photo and the settlement are posted silently while every seat of
the hand takes the bot's private messages (each is told there: his new hand, his result with
再来一局 / 离开); the settlement offers 再来一局 / 离开 only when one could not be told. Every
call goes through the group's outbox; a post its forum topic refuses is looked at again later
(see :meth:`GroupPanels.post`). A private table (``Table.private``: a 群杯's in a group
without topics) has none of them: its seats see it all in their private chats."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, TimedOut

from bot.i18n import t
from bot.present import birds, errors
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.live import LiveSeats, NoLive
from bot.present.notes import Notes
from bot.present.pacing import CHANGING_WAIT, Send, goes_first, table_picture_wait
from bot.present.posts import SETTLEMENT_POSTING, STORE_RETRY, Post, Posts
from bot.present.screens.group import (
    draw_table,
    settlement_keyboard,
    settlement_text,
    table_screen,
)
from bot.present.screens.lobby import lobby_keyboard, lobby_text
from bot.present.screens.match import summary_caption, summary_of
from bot.present.screens.seat import SeatMarks, robots_of, trustee_known
from bot.present.shown import Shown
from bot.store import Store, StoreUnavailable
from bot.table import HandRecord, Table, TableService, TableStatus, robots
from bot.table import birds as table_birds
from engine.views import PublicView
from render import render_settlement
from render.match import render_match

log = logging.getLogger(__name__)


def _trustee_note(lang: str, *, name: str) -> str:
    return t(lang, "trustee_note", name=name)


class GroupPanels:
    def __init__(self, chats: Chats, courier: Courier, notes: Notes, shown: Shown, posts: Posts,
                 store: Store, service: TableService, *, deep_link: Callable[[int], str],
                 on_retry: Callable[[Table], None],
                 app_link: Callable[[int], str] | None = None) -> None:
        self.chats = chats
        self.courier = courier
        self.notes = notes
        self.shown = shown
        self.posts = posts
        self.store = store
        self.service = service
        self.deep_link = deep_link
        self.app_link = app_link  # the live seat's link of a table (WEBAPP_SHORT_NAME)
        self.on_retry = on_retry  # a table to look at again (its topic refused a post)
        self._topic_retries: dict[int, asyncio.TimerHandle] = {}  # by table
        self.live: LiveSeats = NoLive()  # seats on their live page (bot.present.live)

    def _slot(self, send: Send) -> Awaitable[None]:
        return self.chats.gate.slot(urgent=goes_first(self.chats.pacing, send))

    # --- queued --------------------------------------------------------------------------

    def lobby_later(self, table: Table) -> None:
        if table.private:
            return
        self.chats.put(table.chat_id, ("lobby", table.id), lambda: self._lobby(table),
                       Send.LOBBY_EDIT)

    def table_later(self, table: Table, record: HandRecord) -> None:
        """The hand's table picture: its first goes first, its edits may lag."""
        if table.private:
            return
        self.chats.put(table.chat_id, ("table", record.id), lambda: self._table(table, record),
                       self._table_send(table, record))

    def settlement_later(self, table: Table, record: HandRecord) -> None:
        """The hand's settlement: posted first, its later edits (the ready list, its buttons
        going) lag and merge."""
        if table.private:
            return
        posted = self.posts.get(Post.settlement(table, record)) is not None
        send = Send.READY_LIST if posted else Send.SETTLEMENT
        self.chats.put(table.chat_id, ("settle", record.id),
                       lambda: self._settlement(table, record), send)

    def match_later(self, table: Table, match_id: int) -> None:
        if table.private:
            return
        self.chats.put(table.chat_id, ("match", match_id),
                       lambda: self._match_summary(table, match_id), Send.MATCH_SUMMARY)

    def publish_trustee(self, table: Table, record: HandRecord) -> None:
        """Tell the table which seats are in 托管 (:func:`bot.present.screens.seat.
        trustee_known`: as soon as that tells nobody more than the play itself), each once
        with a line in the group; a seat that took back is unmarked at once."""
        trustee = self.shown.hand(record).trustee
        if table.private or not trustee and not any(p.autoplay for p in table.players.values()):
            return
        now = trustee_known(table, record, trustee)
        told = sorted(now - trustee)
        trustee.intersection_update(now)
        trustee.update(now)
        for seat in told:
            name = record.names[seat]
            self.notes.note(table.chat_id, partial(_trustee_note, name=name),
                            thread_id=table.thread_id)

    def cancel(self) -> None:
        for retry in self._topic_retries.values():
            retry.cancel()

    # --- posting in the table's topic ------------------------------------------------------

    async def post(self, table: Table, send: Callable[[], Awaitable[Message]]) -> Message | None:
        """Send one of the table's group posts; None when its forum topic refuses it. Nothing
        goes elsewhere instead (not to General: the topic is the table's). A closed topic
        (TOPIC_CLOSED: only admins may post) is looked at again every ``topic_retry``
        seconds; a deleted one ("message thread not found") closes the table once no hand
        runs (see ``TableService.abandon``)."""
        try:
            return await send()
        except BadRequest as e:
            refusal = errors.topic_refusal(e)
            if table.thread_id is None or refusal is None:
                raise
            log.warning("table %s: its topic %s in %s refuses posts: %s", table.id,
                        table.thread_id, table.chat_id, e)
        if refusal == "closed":
            self._retry_topic(table)
        else:
            await self.service.abandon(table.id)
        return None

    def _retry_topic(self, table: Table) -> None:
        """Look at the table again in ``topic_retry`` seconds: what it lacks is posted then,
        if its topic is open again (else it waits once more)."""
        if table.id in self._topic_retries:
            return

        def again() -> None:
            del self._topic_retries[table.id]
            if table.status != TableStatus.CLOSED:
                self.on_retry(table)
        self._topic_retries[table.id] = asyncio.get_running_loop().call_later(
            self.chats.pacing.topic_retry, again)

    # --- the panels ----------------------------------------------------------------------

    def _timer(self, table: Table) -> float:
        """The table's decision timer as chosen (SLOW for 慢速), else the bot's default."""
        return self.service.action_timeout if table.timer is None else table.timer

    async def _lobby(self, table: Table) -> int:
        """Send or edit the lobby; once play starts, edit it a last time without buttons."""
        lang = await self.chats.group_lang(table.chat_id)
        text = lobby_text(table, lang, timer=self._timer(table),
                          full_start_delay=self.service.start_delay(table),
                          ready_timeout=self.service.ready_timeout)
        bird_line = birds.waiting_line(table.rules, await table_birds.waiting(self.store, table), lang)
        text += f"\n\n{bird_line}" if bird_line and table.status == TableStatus.LOBBY else ""
        shown, post = self.shown.table(table), Post.lobby(table)
        msg_id = self.posts.get(post)
        if table.status != TableStatus.LOBBY:
            if msg_id is None:
                return 0
            await self.posts.remember(post, None)
            if table.status == TableStatus.CLOSED:  # say so, even if not shown since a restart
                text = t(lang, "lobby_closed", table=table.no)
            elif shown.lobby_text is None:
                return 0  # not shown since a restart: leave it
            shown.lobby_text = None
            await self._slot(Send.LOBBY_EDIT)
            await self.courier.edit_text(table.chat_id, msg_id, text, None)
            return 1
        markup = lobby_keyboard(table, lang, mark=self.service.button_mark(table),
                                timer=self._timer(table), deep_link=self.deep_link(table.id))
        if msg_id is not None and msg_id < self._last_hand_post(table):
            msg_id = None  # back to the lobby after a hand: a new one below it
            self.posts.note(post, None)
        sent = 0
        if table.standing and msg_id is not None and shown.lobby_text is None:
            # a standing table after a restart: its lobby afresh, the old one without buttons
            self.posts.note(post, None)
            await self._slot(Send.LOBBY_EDIT)
            try:
                await self.courier.edit_text(table.chat_id, msg_id, text, None)
            except BadRequest as e:  # deleted, say: the fresh one is what counts
                log.info("table %s: its old lobby %s stays as it was: %s", table.id, msg_id, e)
            msg_id, sent = None, 1
        if msg_id is not None and (shown.lobby_text, shown.lobby_markup) == (text, markup):
            return 0

        async def send() -> Message | None:
            await self._slot(Send.NEW_LOBBY)
            return await self.post(table, lambda: self.courier.send_message(
                table.chat_id, text, reply_markup=markup, message_thread_id=table.thread_id))

        async def edit(msg_id: int) -> None:
            await self._slot(Send.LOBBY_EDIT)
            await self.courier.edit_text(table.chat_id, msg_id, text, markup)
        if await self.posts.show(post, send, edit) is not None:
            shown.lobby_text, shown.lobby_markup = text, markup
        return sent + 1

    def _last_hand_post(self, table: Table) -> int:
        """The latest of the last hand's group messages (0: none)."""
        record = table.current
        if record is None:
            return 0
        return max(self.posts.get(Post.picture(table, record)) or 0,
                   self.posts.get(Post.settlement(table, record)) or 0)

    async def _table(self, table: Table, record: HandRecord) -> int:
        lang = await self.chats.group_lang(table.chat_id)
        if self._table_plan(table, record, lang) is None:
            return 0
        await self._slot(self._table_send(table, record))
        plan = self._table_plan(table, record, lang)  # play went on meanwhile
        if plan is None:
            return 0
        pub, caption = plan
        marks = SeatMarks(frozenset(self.shown.hand(record).trustee), robots_of(record))
        photo = await self.chats.render_play(draw_table, pub, record.names, lang, marks)
        markup = self._app_button(table, lang)

        async def send() -> Message | None:
            quiet = self.chats.all_reached(record.users)  # when each seat is told in private
            return await self.post(table, lambda: self.courier.send_photo(
                table.chat_id, photo, caption=caption, message_thread_id=table.thread_id,
                disable_notification=quiet, reply_markup=markup))

        async def edit(msg_id: int) -> None:
            await self.courier.edit_media(table.chat_id, msg_id, photo, caption, markup)
        if await self.posts.show(Post.picture(table, record), send, edit) is not None:
            shown = self.shown.hand(record)
            shown.table, shown.table_at = plan, asyncio.get_running_loop().time()
        return 1

    def _app_button(self, table: Table, lang: str) -> InlineKeyboardMarkup | None:
        """Under the table picture, the link opening each player's own live seat (a group
        cannot hold a ``web_app`` button: a t.me link to the Mini App does it)."""
        if self.app_link is None:
            return None
        return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "webapp_button"),
                                                           url=self.app_link(table.id))]])

    def _table_plan(self, table: Table, record: HandRecord,
                    lang: str) -> tuple[PublicView, str] | None:
        """The group's table photo as it should be now, or None if it already is (or cannot be
        told yet: then it is looked at again)."""
        if table.changing:
            self.chats.put_after(CHANGING_WAIT, table.chat_id, ("table", record.id),
                                 lambda: self._table(table, record), Send.TABLE_PICTURE)
            return None
        shown = self.shown.hand(record)
        plan = table_screen(table, record, shown.trustee, lang)
        posted = self.posts.get(Post.picture(table, record)) is not None  # in this chat
        if posted and shown.table == plan:
            return None
        wait = table_picture_wait(self.chats.pacing, now=asyncio.get_running_loop().time(),
                                  shown_at=shown.table_at if posted else None,
                                  onlookers_only=self._onlookers_only(table, record))
        if wait > 0:
            self.chats.put_after(wait, table.chat_id, ("table", record.id),
                                 lambda: self._table(table, record), Send.TABLE_PICTURE)
            return None
        return plan

    def _onlookers_only(self, table: Table, record: HandRecord) -> bool:
        """Whether the hand is being played and every player of it on his live page: its
        picture in the group is for onlookers alone (:func:`table_picture_wait`)."""
        if table.status != TableStatus.PLAYING or table.current is not record \
                or record.hand.is_terminal():
            return False
        humans = [u for u in record.users if not robots.is_robot(u)]
        return bool(humans) and all(self.live.holds(u) for u in humans)

    async def _settlement(self, table: Table, record: HandRecord) -> int:
        """Send the settlement, then keep its ready list current; buttons only while it is the
        table's latest hand and the table waits for 再来一局."""
        lang = await self.chats.group_lang(table.chat_id)
        shown, table_shown = self.shown.hand(record), self.shown.table(table)
        if shown.totals is None:
            shown.totals = await self.store.table_totals(table.id)
        totals = shown.totals
        if shown.birds is None:
            shown.birds = await self.store.hand_birds(record.id)
        live = table.current is record and table.status == TableStatus.BETWEEN
        next_birds = await table_birds.waiting(self.store, table) if live else []
        # 再来一局 lives in each seat's private result; here only while one could not be sent
        reached = self.chats.all_reached(record.users)
        caption = settlement_text(table, record, totals, lang, live, hand_birds=shown.birds,
                                  next_birds=next_birds, again=not reached)
        markup = settlement_keyboard(table, record, lang, live, again=not reached)
        if live:
            table_shown.open_settlement = record
        elif table_shown.open_settlement is record:
            table_shown.open_settlement = None
        msg_id = self.posts.get(Post.settlement(table, record))
        if msg_id is None:
            pub = record.hand.public_view()
            per_seat = tuple(totals.get(u, 0) for u in record.users)
            await self._slot(Send.LIVE_SETTLEMENT if live else Send.SETTLEMENT)
            photo = await self.chats.render(
                partial(render_settlement, birds=birds.picture_birds(shown.birds)),
                pub, record.names, per_seat, lang)
            msg = await self.post_settlement(table, record, lambda: self.courier.send_photo(
                table.chat_id, photo, caption=caption, reply_markup=markup,
                parse_mode=ParseMode.HTML, message_thread_id=table.thread_id,
                disable_notification=reached))
            if msg is None:
                return 1
        elif msg_id == SETTLEMENT_POSTING:
            return 0  # sent by an earlier run that could not store its id: left as it is
        elif shown.settle_caption == caption:
            return 0
        else:
            await self._slot(Send.READY_LIST)
            await self.courier.edit_caption(table.chat_id, msg_id, caption, markup,
                                            parse_mode=ParseMode.HTML)
        shown.settle_caption = caption
        return 1

    async def post_settlement(self, table: Table, record: HandRecord,
                              send: Callable[[], Awaitable[Message]]) -> Message | None:
        """Post a hand's settlement at most once, and once whatever the database does.

        Telegram cannot say whether a message was sent, so the store says it first: the
        hand's settlement post becomes ``SETTLEMENT_POSTING`` in a committed write before
        the photo is sent (a refused write sends nothing, and the post is tried again in
        ``STORE_RETRY`` seconds), and the message's id right after. That id is kept in
        memory at once and written until the store takes it (:meth:`Posts.remember
        <bot.present.posts.Posts.remember>`), so this run never sends it again.
        A send refused by Telegram, or by the table's topic, sent nothing: the mark is taken
        back and the post may be made again. A hand found ``SETTLEMENT_POSTING`` after a
        restart died between sending and storing the id (or its send timed out): its
        message may be in the group, so it is not posted again (nor edited: its id is
        unknown); only a hand with no mark at all is posted after a restart
        (:meth:`Registry.unposted_settlements <bot.table.registry.Registry.unposted_settlements>`).
        """
        post = Post.settlement(table, record)
        try:
            await self.posts.begin_settlement(post)
        except Exception as e:
            if not isinstance(e, StoreUnavailable):  # that one the store says itself
                log.warning("could not mark the settlement of hand %s as being posted (again"
                            " in %g s): %s", record.id, STORE_RETRY, e)
            asyncio.get_running_loop().call_later(
                STORE_RETRY, lambda: self.settlement_later(table, record))
            return None
        try:
            msg = await self.post(table, send)
        except TimedOut:  # it may have reached the group: the mark stays
            self.posts.note(post, SETTLEMENT_POSTING)
            raise
        except BaseException:
            await self.posts.remember(post, None)
            raise
        await self.posts.remember(post, None if msg is None else msg.message_id)
        return msg

    async def _match_summary(self, table: Table, match_id: int) -> int:
        row = await self.store.match(match_id)
        if row is None or row.summary_msg_id is not None:
            return 0
        summary = summary_of(row, await self.store.match_played(match_id))
        lang = await self.chats.group_lang(table.chat_id)
        photo = await self.chats.render(render_match, summary, lang)
        caption = summary_caption(summary, row, lang)
        await self._slot(Send.MATCH_SUMMARY)
        msg = await self.post(table, lambda: self.courier.send_photo(
            table.chat_id, photo, caption=caption, message_thread_id=table.thread_id))
        if msg is not None:
            await self.posts.remember_summary(match_id, msg.message_id)
        return 1

    def _table_send(self, table: Table, record: HandRecord) -> Send:
        """A hand's first table picture is what its group waits for; its edits may lag."""
        posted = self.posts.get(Post.picture(table, record)) is not None
        return Send.TABLE_PICTURE if posted else Send.FIRST_PICTURE
