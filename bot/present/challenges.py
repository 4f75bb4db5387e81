"""复式挑战 on Telegram's side of the presenter: the group's card (edited in place as results
come), the final card, and each participant's private picture of his current deal.

Each is a job in its chat's outbox under one key per challenge, so a burst of changes is one
call made from the state when it runs (:mod:`bot.present.outbox`), and a message the posting
room keeps (:mod:`bot.present.posts`): the card is edited only when its text changed, the
final card posted once. A participant's deal is one photo edited as he plays; when it ends
it keeps its last picture with the result, and the next deal is a new photo. After a
restart his current deal is sent again, as a new photo at the foot of his chat (its old
photo's buttons still count: they carry his decisions so far).
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardMarkup, Message
from telegram.error import Forbidden

from bot.present.chats import Chats
from bot.present.courier import Courier
from bot.present.pacing import Send, goes_first
from bot.present.posts import Kept, Posts
from bot.present.screens import challenge as screens
from bot.present.screens.seat import SeatMarks, draw_hand, hand_signature
from bot.store import Store
from bot.store.challenges import ChallengeRow
from bot.store.posts import Slot
from bot.table import ChallengeStatus, EntrantStatus
from bot.table.challenge_service import ChallengeService
from bot.table.challenges import Run
from engine.rules import RuleSet
from engine.views import PrivateView


@dataclass
class _Shown:
    """What his private chat shows of the challenge this run: deal ``deal`` (in the message
    the posting room keeps), and whether his last word was said."""

    deal: int
    done_told: bool = False


class ChallengeMessages:
    """The presenter's part for challenges (a :class:`ChallengeObserver`)."""

    def __init__(self, chats: Chats, courier: Courier, store: Store,
                 service: ChallengeService, posts: Posts) -> None:
        self.chats = chats
        self.courier = courier
        self.store = store
        self.service = service
        self.posts = posts
        self._seats: dict[tuple[int, int], _Shown] = {}

    async def _slot(self, target: int) -> None:
        await self.chats.gate.slot(urgent=goes_first(self.chats.pacing, Send.ANSWER), key=target)

    # --- the group ---------------------------------------------------------------------

    def challenge_card(self, shown: ChallengeRow) -> None:
        challenge_id = shown.id

        async def job() -> int:
            row = await self.store.challenge(challenge_id)
            if row is None:
                return 0
            target = self.chats.now(row.chat_id)
            lang = await self.chats.group_lang(target)
            return await self.posts.keep_text(
                Kept(Slot.CHALLENGE_CARD, challenge_id, target), self.courier,
                lambda: self._slot(target),
                screens.card_text(row, await self.service.standings(row), lang,
                                  await self.store.chat_timezone(row.chat_id)),
                screens.card_keyboard(row, lang), row.thread_id)
        self.chats.put(shown.chat_id, ("challenge", challenge_id), job, Send.CARD)

    def challenge_over(self, shown: ChallengeRow) -> None:
        challenge_id = shown.id

        async def job() -> int:
            row = await self.store.challenge(challenge_id)
            if row is None:
                return 0
            target = self.chats.now(row.chat_id)
            final = Kept(Slot.CHALLENGE_FINAL, challenge_id, target)
            if await self.posts.find(final) is not None:
                return 0
            lang = await self.chats.group_lang(target)
            table = await self.service.standings(row)
            diffs = await self.service.differences(row, table)
            return await self.posts.keep_text(
                final, self.courier, lambda: self._slot(target),
                screens.final_text(row, table, diffs, lang),
                screens.final_keyboard(row, table, diffs, lang), row.thread_id)
        self.chats.put(shown.chat_id, ("challenge-final", challenge_id), job, Send.CARD)

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
        if ended is not None:
            calls += await self._show(row.id, user_id, ended, fresh=False)
        calls += await self._show(row.id, user_id, now, fresh=shown is None or ended is not None)
        shown = self._seats.setdefault(key, _Shown(current))
        shown.deal = current
        if done is not None and not shown.done_told:
            await self._slot(user_id)
            await self.courier.send_message(user_id, done)
            shown.done_told = True
            calls += 1
        return calls

    async def _show(self, challenge_id: int, user_id: int, frame: _Frame, fresh: bool) -> int:
        """The frame's picture in his kept message, if it changed: edited where it is, or
        sent (``fresh``: a new photo, the old one keeping the deal it shows)."""
        painted: list[bytes] = []

        async def photo() -> bytes:
            if not painted:
                painted.append(await self.chats.render(draw_hand, frame.view, frame.names,
                                                       frame.lang, frame.marks, frame.rules))
            await self._slot(user_id)
            return painted[0]

        async def send() -> Message:
            return await self.courier.send_photo(user_id, await photo(), caption=frame.caption,
                                                 reply_markup=frame.markup)

        async def edit(msg_id: int) -> None:
            await self.courier.edit_media(user_id, msg_id, await photo(), frame.caption,
                                          frame.markup)
        looks = (hand_signature(frame.view, frame.names, frame.lang, frame.marks),
                 frame.caption, frame.markup)
        return await self.posts.keep(Kept(Slot.CHALLENGE_SEAT, challenge_id, user_id), send,
                                     edit, looks, fresh=fresh)

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
