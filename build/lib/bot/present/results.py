"""A hand's end in the private chats (screens: :mod:`bot.present.screens.result`).

At the settlement every human dealt into the hand gets one new message, the only one of the
hand's end that notifies him (his hand message is edited, which does not; the group's
settlement is posted silently): his result, with 再来一局 and 离开 while the settlement is live
and 🔍 复盘 (his own review, :mod:`bot.present.reviews`; not the 醒家's, who made no choice)
for good. 再来一局 and 离开 live here: the group's settlement offers them only once a result
could not be sent (``on_unreached``). They are the group's own kinds and mark, so a press here
counts as one there; they go once the table moves on or he has left. Every bird (打鸟) whose
onlooker has opened the bot gets its result too. A hand voided by /stop gets one note
instead, saying who stopped it.

Each goes through the receiver's own outbox at the private pace. Which results still show
buttons is kept in memory only: after a restart an old button is answered as outdated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden

from bot.present import errors
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.pacing import Send, goes_first
from bot.present.screens.result import (
    bird_result_text,
    result_keyboard,
    result_text,
    voided_text,
)
from bot.store import BirdRow, Store
from bot.table import HandRecord, Table, TableStatus, robots


@dataclass
class _Open:
    """The results of one hand that show 再来一局 / 离开: by user, the message and what it
    shows once they go (its text and keyboard)."""

    record: HandRecord
    messages: dict[int, tuple[int, str, InlineKeyboardMarkup | None]] = field(default_factory=dict)


class ResultMessages:
    def __init__(self, chats: Chats, courier: Courier, store: Store, *,
                 on_unreached: Callable[[Table, HandRecord], None]) -> None:
        self.chats = chats
        self.courier = courier
        self.store = store
        # a live result that could not be sent: the group's settlement offers 再来一局 again
        self.on_unreached = on_unreached
        self._open: dict[int, _Open] = {}  # by table

    # --- queued --------------------------------------------------------------------------

    def settled_later(self, table: Table, record: HandRecord) -> None:
        """The hand ended: each human dealt into it gets his result, each bird its own."""
        for seat, user_id in enumerate(record.users):
            if not robots.is_robot(user_id):
                self.chats.put(user_id, ("result", record.id),
                               partial(self._result, table, record, seat, user_id))
        if record.hand.rules.birds:
            self.chats.put(("birds", table.id), ("birds", record.id),
                           partial(self._birds, table, record))

    def voided_later(self, table: Table, record: HandRecord, stopper: str) -> None:
        """/stop voided the running hand: every human dealt into it is told who stopped it."""
        for seat, user_id in enumerate(record.users):
            if not robots.is_robot(user_id):
                self.chats.put(user_id, ("voided", record.id),
                               partial(self._voided, table, record, seat, user_id, stopper))

    def refresh(self, table: Table) -> None:
        """Results whose 再来一局 / 离开 no longer count (the table moved on, or their reader
        left it) lose them; 🔍 复盘 stays."""
        shown = self._open.get(table.id)
        if shown is None:
            return
        for user_id in list(shown.messages):
            seat = shown.record.users.index(user_id)
            if not self._live(table, shown.record, seat, user_id):
                msg_id, text, markup = shown.messages.pop(user_id)
                self.chats.put(user_id, ("result_off", msg_id),
                               partial(self._edit, user_id, msg_id, text, markup))
        if not shown.messages:
            del self._open[table.id]

    # --- the jobs ----------------------------------------------------------------------

    @staticmethod
    def _live(table: Table, record: HandRecord, seat: int, user_id: int) -> bool:
        """Whether the user's 再来一局 / 离开 still count: his seat, this very settlement."""
        player = table.players.get(seat)
        return table.current is record and table.status == TableStatus.BETWEEN \
            and player is not None and player.user_id == user_id

    async def _lang(self, table: Table, seat: int, user_id: int) -> str:
        player = table.players.get(seat)
        if player is not None and player.user_id == user_id:
            return player.lang
        row = await self.store.user(user_id)  # gone from the seat (逃跑)
        return row.lang if row is not None and row.lang else self.chats.default_lang

    async def _send(self, user_id: int, text: str, markup: InlineKeyboardMarkup | None,
                    send: Send) -> int | None:
        """Send one private message; its id, or None when the user has blocked the bot."""
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, send), key=user_id)
        try:
            msg = await self.courier.send_message(user_id, text, reply_markup=markup)
        except Forbidden:
            self.chats.reached(user_id, False)
            return None
        self.chats.reached(user_id, True)
        return msg.message_id

    async def _result(self, table: Table, record: HandRecord, seat: int, user_id: int) -> int:
        lang = await self._lang(table, seat, user_id)
        total = (await self.store.table_totals(table.id)).get(user_id, 0)
        hand_birds = await self.store.hand_birds(record.id) if record.hand.rules.birds else []
        live = self._live(table, record, seat, user_id)
        text = result_text(table, record, seat, lang, total=total, hand_birds=hand_birds,
                           live=live)
        markup = result_keyboard(table, record, seat, lang, live=live)
        msg_id = await self._send(user_id, text, markup,
                                  Send.LIVE_SETTLEMENT if live else Send.SETTLEMENT)
        if msg_id is None and live:
            self.on_unreached(table, record)
        if msg_id is not None and live:
            shown = self._open.get(table.id)
            if shown is None or shown.record is not record:
                shown = self._open[table.id] = _Open(record)
            # what it shows once 再来一局 / 离开 go (no more "press 再来一局"; 🔍 复盘 stays)
            shown.messages[user_id] = (
                msg_id,
                result_text(table, record, seat, lang, total=total, hand_birds=hand_birds,
                            live=False),
                result_keyboard(table, record, seat, lang, live=False))
            self.refresh(table)  # the table may have moved on while this was sent
        return 1

    async def _birds(self, table: Table, record: HandRecord) -> int:
        """Queue the result of each settled bird whose onlooker has opened the bot."""
        for bird in await self.store.hand_birds(record.id):
            user = await self.store.user(bird.user_id)
            if bird.points is None or user is None or not user.dm_ok:
                continue
            lang = user.lang or self.chats.default_lang
            self.chats.put(bird.user_id, ("bird", record.id),
                           partial(self._bird, table, record, bird, lang))
        return 0  # nothing sent here: nothing to pace

    async def _bird(self, table: Table, record: HandRecord, bird: BirdRow, lang: str) -> int:
        await self._send(bird.user_id, bird_result_text(table, record, bird, lang), None,
                         Send.SETTLEMENT)
        return 1

    async def _voided(self, table: Table, record: HandRecord, seat: int, user_id: int,
                      stopper: str) -> int:
        lang = await self._lang(table, seat, user_id)
        await self._send(user_id, voided_text(table, record, stopper, lang), None,
                         Send.SETTLEMENT)
        return 1

    async def _edit(self, user_id: int, msg_id: int, text: str,
                    markup: InlineKeyboardMarkup | None) -> int:
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, Send.SETTLEMENT),
                                   key=user_id)
        try:
            await self.courier.edit_text(user_id, msg_id, text, markup)
        except Forbidden:  # the bot was blocked: nothing to tidy
            pass
        except BadRequest as e:
            if not errors.gone(e):  # deleted by the user: nothing to tidy
                raise
        return 1
