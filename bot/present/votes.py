"""Votes at a table, as the group sees them: one message per vote (edited as answers come,
ending with who agreed), its clock on the job queue, and its row in the store. Who may
propose and who has a say are :mod:`bot.table.votes`'; what a vote decides is the table
service's (:meth:`TableService.dissolve`, :meth:`TableService.replace_seat`).

An open vote is kept in memory and as a row in the store; its message is one the posting
room keeps (:mod:`bot.present.posts`). A restart does not resume a vote (its clock and
answers are gone with the process) but cancels it, says so in the group and takes the
buttons off its message, so that nobody answers a vote that no longer counts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import cast

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError
from telegram.ext import CallbackContext, JobQueue

from bot import callbacks as cb
from bot.i18n import t
from bot.present.errors import transient
from bot.present.pacing import Send
from bot.present.posts import Kept
from bot.present.presenter import Presenter
from bot.store import Store, VoteRow
from bot.store.club import day_start
from bot.store.posts import Slot
from bot.table import ABSENT_HANDS, Person, Refusal, Table, TableService
from bot.table import votes as rules
from bot.table.votes import DISSOLVE, REPLACE

log = logging.getLogger(__name__)

Text = Callable[[str], str]  # a text in the language given


def job_name(table_id: int) -> str:
    return f"vote:{table_id}"


@dataclass(eq=False)
class Vote:
    id: int
    table_id: int
    chat_id: int
    thread_id: int | None
    kind: str  # DISSOLVE | REPLACE
    proposer: int
    proposer_name: str
    voters: dict[int, str]  # who must agree: user id -> name
    subject: int  # DISSOLVE: the hand voted on; REPLACE: the seat
    ends_at: float  # clock time
    target: int | None = None  # REPLACE: the user to be replaced
    target_name: str = ""
    agreed: list[int] = field(default_factory=list)
    final: Text | None = None  # how it ended (the message then has no buttons)

    def what(self, lang: str) -> str:
        if self.kind == DISSOLVE:
            return t(lang, "vote_what_dissolve")
        return t(lang, "vote_what_replace", target=self.target_name, hands=ABSENT_HANDS)


class Votes:
    def __init__(self, service: TableService, store: Store, presenter: Presenter,
                 job_queue: JobQueue, seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.store = store
        self.presenter = presenter
        self.job_queue = job_queue
        self.seconds = seconds
        self.clock = clock
        self._open: dict[int, Vote] = {}  # by table id
        self.cup_table: Callable[[int], bool] = lambda table_id: False  # a 群杯's table?
        self._lock = asyncio.Lock()  # proposals and answers, one at a time

    def open_vote(self, table_id: int) -> Vote | None:
        return self._open.get(table_id)

    # --- proposals -------------------------------------------------------------------

    async def propose_dissolve(self, table_id: int, person: Person) -> None:
        """/dissolve: end the hand in play, if every other seated human agrees."""
        async with self._lock:
            table = self._proposable(table_id, person.user_id)
            hand_id = rules.dissolved_hand(table)
            await self._check_club(table, person.user_id)
            await self._open_vote(table, DISSOLVE, person, rules.voters(table, person.user_id),
                                  hand_id)

    async def _check_club(self, table: Table, user_id: int) -> None:
        """The group's club settings (/club): 禁止解散 at a 群杯's tables, and the 解散
        votes a member may propose a club day (counted here, once allowed)."""
        settings = await self.store.club_settings(table.chat_id)
        if settings.cup_no_dissolve and self.cup_table(table.id):
            raise Refusal("dissolve_cup_forbidden")
        limit = settings.dissolve_limit
        if limit is not None:
            asked = await self.store.dissolve_asks(table.chat_id, user_id, day_start(
                datetime.now(UTC)))
            if asked >= limit:
                raise Refusal("dissolve_limit_reached", n=str(limit))
        await self.store.add_dissolve_ask(table.chat_id, user_id)

    async def propose_replace(self, table_id: int, person: Person) -> None:
        """/replace: a computer player for the first seat in 托管 for ``ABSENT_HANDS`` whole
        hands, between hands, if every other seated human (him excepted) agrees."""
        async with self._lock:
            table = self._proposable(table_id, person.user_id)
            absent = await self.service.absent_seats(table)
            seat, target = rules.replaced_seat(table, absent, person.user_id)
            voters = rules.voters(table, person.user_id, target.user_id)
            await self._open_vote(table, REPLACE, person, voters, seat, target.user_id,
                                  target.name)

    def _proposable(self, table_id: int, user_id: int) -> Table:
        table = self.service.get(table_id)
        rules.check_proposable(table, user_id, table_id in self._open)
        return table

    async def _open_vote(self, table: Table, kind: str, person: Person, voters: dict[int, str],
                         subject: int, target: int | None = None, target_name: str = "") -> None:
        vote_id = await self.store.add_vote(table.id, kind, person.user_id)
        vote = Vote(vote_id, table.id, table.chat_id, table.thread_id, kind, person.user_id,
                    person.name, voters, subject, self.clock() + self.seconds, target,
                    target_name)
        self._open[table.id] = vote
        if not voters:  # nobody else to ask: agreed
            await self._carry(vote)
            return
        self._show(vote)
        self.job_queue.run_once(self._expire, when=self.seconds, name=job_name(table.id),
                                data=(table.id, vote.id))

    # --- answers ---------------------------------------------------------------------

    async def answer(self, table_id: int, vote_id: int, user_id: int, yes: bool) -> str:
        """同意 / 拒绝 pressed; the i18n key of the toast. A press of a vote that is over (or
        of another) is ``stale``; one of who has no say is told so."""
        async with self._lock:
            vote = self._open.get(table_id)
            if vote is None or vote.id != vote_id:
                raise Refusal("stale")
            if user_id == vote.proposer:
                raise Refusal("vote_proposer")
            if user_id not in vote.voters:
                raise Refusal("vote_not_voter")
            if user_id in vote.agreed:
                raise Refusal("vote_already")
            if not yes:
                name = vote.voters[user_id]
                await self._end(vote, lambda lang: t(lang, "vote_refused", what=vote.what(lang),
                                                     name=name))
                return "vote_declined"
            vote.agreed.append(user_id)
            if set(vote.agreed) == set(vote.voters):
                await self._carry(vote)
            else:
                self._show(vote)
            return "vote_agreed"

    async def _expire(self, context: CallbackContext) -> None:
        assert context.job is not None
        table_id, vote_id = cast(tuple[int, int], context.job.data)
        async with self._lock:
            vote = self._open.get(table_id)
            if vote is not None and vote.id == vote_id:
                seconds = round(self.seconds)
                await self._end(vote, lambda lang: t(lang, "vote_timed_out",
                                                     what=vote.what(lang), seconds=seconds))

    async def _carry(self, vote: Vote) -> None:
        """Everyone agreed: the table service acts, unless the table moved on meanwhile (the
        hand ended, the seat was left, the table closed)."""
        try:
            if vote.kind == DISSOLVE:
                await self.service.dissolve(vote.table_id, vote.proposer, vote.subject)
            else:
                assert vote.target is not None
                lang = await self.presenter.group_lang(vote.chat_id)
                await self.service.replace_seat(vote.table_id, vote.subject, vote.target, lang)
        except Refusal:
            await self._end(vote, lambda lang: t(lang, "vote_overtaken", what=vote.what(lang)))
            return
        names = [vote.proposer_name, *(vote.voters[u] for u in vote.agreed)]
        await self._end(vote, lambda lang: t(lang, "vote_passed", what=vote.what(lang),
                                             names=t(lang, "name_sep").join(names)))

    async def _end(self, vote: Vote, final: Text) -> None:
        self._open.pop(vote.table_id, None)
        for job in self.job_queue.get_jobs_by_name(job_name(vote.table_id)):
            job.schedule_removal()
        await self.store.drop_vote(vote.id)
        vote.final = final
        self._show(vote)

    # --- the group message -----------------------------------------------------------

    def _text(self, vote: Vote, lang: str) -> str:
        if vote.final is not None:
            return vote.final(lang)
        sep, nobody = t(lang, "name_sep"), t(lang, "vote_nobody")
        left = max(0, round(vote.ends_at - self.clock()))
        return t(lang, "vote_open_text", name=vote.proposer_name, what=vote.what(lang),
                 seconds=left,
                 agreed=sep.join(vote.voters[u] for u in vote.agreed) or nobody,
                 waiting=sep.join(n for u, n in vote.voters.items() if u not in vote.agreed)
                 or nobody)

    def _markup(self, vote: Vote, lang: str) -> InlineKeyboardMarkup | None:
        if vote.final is not None:
            return None
        return InlineKeyboardMarkup([[
            InlineKeyboardButton(t(lang, "btn_vote_yes"),
                                 callback_data=cb.Vote(vote.table_id, vote.id, True).pack()),
            InlineKeyboardButton(t(lang, "btn_vote_no"),
                                 callback_data=cb.Vote(vote.table_id, vote.id, False).pack())]])

    def _show(self, vote: Vote) -> None:
        """Send the vote's message, or edit it to what the vote is now (coalesced: the job
        reads the vote when it runs)."""
        presenter = self.presenter

        async def job() -> int:
            target = presenter.chat_now(vote.chat_id)
            lang = await presenter.group_lang(target)
            return await self._keep(vote.id, target, vote.thread_id, self._text(vote, lang),
                                    self._markup(vote, lang))
        presenter.chats.put(vote.chat_id, ("vote", vote.id), job, Send.CARD)

    async def _keep(self, vote_id: int, target: int, thread_id: int | None, text: str,
                    markup: InlineKeyboardMarkup | None = None) -> int:
        """The vote's message in the group, as the posting room keeps it: edited, or sent
        when it has none. A refusal that trying again would not change (a closed topic, say)
        is logged and the message left as it is."""
        presenter = self.presenter
        try:
            return await presenter.posts.keep_text(
                Kept(Slot.VOTE, vote_id, target), presenter.bot,
                lambda: presenter.gate.slot(key=target), text, markup, thread_id)
        except TelegramError as e:
            if transient(e):
                raise  # the outbox waits (a 429) or tries again, reading the vote anew
            log.info("could not show vote %s: %s", vote_id, e)
            return 1

    # --- start-up --------------------------------------------------------------------

    async def cancel_stored(self) -> None:
        """After a restart: every vote left open is cancelled, and its group is told. Its row
        goes only once its message says so: a 429 is waited out by the outbox and the edit
        made again, and a restart before that tells it again."""
        for row in await self.store.open_votes(self.service.bot_id):
            self._tell_cancelled(row)

    def _tell_cancelled(self, row: VoteRow) -> None:
        presenter = self.presenter

        async def job() -> int:
            target = presenter.chat_now(row.chat_id)
            lang = await presenter.group_lang(target)
            what = t(lang, "vote_what_dissolve" if row.kind == DISSOLVE
                     else "vote_what_replace_short")
            made = await self._keep(row.id, target, row.thread_id,
                                    t(lang, "vote_cancelled_restart", what=what))
            await self.store.drop_vote(row.id)
            return made
        presenter.chats.put(row.chat_id, ("vote", row.id), job, Send.CARD)
