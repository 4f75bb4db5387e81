"""复式挑战 on Telegram's side of the presenter: the group's card (edited in place as results
come), the final card, and each participant's private picture of his current deal.

Each is a job in its chat's outbox under one key per challenge, so a burst of changes is one
call made from the state when it runs (:mod:`bot.present.outbox`); the card is edited only
when its text changed. A participant's deal is one photo edited as he plays; when it ends
it keeps its last picture with the result, and the next deal is a new photo. After a
restart his current deal is sent again (its old photo's buttons still count: they carry his
decisions so far).
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden

from bot.present.cards import Cards
from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.errors import gone
from bot.present.pacing import Send
from bot.present.screens import challenge as screens
from bot.present.screens.seat import SeatMarks, draw_hand, hand_signature
from bot.store import Store
from bot.store.challenges import ChallengeRow
from bot.table import ChallengeStatus, EntrantStatus
from bot.table.challenge_service import ChallengeService
from bot.table.challenges import Run
from engine.rules import RuleSet
from engine.views import PrivateView


@dataclass
class _Shown:
    """What his private chat shows of the challenge: deal ``deal`` in message ``msg_id``."""

    deal: int
    msg_id: int
    looks: tuple[object, ...]
    done_told: bool = False


class ChallengeMessages:
    """The presenter's part for challenges (a :class:`ChallengeObserver`)."""

    def __init__(self, chats: Chats, courier: Courier, store: Store,
                 service: ChallengeService) -> None:
        self.chats = chats
        self.courier = courier
        self.store = store
        self.service = service
        self.cards = Cards(chats, courier)
        self._seats: dict[tuple[int, int], _Shown] = {}

    # --- the group ---------------------------------------------------------------------

    def challenge_card(self, shown: ChallengeRow) -> None:
        challenge_id = shown.id

        async def job() -> int:
            row = await self.store.challenge(challenge_id)
            if row is None:
                return 0
            target = self.chats.now(row.chat_id)
            lang = await self.chats.group_lang(target)

            async def remember(msg_id: int) -> None:
                async with self.store.transaction() as tx:
                    await tx.set_challenge_msg(challenge_id, card=msg_id)

            return await self.cards.show(
                ("challenge", challenge_id), target, row.thread_id, row.card_msg_id,
                screens.card_text(row, await self.service.standings(row), lang,
                                  await self.store.chat_timezone(row.chat_id)),
                screens.card_keyboard(row, lang), remember)
        self.chats.put(shown.chat_id, ("challenge", challenge_id), job)

    def challenge_over(self, shown: ChallengeRow) -> None:
        challenge_id = shown.id

        async def job() -> int:
            row = await self.store.challenge(challenge_id)
            if row is None or row.final_msg_id is not None:
                return 0
            target = self.chats.now(row.chat_id)
            lang = await self.chats.group_lang(target)
            table = await self.service.standings(row)
            diffs = await self.service.differences(row, table)
            await self.cards.slot(target)
            msg = await self.courier.send_message(
                target, screens.final_text(row, table, diffs, lang),
                reply_markup=screens.final_keyboard(row, table, diffs, lang),
                message_thread_id=row.thread_id)
            async with self.store.transaction() as tx:
                await tx.set_challenge_msg(challenge_id, final=msg.message_id)
            return 1
        self.chats.put(shown.chat_id, ("challenge-final", challenge_id), job)

    # --- a participant -----------------------------------------------------------------

    def challenge_seat(self, shown: ChallengeRow, user_id: int) -> None:
        challenge_id = shown.id

        async def job() -> int:
            row = await self.store.challenge(challenge_id)
            players = [p for p in await self.store.challenge_players(challenge_id)
                       if p.user_id == user_id]
            if row is None or not players:
                return 0
            player = players[0]
            live = player.status == EntrantStatus.PLAYING and row.status == ChallengeStatus.OPEN
            try:
                return await self._sync(row, user_id, player.lang, live)
            except Forbidden:  # he blocked the bot: his game waits in the store
                return 0
        self.chats.put(user_id, ("challenge", challenge_id), job, Send.DECISION)

    async def _sync(self, row: ChallengeRow, user_id: int, lang: str, live: bool) -> int:
        """His pictures as they should be now: the deal that ended since (its last picture,
        where it is), the current one (new, or edited), and his last word once he is done.
        What they show is read under his lock: a press in play changes his game."""
        key = (row.id, user_id)
        async with self.service.lock(row.id, user_id):
            run = await self.service.run(row, user_id)
            shown = self._seats.get(key)
            current = len(run.deals) - 1
            ended = _frame(row, run, lang, shown.deal, None) \
                if shown is not None and shown.deal < current else None
            markup = screens.deal_keyboard(row, run, self.service.version(run), lang) \
                if live else None
            now = _frame(row, run, lang, current, markup)
            done = screens.done_text(row, run, not run.finished, lang) \
                if run.finished or not live else None
        calls = 0
        if ended is not None and shown is not None:
            calls += await self._show(row.id, user_id, shown, ended)
            shown = None
        calls += await self._show(row.id, user_id, shown, now)
        shown = self._seats[key]
        if done is not None and not shown.done_told:
            await self.cards.slot(user_id)
            await self.courier.send_message(user_id, done)
            shown.done_told = True
            calls += 1
        return calls

    async def _show(self, challenge_id: int, user_id: int, shown: _Shown | None,
                    frame: _Frame) -> int:
        """Send the frame's picture (``shown`` None) or edit it where it is, if it changed."""
        looks = (hand_signature(frame.view, frame.names, frame.lang, frame.marks),
                 frame.caption, frame.markup)
        if shown is not None and shown.looks == looks:
            return 0
        photo = await self.chats.render(draw_hand, frame.view, frame.names, frame.lang,
                                        frame.marks, frame.rules)
        await self.cards.slot(user_id)
        if shown is None:
            await self._send(challenge_id, user_id, frame, photo, looks)
            return 1
        try:
            await self.courier.edit_media(user_id, shown.msg_id, photo, frame.caption,
                                          frame.markup)
        except BadRequest as e:
            if not gone(e):
                raise
            await self._send(challenge_id, user_id, frame, photo, looks)  # he deleted it
            return 2
        shown.looks = looks
        return 1

    async def _send(self, challenge_id: int, user_id: int, frame: _Frame, photo: bytes,
                    looks: tuple[object, ...]) -> None:
        msg = await self.courier.send_photo(user_id, photo, caption=frame.caption,
                                            reply_markup=frame.markup)
        self._seats[(challenge_id, user_id)] = _Shown(frame.deal, msg.message_id, looks)
        await self.service.remember_msg(challenge_id, user_id, msg.message_id)

    def challenge_resend(self, row: ChallengeRow, user_id: int) -> None:
        """His current deal as a new message: he asked for it again (/start x<id>)."""
        self._seats.pop((row.id, user_id), None)
        self.challenge_seat(row, user_id)


@dataclass(frozen=True)
class _Frame:
    """Deal ``deal``'s picture as it is to be shown: its view, caption and buttons."""

    deal: int
    view: PrivateView
    names: list[str]
    lang: str
    marks: SeatMarks
    rules: RuleSet
    caption: str
    markup: InlineKeyboardMarkup | None


def _frame(row: ChallengeRow, run: Run, lang: str, k: int,
           markup: InlineKeyboardMarkup | None) -> _Frame:
    return _Frame(k, run.deals[k].view(), screens.seat_names(run.rules, lang), lang,
                  screens.MARKS_OF[run.rules.players], run.rules,
                  screens.deal_caption(row, run, k, lang), markup)
