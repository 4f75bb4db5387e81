"""The seats' private hand messages: one per seated player (photo and a keyboard of exactly
his legal actions), paced to one call per ``dm_interval`` in his chat. It is edited at once
when a new decision is his or his buttons are withdrawn; any other change waits a little and
rides on the next edit (:func:`bot.present.pacing.seat_picture` decides). A short ping, which
unlike an edit notifies, goes to a player whose decision has waited a while
(:func:`bot.present.pacing.next_ping_after`), unless he said /quiet, and is deleted once he
has answered. The hand's 醒家 (湖南, 4 seats) sits it out: his hand message is the table
picture the group sees (the public table only), his own copy at his chat's pace, never a
button or a ping."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, WebAppInfo

from bot.i18n import t
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.live import LiveSeats, NoLive
from bot.present.pacing import (
    CHANGING_WAIT,
    Picture,
    SeatChange,
    Send,
    goes_first,
    next_ping_after,
    seat_picture,
    seat_wait,
)
from bot.present.posts import Post, Posts
from bot.present.screens.group import draw_table, table_screen
from bot.present.screens.seat import (
    SeatMarks,
    alone_with_robots,
    clocks,
    draw_hand,
    hand_signature,
    own_part,
    robots_of,
    seat_model,
    with_clock,
)
from bot.present.screens.seat_keys import keyboard
from bot.present.screens.words import cup_prefix, table_no
from bot.present.shown import Asked, SeatShown, Shown
from bot.table import SLOW, Decision, HandRecord, Table, TableService, TableStatus, robots
from engine.views import PrivateView, Ting


@dataclass(frozen=True)
class _HandPlan:
    """An edit of a hand message about to be made (see ``SeatMessages._plan``)."""

    shown: SeatShown
    view: PrivateView
    marks: SeatMarks
    ting: Ting | None  # the seat's 听 if its live page's pushes computed it, else the painter does
    image: tuple[object, ...]
    text: tuple[str, InlineKeyboardMarkup | None]  # caption and keyboard
    own: object
    urgent: bool  # it shows new buttons
    log_at: int  # the hand's log length it shows (play may go on while it is sent)


class SeatMessages:
    def __init__(self, chats: Chats, courier: Courier, shown: Shown, posts: Posts,
                 service: TableService, webapp_url: str | None = None) -> None:
        self.chats = chats
        self.webapp_url = webapp_url  # the live page's address: a button on every picture
        self.live: LiveSeats = NoLive()
        self.pacing = chats.pacing
        self.courier = courier
        self.shown = shown
        self.posts = posts
        self.service = service
        self._unpinging: set[tuple[int, int]] = set()  # pings (chat, message) being deleted
        # seats (hand, seat) given back by their live page: shown at once, as new buttons are
        self._returning: set[tuple[int, int]] = set()

    def give_back(self, table: Table, record: HandRecord, seat: int, user_id: int) -> None:
        """The seat's live page closed: its picture is made current at once, as new buttons
        are. It may show buttons answered on the page, which would be answered as outdated,
        with no newer ones to press until the seat's next decision."""
        self._returning.add((record.id, seat))
        self.sync_later(table, record, seat, user_id)

    def sync_later(self, table: Table, record: HandRecord, seat: int, user_id: int,
                   delay: float = 0.0) -> None:
        """Bring the seat's hand message up to date, through its chat's outbox."""
        if robots.is_robot(user_id):  # a computer player has no private chat
            return
        xing = seat == record.hand.rules.xing_seat(record.hand.dealer)
        if seat_picture(self.pacing, SeatChange(live=self.live.holds(user_id))) == Picture.SKIP:
            return  # his live page shows it (bot.present.live)

        def job() -> Awaitable[int]:
            if xing:  # his own copy of the table, at his chat's pace
                return self._show_xing(table, record, seat, user_id)
            return self._sync(table, record, seat, user_id)
        if delay > 0:
            self.chats.put_after(delay, user_id, ("hand", record.id), job)
            return
        # new buttons, or dead ones: not behind a catch-up, in the chat nor at the gate
        urgent = not xing and (self._unoffered(table, record, seat)
                               or self._withdrawn(table, record, seat)
                               or (record.id, seat) in self._returning)
        self.chats.put(user_id, ("hand", record.id), job, spare=urgent)
        if urgent:
            self.chats.gate.promote(user_id)

    async def _sync(self, table: Table, record: HandRecord, seat: int, user_id: int) -> int:
        """Bring one hand message up to date; returns the calls made. Only the user dealt into
        ``seat`` of this hand ever sees its cards.

        A new decision (new buttons) is shown at once, ahead of other traffic (see
        :mod:`bot.present.gate`), with the table as it is then; so are buttons withdrawn
        unanswered. Any other change while the hand is played is held back and rides on the
        next edit (:func:`bot.present.pacing.seat_picture`): a picture with buttons is always
        current, a waiting one lags a few seconds. A button pressed in that time is answered
        as outdated; the press itself was confirmed by its answer. Else nearly every move
        costs an edit in each of three DMs, where the floor is one edit per decision."""
        if record.users[seat] != user_id:
            return 0
        player = table.players.get(seat)
        if player is None or player.user_id != user_id or table.current is not record:
            return await self._retire(table, record, seat, user_id)
        first = self._plan(table, record, seat, user_id)
        if first is None:
            return 0
        kind = Send.DECISION if first.urgent else Send.SEAT_CATCH_UP
        await self.chats.gate.slot(urgent=goes_first(self.pacing, kind), key=user_id)
        plan = self._plan(table, record, seat, user_id)  # play went on meanwhile
        if plan is None:
            return 0
        self._returning.discard((record.id, seat))
        shown, lang, (caption, markup) = plan.shown, player.lang, plan.text
        caption = "\n".join(with_clock([caption], self._seconds_left(table, record, seat), lang))
        markup = self._with_app(markup, lang)

        async def send() -> Message:
            photo = await self.chats.render_play(draw_hand, plan.view, record.names, lang,
                                                 plan.marks, record.hand.rules, plan.ting)
            return await self.courier.send_photo(user_id, photo, caption=caption,
                                                 reply_markup=markup)

        async def edit(msg_id: int) -> None:
            if plan.image != shown.image:
                photo = await self.chats.render_play(draw_hand, plan.view, record.names,
                                                     lang, plan.marks, record.hand.rules,
                                                     plan.ting)
                await self.courier.edit_media(user_id, msg_id, photo, caption, markup)
            else:
                await self.courier.edit_caption(user_id, msg_id, caption, markup)
        await self.posts.show(Post.seat_picture(table, record, seat, user_id), send, edit)
        self.chats.reached(user_id, True)
        shown.lang, shown.own, shown.held_since = lang, plan.own, None
        shown.image, shown.caption, shown.log_at = plan.image, plan.text, plan.log_at
        if self._unoffered(table, record, seat):
            self._offered(record, seat, shown, table.decisions[seat])
            after = self._next_ping_after(table, shown, table.decisions[seat])
            if after is not None:
                self._ping_later(table, record, seat, user_id, after)
        ping = self.posts.get(Post.ping(table, seat, user_id))
        if ping is not None and (user_id, ping) not in self._unpinging \
                and shown.pinged != self._open_version(table, seat):
            self._unping_later(table, seat, user_id, ping)
        return 1

    def _with_app(self, markup: InlineKeyboardMarkup | None,
                  lang: str) -> InlineKeyboardMarkup | None:
        """The keyboard and, below it, the button opening the live page (if one is served)."""
        if self.webapp_url is None:
            return markup
        row = (InlineKeyboardButton(t(lang, "webapp_button"),
                                    web_app=WebAppInfo(self.webapp_url)),)
        return InlineKeyboardMarkup((*(markup.inline_keyboard if markup else ()), row))

    async def _show_xing(self, table: Table, record: HandRecord, seat: int,
                         user_id: int) -> int:
        """The 醒家's hand message: the group's table screen (the public view only) in his
        language, under a line saying he sits the hand out; its id is his seat's hand
        message's, so that a restart edits it instead of sending another. His own copy, not
        the group's: it follows play as a waiting seat's picture does (held at most the
        catch-up pace, :func:`bot.present.pacing.seat_picture`), and the hand's end at once, also
        once the next hand is dealt (then in the message he had, if any)."""
        player = table.players.get(seat)
        if player is None or player.user_id != user_id:
            return 0
        lang, hand_shown = player.lang, self.shown.hand(record)
        shown = hand_shown.seats.setdefault(seat, SeatShown())
        moved_on = table.current is not record
        if moved_on and (shown.caption is None or not record.hand.is_terminal()):
            return 0  # not shown in this run, or the hand was not over: left as it is
        pub, table_caption = table_screen(table, record, hand_shown.trustee, lang)
        marks = SeatMarks(frozenset(hand_shown.trustee), robots_of(record))
        image = (pub, record.names, lang, marks)
        caption = "\n".join((cup_prefix(table, lang) + t(lang, "xing_caption",
                                                           table=table_no(table)),
                              table_caption))
        post = Post.seat_picture(table, record, seat, user_id)
        posted = self.posts.get(post) is not None
        if self._weigh(table, record, seat, user_id, shown, posted=posted,
                       unchanged=(image, (caption, None)) == (shown.image, shown.caption),
                       own_change=False) != Picture.SEND:
            return 0
        await self.chats.gate.slot(urgent=goes_first(self.pacing, Send.SEAT_CATCH_UP),
                                   key=user_id)

        async def send() -> Message:
            photo = await self.chats.render_play(draw_table, pub, record.names, lang, marks)
            return await self.courier.send_photo(user_id, photo, caption=caption)

        async def edit(msg_id: int) -> None:
            if image != shown.image:
                photo = await self.chats.render_play(draw_table, pub, record.names, lang, marks)
                await self.courier.edit_media(user_id, msg_id, photo, caption, None)
            else:
                await self.courier.edit_caption(user_id, msg_id, caption, None)
        # deleted once the hand is over: nothing to send again
        if await self.posts.show(post, send, edit, again=not moved_on) is None:
            return 1
        shown.lang, shown.image, shown.caption = lang, image, (caption, None)
        shown.held_since, shown.log_at = None, len(record.hand.log)
        return 1

    def _offered(self, record: HandRecord, seat: int, shown: SeatShown,
                 decision: Decision) -> None:
        """Note a decision as shown: since when (for the ping) and, for a claim, where the
        hand stood (to tell later whether it was withdrawn, and who took the card)."""
        shown.offered = (decision.version, asyncio.get_running_loop().time())
        claim = not any(a.startswith("d:") for a in decision.legal)
        hand = record.hand
        shown.asked = Asked(decision.version, len(hand.log), len(hand.history)) if claim \
            else None

    @staticmethod
    def _open_version(table: Table, seat: int) -> int | None:
        """The version of the seat's open decision, None if it has none to answer itself."""
        decision, player = table.decisions.get(seat), table.players.get(seat)
        if decision is None or not decision.legal or player is None or player.autoplay \
                or table.status != TableStatus.PLAYING:
            return None
        return decision.version

    def _unping_later(self, table: Table, seat: int, user_id: int, ping_msg_id: int) -> None:
        """The seat answered what it was pinged for: the ping goes (the DM stays tidy).

        In a queue of the chat's own beside its outbox, with the gate's last priority: a
        deletion waiting there for its turn must not hold back the chat's next decision
        (in bench_load it doubled the p99 from a move to the next buttons)."""
        async def job() -> int:
            try:
                await self.chats.gate.slot(urgent=goes_first(self.pacing, Send.TIDY))
                await self.courier.delete(user_id, ping_msg_id)
                post = Post.ping(table, seat, user_id)
                if self.posts.get(post) == ping_msg_id:  # none sent since
                    await self.posts.remember(post, None)
            finally:
                self._unpinging.discard((user_id, ping_msg_id))
            return 0  # no message: nothing to pace
        self._unpinging.add((user_id, ping_msg_id))
        self.chats.put(("tidy", user_id), ("unping", ping_msg_id), job)

    def _withdrawn(self, table: Table, record: HandRecord, seat: int) -> bool:
        """The seat's message still shows the buttons of a claim that is gone unanswered by
        it (a higher claim took the card, or the hand ended): they must go at once."""
        shown = self.shown.hand(record).seats.get(seat)
        if shown is None or shown.asked is None or shown.caption is None \
                or shown.caption[1] is None:
            return False
        if self._open_version(table, seat) == shown.asked.version:
            return False
        return all(s != seat for s, _ in record.hand.log[shown.asked.log_at:])

    def _seconds_left(self, table: Table, record: HandRecord, seat: int) -> int | None:
        """The time left on the seat's open decision (its model's clock), read now: a caption
        shows it as of the edits made anyway, never with an edit of its own."""
        return clocks(self.service, table, record, seat).seats.get(seat)

    def _unoffered(self, table: Table, record: HandRecord, seat: int) -> bool:
        """The seat has a decision of its own (not played by 托管) that its hand message has
        not shown yet."""
        version = self._open_version(table, seat)
        shown = self.shown.hand(record).seats.get(seat)
        return version is not None \
            and (shown is None or shown.offered is None or shown.offered[0] != version)

    def _plan(self, table: Table, record: HandRecord, seat: int,
              user_id: int) -> _HandPlan | None:
        """What the seat's hand message should show now, or None when nothing is to be sent
        now (unchanged, or held back: then a later sync is scheduled)."""
        if table.changing:
            self.sync_later(table, record, seat, user_id, delay=CHANGING_WAIT)
            return None
        lang = table.players[seat].lang
        hand_shown = self.shown.hand(record)
        shown = hand_shown.seats.setdefault(seat, SeatShown())
        model = seat_model(table, record, seat, lang, trustee=hand_shown.trustee, ting=False)
        view, marks = model.view, model.marks
        image = hand_signature(view, record.names, lang, marks)
        playing = table.status == TableStatus.PLAYING
        markup = keyboard(table.id, model.presses, lang) if playing else None
        asked_at = shown.asked.history_at if shown.asked is not None else None
        text = (model.caption(asked_at), markup)
        own = own_part(view)
        # new buttons (a decision, or 托管's take-back) go first, and so does the end of
        # buttons withdrawn unanswered; other changes may wait
        new_markup = shown.caption is None or markup != shown.caption[1]
        returning = (record.id, seat) in self._returning
        urgent = new_markup and (markup is not None or returning
                                 or self._withdrawn(table, record, seat))
        # the seat's own change (its cards, its keyboard going) or the table's alone (a move
        # elsewhere, in the picture and in the caption's 等待 line)?
        posted = self.posts.get(Post.seat_picture(table, record, seat, user_id)) is not None
        unchanged = (image, text) == (shown.image, shown.caption)
        if unchanged and not self.live.holds(user_id):
            self._returning.discard((record.id, seat))  # (its picture is current)
        if self._weigh(table, record, seat, user_id, shown, posted=posted, urgent=urgent,
                       unchanged=unchanged, own_change=own != shown.own or new_markup) \
                != Picture.SEND:
            return None
        return _HandPlan(shown, view, marks, model.ting, image, text, own, urgent,
                         len(record.hand.log))

    def _weigh(self, table: Table, record: HandRecord, seat: int, user_id: int,
               shown: SeatShown, **known: bool) -> Picture:
        """What the pacing policy makes of a change to the seat's picture
        (:func:`bot.present.pacing.seat_picture`, given what the caller ``known``); one held
        is noted as held and looked at again when it may go."""
        # another seat discarded since (what it took before, and the draws, ride with it)
        moved = any(s != seat and a.startswith("d:") for s, a in record.hand.log[shown.log_at:])
        playing = table.status == TableStatus.PLAYING
        # his live page may have opened since the change was queued: it shows it
        change = SeatChange(live=self.live.holds(user_id), fresh=shown.image is None,
                            playing=playing, flushing=self.chats.flushing,
                            now=asyncio.get_running_loop().time(),
                            held_since=shown.held_since, alone=alone_with_robots(record, seat),
                            moved=moved, moving_on=moved and self._moving_on(table, seat),
                            **known)
        picture = seat_picture(self.pacing, change)
        if picture == Picture.HOLD:
            shown.held_since = change.now if shown.held_since is None else shown.held_since
            self.sync_later(table, record, seat, user_id, delay=seat_wait(self.pacing, change))
        return picture

    def _moving_on(self, table: Table, seat: int) -> bool:
        """Whether the table goes on at once without the seat: another seat played by the
        bot (a computer, 托管) has a move due now (an answer to a card, a discard without a
        pause). Its commit brings the next look at the picture."""
        hand, soon = table.hand, self.service.clock() + CHANGING_WAIT
        return hand is not None and any(
            s != seat and (table.players[s].robot or table.players[s].autoplay)
            and self.service.deadline(table, s) <= soon for s in hand.to_act())

    def _ping_later(self, table: Table, record: HandRecord, seat: int, user_id: int,
                    delay: float) -> None:
        def job() -> Awaitable[int]:
            return self._ping(table, record, seat, user_id)
        self.chats.put_after(delay, user_id, ("ping", record.id), job)

    def _next_ping_after(self, table: Table, shown: SeatShown,
                         decision: Decision) -> float | None:
        return next_ping_after(self.pacing, pings=shown.pings_for(decision.version),
                               slow=table.timer == SLOW, timeout=self.service.timeout(table))

    async def _ping(self, table: Table, record: HandRecord, seat: int, user_id: int) -> int:
        """Ping a player whose shown decision has waited (an edit does not notify him; a
        player who is looking has pressed by then). The previous ping goes."""
        player, decision = table.players.get(seat), table.decisions.get(seat)
        shown = self.shown.hand(record).seats.get(seat)
        if player is None or player.user_id != user_id or player.autoplay \
                or table.current is not record or table.status != TableStatus.PLAYING \
                or decision is None or not decision.legal \
                or shown is None or shown.offered is None \
                or shown.offered[0] != decision.version:
            return 0
        after = self._next_ping_after(table, shown, decision)
        if after is None or await self._quiet(user_id):
            return 0
        wait = shown.offered[1] + after - asyncio.get_running_loop().time()
        if wait > 0 and not self.chats.flushing:
            self._ping_later(table, record, seat, user_id, wait)
            return 0
        await self.chats.gate.slot(urgent=goes_first(self.pacing, Send.PING), key=user_id)
        post = Post.ping(table, seat, user_id)
        last = self.posts.get(post)
        if last is not None and (user_id, last) not in self._unpinging:
            await self.courier.delete(user_id, last)
        text = " · ".join(with_clock([cup_prefix(table, player.lang) + t(
            player.lang, "ping", table=table_no(table))],
                                     self._seconds_left(table, record, seat), player.lang))
        msg = await self.courier.send_message(user_id, text)
        await self.posts.remember(post, msg.message_id)
        shown.pings = shown.pings_for(decision.version) + 1
        shown.pinged = decision.version
        again = self._next_ping_after(table, shown, decision)
        if again is not None:  # 慢速: a second ping later
            left = shown.offered[1] + again - asyncio.get_running_loop().time()
            self._ping_later(table, record, seat, user_id, max(0.0, left))
        return 1

    async def _quiet(self, user_id: int) -> bool:
        """The player said /quiet: no pings."""
        user = await self.service.store.user(user_id)
        return user is not None and user.quiet

    async def _retire(self, table: Table, record: HandRecord, seat: int, user_id: int) -> int:
        """A player gone from the table (逃跑): his hand message says it is over, no buttons."""
        shown = self.shown.hand(record).seats.pop(seat, None)
        msg_id = self.posts.get(Post.seat_picture(table, record, seat, user_id))
        if shown is None or msg_id is None or shown.caption is None:
            return 0
        head = shown.caption[0].split("\n")[0]
        caption = f"{head}\n{t(shown.lang, 'dm_over')}"
        if shown.caption == (caption, None):
            return 0
        await self.chats.gate.slot(key=user_id)
        await self.courier.edit_caption(user_id, msg_id, caption, None)
        return 1
