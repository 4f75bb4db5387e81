"""What every handler works with: the services, and how it reads an update and answers.

Rules live in ``engine``, table logic in :mod:`bot.table`, message layout in
:mod:`bot.present`; a handler only glues them. Every refusal is a short message (a toast for
buttons) and changes nothing.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

import regex
from telegram import Chat, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import RetryAfter, TelegramError
from telegram.ext import ContextTypes

from bot.i18n import isolate, lang_of, t
from bot.present.cups import CupMessages
from bot.present.presenter import Presenter
from bot.present.screens.words import refusal_text  # noqa: F401 (the handlers import it here)
from bot.present.votes import Votes
from bot.store import Reads, Settings
from bot.table import DEFAULT_RULES, Person, Refusal, Table, TableService, owners
from bot.table.challenge_service import ChallengeService
from bot.table.cup_service import CupService
from bot.table.rater import Rater
from engine.rules import RuleSet

Context = ContextTypes.DEFAULT_TYPE
NAME_GRAPHEMES = 16  # display names are cut to this many characters as seen (\X clusters)


def display_name(user: User) -> str:
    """How the bot calls ``user`` in every text and picture: the first name cut to
    ``NAME_GRAPHEMES`` grapheme clusters, so that an emoji (👨‍👩‍👧, 👍🏽, 🇨🇳) or a letter with its
    marks is kept whole or left out, never split; isolated (:func:`bot.i18n.isolate`)."""
    raw = user.first_name or user.username or str(user.id)
    return isolate("".join(regex.findall(r"\X", raw)[:NAME_GRAPHEMES]))


def topic_of(update: Update) -> int | None:
    """The forum topic an update's message was sent in, None outside one. Only a topic
    message's ``message_thread_id`` names a topic: in General, and in any supergroup, a
    reply carries the id of the replied-to thread root instead, which no message can be sent
    to ("message thread not found")."""
    msg = update.effective_message
    return msg.message_thread_id if msg is not None and msg.is_topic_message else None


@dataclass
class Env:
    """The services a handler calls, and the ways it answers (every reply goes through the
    presenter's paced outboxes)."""

    service: TableService
    presenter: Presenter
    reads: Reads  # the store seen read-only, for the answers; every write goes through a service
    settings: Settings  # what a command sets of a user, a group, its club: the store
    default_lang: str
    votes: Votes | None = None  # 解散 and replacement votes (built with the job queue)
    challenges: ChallengeService | None = None  # 复式挑战 (bot.table.challenge_service)
    cups: CupService | None = None  # 群杯 (bot.table.cup_service)
    cup_messages: CupMessages | None = None
    rater: Rater | None = None  # the skill ratings (bot.table.rater): nudged by a /void
    # the languages users chose privately (/lang zh|en), by user: read from the store at
    # start, kept here as they change, since every reply needs its language at once
    chosen_langs: dict[int, str] = field(default_factory=dict)
    _probes: Iterator[int] = field(default_factory=itertools.count, init=False, repr=False)

    def lang(self, user: User | None) -> str:
        """The user's language: the one he chose privately (/lang), else his Telegram
        client's."""
        if user is not None and user.id in self.chosen_langs:
            return self.chosen_langs[user.id]
        return lang_of(user.language_code if user else None, self.default_lang)

    async def person(self, user: User, dm_ok: bool = False) -> Person:
        """The user as a table knows him, his name and language stored on the way."""
        lang = self.lang(user)
        name = display_name(user)
        await self.settings.upsert_user(user.id, name, user.username, lang, dm_ok)
        return Person(user.id, name, lang)

    def reply_group(self, chat: Chat, thread_id: int | None, key: str, **fields: object) -> None:
        self.presenter.note(chat.id, lambda lang: t(lang, key, **fields), thread_id=thread_id)

    def say(self, chat: Chat, user: User | None, text_of: Callable[[str], str],
            thread_id: int | None = None) -> None:
        """Reply in the chat's language: the user's in a private chat, the group's in a group
        (in the forum topic ``thread_id`` the command came from, if any).

        Every reply goes through the chat's paced outbox and the bot-wide gate, which wait
        their turn and send again after a 429; a reply sent directly was lost to one (23 of
        90 simultaneous /start welcomes)."""
        lang = self.lang(user) if chat.type == Chat.PRIVATE else None
        self.presenter.note(chat.id, text_of, lang=lang, thread_id=thread_id)

    def answer(self, update: Update, text_of: Callable[[str], str]) -> None:
        """:meth:`say` in the update's chat, to its sender."""
        if update.effective_chat is not None:
            self.say(update.effective_chat, update.effective_user, text_of, topic_of(update))

    def answer_key(self, update: Update, key: str) -> None:
        self.answer(update, lambda lang: t(lang, key))

    def chat_lang(self, update: Update) -> str | None:
        """The language to word a reply in: the sender's in a private chat, None (the
        group's, when sent) in a group."""
        chat = update.effective_chat
        private = chat is not None and chat.type == Chat.PRIVATE
        return self.lang(update.effective_user) if private else None

    def picture(self, update: Update, draw: Callable[[str], bytes],
                caption_of: Callable[[str], str]) -> None:
        """A picture with its words as the caption, in the update's chat (and topic), in the
        chat's language as :meth:`say` words it."""
        chat = update.effective_chat
        assert chat is not None
        self.presenter.photo(chat.id, draw, caption_of, lang=self.chat_lang(update),
                             thread_id=topic_of(update))

    def group_chat(self, update: Update) -> Chat | None:
        """The group this command was sent in; in a private chat, say it is for groups."""
        chat = update.effective_chat
        if chat is not None and chat.type == Chat.PRIVATE:
            self.answer_key(update, "group_only")
            return None
        return chat

    def chat_rules(self, chat: Chat, update: Update) -> RuleSet:
        """The rules of the table in the chat (and forum topic) of ``update``; the bot's
        default rules when it has none."""
        table = (None if chat.type == Chat.PRIVATE
                 else self.service.in_chat(chat.id, topic_of(update)))
        return DEFAULT_RULES if table is None else table.rules

    async def table_of(self, chat: Chat, update: Update, user_id: int) -> Table:
        """The table a command is about: the one of the group's topic, or privately the one
        the user sits at (of this bot)."""
        if chat.type == Chat.PRIVATE:
            table = self.service.table_of_user(user_id)
            if table is None:
                raise Refusal("not_seated")
            return table
        return await self.table_here(chat, topic_of(update))

    async def table_here(self, chat: Chat, thread_id: int | None) -> Table:
        """This bot's open table of a group's topic; ``no_table`` when there is none, and
        quietly refused (:data:`bot.table.owners.ELSEWHERE`) when the topic's table is
        another bot's: that bot answers the command."""
        table = self.service.in_chat(chat.id, thread_id)
        if table is None:
            await owners.check_place_free(self.reads, self.service.bot_id, chat.id, thread_id)
            raise Refusal("no_table")
        return table

    async def can_dm(self, person: Person) -> bool:
        """Has the user opened the bot? Known from /start, else found out by trying a DM."""
        user = await self.reads.user(person.user_id)
        if user is not None and user.dm_ok:
            return True
        if not await self._probe_dm(person):
            return False
        await self.settings.upsert_user(person.user_id, person.name, None, person.lang, dm_ok=True)
        return True

    async def _probe_dm(self, person: Person) -> bool:
        """Whether a private message (``dm_ready``) reaches the user; False when he has not
        opened the bot. Sent like a reply, in turn in his chat's paced outbox and sent again
        after a 429 (which, sent directly, lost the join waiting for it); at the gate it goes
        first, since a join waits for it."""
        reached: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        async def job() -> int:
            await self.presenter.gate.slot(urgent=True)
            try:
                reached.set_result(await self.presenter.probe_dm(
                    person.user_id, t(person.lang, "dm_ready")))
            except RetryAfter:
                raise  # the outbox waits as told, then runs this job again
            except Exception as e:  # for the handler waiting on it (and the error handler)
                reached.set_exception(e)
            return 1
        self.presenter.outbox(person.user_id).put(("probe", next(self._probes)), job)
        return await reached

    @staticmethod
    async def is_admin(context: Context, chat_id: int, user_id: int) -> bool:
        try:
            member = await context.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


Handler = Callable[[Env, Update, Context], Coroutine[Any, Any, None]]
