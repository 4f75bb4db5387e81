"""Thin async handlers: parse the update, call the table service, answer politely.

Rules live in ``engine``, table logic in :mod:`bot.tables`, message layout in
:mod:`bot.present`; a handler only glues them. Every refusal is a short message (a toast for
buttons) and changes nothing.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

import regex
from telegram import CallbackQuery, Chat, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import RetryAfter, TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot import birds, calc, rulebook, stats
from bot import callbacks as cb
from bot.i18n import CATALOGS, isolate, lang_of, rule_set_name, t
from bot.present import fairness, replays
from bot.present.presenter import Presenter
from bot.store import PlayedHand, Store
from bot.tables import DEFAULT_RULES, MATCHES, Person, Refusal, Table, TableService
from bot.votes import Votes
from engine import actions as A
from engine.rules import RULE_SETS, RuleSet, table_rules

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
JOIN_PAYLOAD = "j"
STARTGROUP_PAYLOAD = "paohuzi"  # the 添加到群组 link's: the group's /start gets the help
NAME_GRAPHEMES = 16  # display names are cut to this many characters as seen (\X clusters)
# /new's words (read, never written): the rule sets' names besides their ids, and 4人 for 4
SEATS_WORD = "人"
RULE_WORDS = {"湖南": "hunan", "湖南跑胡子": "hunan", "六胡抢": "four14", "四人十四张": "four14",
              "跑胡子": "qq", "qq跑胡子": "qq"}
# a ⚙ option code's letter: the setting it changes (see bot.callbacks)
OPTION_SETTINGS = {"r": "rules", "s": "seats", "x": "two_seat", "b": "base", "t": "timer",
                   "h": "match"}
MATCH_WORD = "局"
BARE_MATCHES = frozenset({8, 16})  # a bare number that is a match's hands, never seats


@dataclass(frozen=True)
class Reply:
    """How a press is answered: a toast (an alert when ``alert``), or a link to open."""

    text: str | None
    url: str | None = None
    alert: bool = False


def display_name(user: User) -> str:
    """How the bot calls ``user`` in every text and picture: the first name cut to
    ``NAME_GRAPHEMES`` grapheme clusters, so that an emoji (👨‍👩‍👧, 👍🏽, 🇨🇳) or a letter with its
    marks is kept whole or left out, never split; isolated (:func:`bot.i18n.isolate`)."""
    raw = user.first_name or user.username or str(user.id)
    return isolate("".join(regex.findall(r"\X", raw)[:NAME_GRAPHEMES]))


def rules_from_args(args: list[str]) -> RuleSet:
    """The rules ``/new [qq|hunan|four14] [2|3|4]`` asks for (in either order; ``4人`` and
    the Chinese names too); ``ValueError`` for anything else."""
    rule_id, seats = "qq", None
    for word in args:
        word = word.lower().removesuffix(SEATS_WORD)
        if word.isdigit():
            seats = int(word)
        elif word in RULE_SETS or word in RULE_WORDS:
            rule_id = RULE_WORDS.get(word, word)
        else:
            raise ValueError(f"unknown /new argument {word!r}")
    return table_rules(rule_id, seats)


def match_from_args(args: list[str]) -> tuple[list[str], int]:
    """Split /new's arguments into the rest and the hands of a match (1: single hands):
    ``4局``/``8局``/``16局``, or a bare 8 or 16 (a bare 4 is the seats, ``4局`` the match);
    ``ValueError`` for a 局 count that is not offered."""
    rest, hands = [], 1
    for word in args:
        count = word.removesuffix(MATCH_WORD)
        if count.isdigit() and (word.endswith(MATCH_WORD) or int(count) in BARE_MATCHES):
            if int(count) not in MATCHES or int(count) == 1:
                raise ValueError(f"no match of {count} hands")
            hands = int(count)
        else:
            rest.append(word)
    return rest, hands


def new_usage(lang: str) -> str:
    """/new's usage with every rule set and its seat counts."""
    choices = "\n".join(t(lang, "new_choice", id=rid, name=rule_set_name(rid, lang),
                           seats="/".join(map(str, rules.seat_choices)))
                         for rid, rules in RULE_SETS.items())
    return t(lang, "new_usage", choices=choices) + "\n" + t(lang, "new_usage_match")


def topic_of(update: Update) -> int | None:
    """The forum topic an update's message was sent in, None outside one. Only a topic
    message's ``message_thread_id`` names a topic: in General, and in any supergroup, a
    reply carries the id of the replied-to thread root instead, which no message can be sent
    to ("message thread not found")."""
    msg = update.effective_message
    return msg.message_thread_id if msg is not None and msg.is_topic_message else None


def refusal_text(refusal: Refusal, lang: str) -> str:
    """A refusal in words; a ``move`` field (an action string) is labelled in ``lang``."""
    fields = {k: A.label(v, lang) if k == "move" else v for k, v in refusal.fields.items()}
    return t(lang, refusal.code, **fields)


@dataclass
class Handlers:
    service: TableService
    presenter: Presenter
    store: Store
    default_lang: str
    votes: Votes | None = None  # 解散 and replacement votes (built with the job queue)
    _probes: Iterator[int] = field(default_factory=itertools.count, init=False, repr=False)

    # --- helpers ---------------------------------------------------------------------

    def _lang(self, user: User | None) -> str:
        return lang_of(user.language_code if user else None, self.default_lang)

    async def _person(self, user: User, dm_ok: bool = False) -> Person:
        lang = self._lang(user)
        name = display_name(user)
        await self.store.upsert_user(user.id, name, user.username, lang, dm_ok)
        return Person(user.id, name, lang)

    def _reply_group(self, chat: Chat, thread_id: int | None, key: str, **fields: object) -> None:
        self.presenter.note(chat.id, lambda lang: t(lang, key, **fields), thread_id=thread_id)

    def _say(self, chat: Chat, user: User | None, text_of: Callable[[str], str],
             thread_id: int | None = None) -> None:
        """Reply in the chat's language: the user's in a private chat, the group's in a group
        (in the forum topic ``thread_id`` the command came from, if any).

        Every reply goes through the chat's paced outbox and the bot-wide gate, which wait
        their turn and send again after a 429; a reply sent directly was lost to one (23 of
        90 simultaneous /start welcomes)."""
        lang = self._lang(user) if chat.type == Chat.PRIVATE else None
        self.presenter.note(chat.id, text_of, lang=lang, thread_id=thread_id)

    async def _can_dm(self, person: Person) -> bool:
        """Has the user opened the bot? Known from /start, else found out by trying a DM."""
        user = await self.store.user(person.user_id)
        if user is not None and user.dm_ok:
            return True
        if not await self._probe_dm(person):
            return False
        await self.store.upsert_user(person.user_id, person.name, None, person.lang, dm_ok=True)
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
    async def _is_admin(context: Context, chat_id: int, user_id: int) -> bool:
        try:
            member = await context.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    # --- commands --------------------------------------------------------------------

    async def start(self, update: Update, context: Context) -> None:
        """Private /start, optionally with a deep-link payload ``j<table id>`` that seats."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        person = await self._person(user, dm_ok=True)
        payload = context.args[0] if context.args else ""
        if payload.startswith(JOIN_PAYLOAD) and payload[1:].isdigit():
            try:
                table = await self.service.join(int(payload[1:]), person)
            except Refusal as r:
                self._say(chat, user, partial(refusal_text, r))
                return
            title = await self._chat_title(context, table.chat_id)
            self._say(chat, user, lambda lang: t(lang, "joined_dm", chat=title, table=table.id))
            return
        link = f"https://t.me/{context.bot.username}?startgroup={STARTGROUP_PAYLOAD}"
        self.presenter.link_note(chat.id, lambda lang: t(lang, "start_private", name=person.name),
                                 lambda lang: [(t(lang, "btn_add_to_group"), link)],
                                 lang=self._lang(user))

    async def group_start(self, update: Update, context: Context) -> None:
        """/start in a group: sent by Telegram when the bot is added by its 添加到群组 link."""
        await self._text(update, "help")

    @staticmethod
    async def _chat_title(context: Context, chat_id: int) -> str:
        try:
            chat = await context.bot.get_chat(chat_id)
        except TelegramError:
            return str(chat_id)
        return isolate(chat.title) if chat.title else str(chat_id)

    async def help(self, update: Update, context: Context) -> None:
        await self._text(update, "help")

    async def rules(self, update: Update, context: Context) -> None:
        """/rules [rule set [seats [option]]]: the rules of the chat's table (or those named)
        in a few lines, as the caption of the rule set's full page."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None:
            return
        rules = rulebook.asked_rules(context.args or [], self._chat_rules(chat, update))
        if rules is None:
            self._answer(update, rulebook.usage)
            return
        found = rulebook.page(rules.id)
        if found is None:
            self._answer(update, lambda lang: "\n".join(
                (rulebook.summary(rules, lang), t(lang, "rules_no_page"))))
            return
        name, data = found
        self.presenter.document(chat.id, name, data, lambda lang: "\n".join(
            (rulebook.summary(rules, lang), t(lang, "rules_page"))),
            lang=self._lang(user) if chat.type == Chat.PRIVATE else None,
            thread_id=topic_of(update))

    async def _text(self, update: Update, key: str) -> None:
        self._answer(update, lambda lang: t(lang, key))

    async def lang(self, update: Update, context: Context) -> None:
        """/lang zh|en: a group admin sets the language of the group's messages."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        if chat.type == Chat.PRIVATE:
            self._say(chat, user, lambda lang: t(lang, "group_only"))
            return
        wanted = context.args[0].lower() if context.args else ""
        thread = topic_of(update)
        if wanted not in CATALOGS:
            self._reply_group(chat, thread, "lang_usage")
        elif not await self._is_admin(context, chat.id, user.id):
            self._reply_group(chat, thread, "only_admin")
        else:
            await self.store.set_chat_lang(chat.id, wanted, chat.title)
            self.presenter.set_group_lang(chat.id, wanted)
            self._reply_group(chat, thread, "lang_set")

    def _answer(self, update: Update, text_of: Callable[[str], str]) -> None:
        """:meth:`_say` in the update's chat, to its sender."""
        if update.effective_chat is not None:
            self._say(update.effective_chat, update.effective_user, text_of, topic_of(update))

    async def _group_chat(self, update: Update) -> Chat | None:
        """The group this command was sent in; in a private chat, say it is for groups."""
        chat = update.effective_chat
        if chat is not None and chat.type == Chat.PRIVATE:
            self._answer(update, lambda lang: t(lang, "group_only"))
            return None
        return chat

    async def calc(self, update: Update, context: Context) -> None:
        """/calc [rule set] cards [melds] [+ card] [自摸], in any chat."""
        msg = update.effective_message
        if msg is None or not msg.text:
            return
        parts = msg.text.split(maxsplit=1)
        text = parts[1] if len(parts) > 1 else ""
        self._answer(update, lambda lang: calc.reply(text, lang))

    def _chat_rules(self, chat: Chat, update: Update) -> RuleSet:
        """The rules of the table in the chat (and forum topic) of ``update``; the bot's
        default rules when it has none."""
        table = (None if chat.type == Chat.PRIVATE
                 else self.service.in_chat(chat.id, topic_of(update)))
        return DEFAULT_RULES if table is None else table.rules

    async def rank(self, update: Update, context: Context) -> None:
        """/rank [qq|hunan|four14] [all]: the top players of one rule set (the chat's table's
        by default) in this group, or with ``all`` (and in private) in every group."""
        chat = update.effective_chat
        if chat is None:
            return
        query = stats.rank_query(context.args or [], chat.type == Chat.PRIVATE,
                                 self._chat_rules(chat, update).id)
        if query is None:
            self._answer(update, stats.rank_usage)
            return
        rows = await self.store.ranking(None if query.everyone else chat.id, stats.TOP,
                                        rule_set=query.rule_set)
        if not rows:
            self._answer(update, lambda lang: stats.rank_text(rows, lang, query))
            return
        board = await stats.board_rows(self.store, rows, query, chat.id)
        self._picture(update, partial(stats.draw_board, board, query),
                      lambda lang: stats.rank_text(rows, lang, query))

    async def me(self, update: Update, context: Context) -> None:
        """/me: one's points, 等级, hands, wins and best hand (and this group's share), as
        the caption of the player card of one rule set (see :func:`bot.stats.card_part`)."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        person = await self._person(user)
        here = None if chat.type == Chat.PRIVATE else chat.id
        me = await stats.me_data(self.store, user.id, person.name, here)
        table = None if here is None else self.service.in_chat(chat.id, topic_of(update))
        part = stats.card_part(me, None if table is None else table.rules.id)
        hands = await self.store.user_hands(user.id, part.rule_set, stats.CARD_HANDS)
        self._picture(update, partial(stats.draw_card, person.name, user.id, part, hands),
                      lambda lang: stats.me_text(me, lang))

    def _picture(self, update: Update, draw: Callable[[str], bytes],
                 caption_of: Callable[[str], str]) -> None:
        """A picture with its words as the caption, in the update's chat (and topic), in the
        chat's language as :meth:`_say` words it."""
        chat = update.effective_chat
        assert chat is not None
        lang = self._lang(update.effective_user) if chat.type == Chat.PRIVATE else None
        self.presenter.photo(chat.id, draw, caption_of, lang=lang, thread_id=topic_of(update))

    async def history(self, update: Update, context: Context) -> None:
        """/history: the group's last finished hands."""
        chat = await self._group_chat(update)
        if chat is None:
            return
        items = await stats.history_data(self.store, chat.id)
        self._answer(update, lambda lang: stats.history_text(items, lang))

    async def export(self, update: Update, context: Context) -> None:
        """/export: the group's last finished hand as a verifiable JSON document."""
        chat = await self._group_chat(update)
        if chat is None:
            return
        last = await self.store.finished_hands(chat.id, 1)
        if not last:
            self._answer(update, lambda lang: t(lang, "export_none"))
            return
        played = last[0]
        name, data, sha = fairness.export_file(played)
        self.presenter.document(chat.id, name, data, lambda lang: t(
            lang, "export_caption", no=played.no, seed=played.seed, sha=sha, file=name),
            thread_id=topic_of(update))

    async def replay(self, update: Update, context: Context) -> None:
        """/replay [N]: a finished hand's replay stepper (see :mod:`bot.present.replays`); in a group
        its hand number N (the last by default), in private the id N of a hand one sat at."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        private = chat.type == Chat.PRIVATE
        number = replays.hand_number(context.args or [])
        if number is None:
            self._answer(update, lambda lang: t(lang, "replay_dm_usage" if private
                                                else "replay_usage"))
            return
        found = await (self._own_hand(user.id, number) if private
                       else self._group_hand(chat.id, number))
        if isinstance(found, str):
            key = found
            self._answer(update, lambda lang: t(lang, key, no=number, id=number))
            return
        self.presenter.replay(chat.id, found, replays.total_steps(found),
                              lang=self._lang(user) if private else None,
                              thread_id=topic_of(update))

    async def _group_hand(self, chat_id: int, no: int) -> PlayedHand | str:
        """The group's finished hand number ``no`` (0: its last), or the key saying why not."""
        if no == 0:
            last = await self.store.finished_hands(chat_id, 1)
            return last[0] if last else "replay_none"
        hand = await self.store.hand_in_chat(chat_id, no)
        if hand is None:
            return "replay_unknown"
        hand_id, status = hand
        found = await self.store.played_hand(hand_id) if status == "done" else None
        if found is None:
            return "replay_running" if status == "running" else "replay_aborted"
        return found[1]

    async def _own_hand(self, user_id: int, hand_id: int) -> PlayedHand | str:
        """The finished hand ``hand_id`` (0: the last) ``user_id`` sat at, or why not."""
        if hand_id == 0:
            last = await self.store.last_played_id(user_id)
            if last is None:
                return "replay_dm_none"
            hand_id = last
        found = await self.store.played_hand(hand_id)
        if found is None or user_id not in found[1].users:
            return "replay_dm_unknown"
        return found[1]

    # --- votes and /notify ------------------------------------------------------------

    async def dissolve(self, update: Update, context: Context) -> None:
        """/dissolve: propose to end the hand in play (in the group, or privately: the
        table one sits at)."""
        await self._propose(update, replace=False)

    async def replace(self, update: Update, context: Context) -> None:
        """/replace: propose a computer player for a seat in 托管 two whole hands running."""
        await self._propose(update, replace=True)

    async def _propose(self, update: Update, *, replace: bool) -> None:
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None or self.votes is None:
            return
        person = await self._person(user)
        try:
            table = self._table_of(chat, update, user.id)
            if replace:
                await self.votes.propose_replace(table.id, person)
            else:
                await self.votes.propose_dissolve(table.id, person)
        except Refusal as r:
            self._answer(update, partial(refusal_text, r))

    def _table_of(self, chat: Chat, update: Update, user_id: int) -> Table:
        """The table a command is about: the one of the group's topic, or privately the one
        the user sits at."""
        if chat.type == Chat.PRIVATE:
            table = self.service.table_of_user(user_id)
            if table is None:
                raise Refusal("not_seated")
            return table
        table = self.service.in_chat(chat.id, topic_of(update))
        if table is None:
            raise Refusal("no_table")
        return table

    async def notify(self, update: Update, context: Context) -> None:
        """/notify [off] in a group: a private note when a table opens here or its lobby
        lacks one player (see ``bot.notify``); needs the user to have started the bot."""
        chat, user = await self._group_chat(update), update.effective_user
        if chat is None or user is None:
            return
        person = await self._person(user)
        thread = topic_of(update)
        if context.args and context.args[0].lower() == "off":
            async with self.store.transaction() as tx:
                await tx.subscribe(chat.id, user.id, on=False)
            self._reply_group(chat, thread, "notify_off")
            return
        known = await self.store.user(person.user_id)
        if known is None or not known.dm_ok:
            self._reply_group(chat, thread, "notify_need_dm",
                              link=f"https://t.me/{self.presenter.username}")
            return
        async with self.store.transaction() as tx:
            await tx.subscribe(chat.id, user.id, on=True)
        self._reply_group(chat, thread, "notify_on")

    async def unknown(self, update: Update, context: Context) -> None:
        """Any other text in a private chat, or a command addressed to this bot in a group."""
        self._answer(update, lambda lang: t(lang, "unknown_command"))

    async def group_command(self, update: Update, context: Context) -> None:
        """/new /join /leave /begin /stop /addbot /removebot in a group."""
        chat, msg, user = update.effective_chat, update.effective_message, update.effective_user
        if chat is None or msg is None or user is None or not msg.text:
            return
        command = msg.text.split()[0][1:].split("@")[0].lower()
        if chat.type == Chat.PRIVATE:
            self._say(chat, user, lambda lang: t(lang, "group_only"))
            return
        person = await self._person(user)
        thread = topic_of(update)
        try:
            await self._run_group(command, chat, thread, person, context)
        except Refusal as r:
            self.presenter.note(chat.id, partial(refusal_text, r), thread_id=thread)

    async def _run_group(self, command: str, chat: Chat, thread: int | None, person: Person,
                         context: Context) -> None:
        """A group command acts on the table of the forum topic it was sent in (``thread``)."""
        table = self.service.in_chat(chat.id, thread)
        if command == "new":
            try:
                rest, hands = match_from_args(list(context.args or ()))
                rules = rules_from_args(rest)
            except ValueError:
                self.presenter.note(chat.id, new_usage, thread_id=thread)
                return
            if table is not None:
                raise Refusal("table_exists")
            if not await self._can_dm(person):
                self._reply_need_dm(chat, thread, None)
                return
            await self.store.set_chat_lang(chat.id, await self.presenter.group_lang(chat.id),
                                           chat.title)
            await self.service.open(chat.id, person, rules, thread_id=thread, match_hands=hands)
            return
        if table is None:
            raise Refusal("no_table")
        if command == "join":
            if not await self._can_dm(person):
                self._reply_need_dm(chat, thread, table.id)
                return
            await self.service.join(table.id, person)
        elif command == "leave":
            quote = self.service.escape_quote(table.id, person.user_id)
            if quote is None:
                await self.service.leave(table.id, person.user_id)
            else:
                self._ask_escape(table.id, person.user_id, person.lang, quote)
        elif command == "begin":
            await self.service.begin(table.id, person.user_id)
        elif command == "addbot":
            await self.service.add_robot(table.id, person.user_id,
                                         await self.presenter.group_lang(chat.id))
        elif command == "removebot":
            await self.service.remove_robot(table.id, person.user_id)
        elif command == "stop":
            admin = await self._is_admin(context, chat.id, person.user_id)
            record = self.service.stop_quote(table.id, person.user_id, admin)
            if record is None:
                await self.service.stop(table.id, person.user_id, admin)
            else:  # a running hand would be voided: ask the group first
                self.presenter.note(chat.id, lambda lang: t(lang, "stop_confirm", hand=record.no),
                                    buttons_of=self._confirm_buttons("s", table.id, record.id),
                                    thread_id=thread)

    def _ask_escape(self, table_id: int, user_id: int, lang: str,
                    quote: tuple[int, int]) -> None:
        """Ask in the user's private chat whether to 逃跑 from hand ``quote[0]``, paying
        ``quote[1]`` to each other seat (for him alone: it depends on the others' cards)."""
        hand_id, points = quote
        self.presenter.note(user_id, lambda lang: t(lang, "escape_confirm", points=points),
                            lang=lang, buttons_of=self._confirm_buttons("e", table_id, hand_id))

    @staticmethod
    def _confirm_buttons(kind: str, table_id: int,
                         hand_id: int) -> Callable[[str], list[tuple[str, str]]]:
        return lambda lang: [(t(lang, f"btn_confirm_{kind}"), cb.confirm(kind, table_id, hand_id)),
                             (t(lang, "btn_cancel"), cb.confirm("k", table_id, hand_id))]

    def _reply_need_dm(self, chat: Chat, thread: int | None, table_id: int | None) -> None:
        """Ask to open the bot first, saying for what: to join ``table_id`` (its deep link
        names the table, so it seats at the one of this topic), or (None) to open a table."""
        if table_id is None:
            self._reply_group(chat, thread, "need_dm_new",
                              link=f"https://t.me/{self.presenter.username}")
        else:
            self._reply_group(chat, thread, "need_dm", link=self.presenter.deep_link(table_id))

    # --- buttons ---------------------------------------------------------------------

    async def button(self, update: Update, context: Context) -> None:
        """Every inline button. The query is answered once, after the service has ruled, so
        that a refusal is its toast; malformed or foreign data is refused as outdated."""
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        lang = self._lang(user)
        press = cb.parse(query.data)
        if press is None:
            await query.answer(t(lang, "stale"))
            return
        if press.kind == cb.REPLAY_KIND:
            await self._replay_press(query, press, user, lang)
            return
        try:
            if press.kind == "h":  # 提示: its own text, shown until dismissed
                reason = await self.service.hint(press.table_id, user.id, lang)
                await query.answer(t(lang, "hint", reason=reason), show_alert=True)
                return
            if press.kind == cb.VOTE_KIND:  # 同意 / 拒绝
                assert self.votes is not None
                key = await self.votes.answer(press.table_id, press.version, user.id,
                                              bool(press.index))
                await query.answer(t(lang, key))
                return
            if press.kind in cb.CONFIRM_KINDS:
                await self._confirmation(query, press, user, lang, context)
                return
            if press.kind in cb.GROUP_KINDS:  # of this very lobby or settlement, or outdated
                status = "lobby" if press.kind in cb.LOBBY_KINDS else "between"
                self.service.check_live(press.table_id, status, press.version)
            if press.kind == cb.OPTION_KIND:  # ⚙, of this very lobby too
                self.service.check_live(press.table_id, "lobby", press.version)
                await query.answer(await self._option(press, user, lang))
                return
            reply = await self._press(press, user, lang)
        except Refusal as r:
            await query.answer(refusal_text(r, lang), show_alert=False)
            return
        if reply.url is not None:
            await query.answer(t(lang, "need_dm_toast"), url=reply.url)
        else:
            await query.answer(reply.text, show_alert=reply.alert)

    async def _replay_press(self, query: CallbackQuery, press: cb.Press, user: User,
                            lang: str) -> None:
        """A replay button: its message's edit to the step asked for is queued (paced; see
        ``Presenter.replay``) and the press answered at once. Refused unless the hand is the
        group's (in a group) or the presser's own (in private)."""
        msg = query.message
        found = await self.store.played_hand(press.table_id)
        if msg is None or found is None or not 0 <= press.version <= len(found[1].log):
            await query.answer(t(lang, "stale"))
            return
        chat_id, played = found
        private = msg.chat.type == Chat.PRIVATE
        belongs = (user.id in played.users if private
                   else self.presenter.chat_now(chat_id) == msg.chat.id)
        if not belongs:
            await query.answer(t(lang, "replay_foreign"))
            return
        self.presenter.replay(msg.chat.id, played, press.version, message_id=msg.message_id,
                              lang=lang if private else None)
        await query.answer()

    async def _confirmation(self, query: CallbackQuery, press: cb.Press, user: User, lang: str,
                            context: Context) -> None:
        """确认 / 取消 of a question about a running hand (``press.version`` is its id): the
        answer first, then the question loses its buttons."""
        chat_id = query.message.chat.id if query.message is not None else user.id
        admin = chat_id < 0 and await self._is_admin(context, chat_id, user.id)
        if press.kind == "e":
            await self.service.leave(press.table_id, user.id, press.version)
            await query.answer(t(lang, "escaped"))
        elif press.kind == "s":
            await self.service.stop(press.table_id, user.id, admin, press.version)
            await query.answer(t(lang, "ok"))
        else:
            if chat_id < 0:  # in the group: only who may stop the table may say no
                self.service.stop_quote(press.table_id, user.id, admin)
            await query.answer(t(lang, "kept"))
        try:
            await query.edit_message_reply_markup(None)
        except TelegramError as e:  # e.g. already without buttons: nothing to do
            log.info("could not remove the buttons of a question: %s", e)

    async def _option(self, press: cb.Press, user: User, lang: str) -> str | None:
        """A ⚙ button: open or close the settings keyboard, or set one option."""
        code = press.option
        if code in ("m", "k"):
            await self.service.show_settings(press.table_id, user.id, code == "m")
            return None
        setting = OPTION_SETTINGS.get(code[0])
        if setting is None:
            raise Refusal("bad_option")
        await self.service.configure(press.table_id, user.id, setting, code[1:])
        return t(lang, "ok")

    async def _press(self, press: cb.Press, user: User, lang: str) -> Reply:
        """The answer to a press. A move's toast confirms it: the pressed keyboard may stay a
        moment (see ``bot.present.seats``)."""
        service, table_id = self.service, press.table_id
        if press.kind == "a":
            answer = await service.act(table_id, user.id, press.version, press.index)
            return Reply(t(lang, answer.key, move=A.label(answer.move, lang)))
        if press.kind == "m":
            await service.take_back(table_id, user.id)
            return Reply(t(lang, "autoplay_off"))
        if press.kind == "d":  # 解散: the vote is posted in the group
            assert self.votes is not None
            await self.votes.propose_dissolve(table_id, await self._person(user))
            return Reply(t(lang, "vote_proposed"))
        if press.kind == cb.BIRD_KIND:  # 打鸟: the lobby lists the bird by the presser's name
            await self._person(user)
            placed = await birds.toggle(service, table_id, press.version, user.id)
            return Reply(t(lang, "bird_placed" if placed else "bird_withdrawn"))
        if press.kind == "j":
            person = await self._person(user)
            if not await self._can_dm(person):
                return Reply(None, url=self.presenter.deep_link(table_id))
            await service.join(table_id, person)
            return Reply(t(lang, "ok"))
        if press.kind in ("l", "q"):  # never a 逃跑: no hand runs under a live group button
            await service.leave(table_id, user.id)
            return Reply(t(lang, "ok"))
        if press.kind == "r":
            table = service.get(table_id)
            await service.add_robot(table_id, user.id,
                                    await self.presenter.group_lang(table.chat_id))
            return Reply(t(lang, "ok"))
        if press.kind == "b":
            await service.begin(table_id, user.id)
            return Reply(None)
        await service.again(table_id, user.id)
        return Reply(t(lang, "ready"))

    # --- what the bot does not talk to, and group shapes ------------------------------

    @staticmethod
    async def ignore_bots(update: Update, context: Context) -> None:
        """Runs before every other handler: what a bot sent is dropped unanswered. Telegram
        hands a bot no other bot's messages, but it does hand it what is sent on behalf of
        a chat, with a bot stand-in as the sender: an anonymous admin (GroupAnonymousBot)
        or a user posting as a channel (Channel_Bot). Such a sender cannot sit at a table or
        be written to, and all anonymous admins share one account. (Channel posts reach no
        handler: every one names private chats or groups.)"""
        if update.effective_user is not None and update.effective_user.is_bot:
            raise ApplicationHandlerStop

    async def migrated(self, update: Update, context: Context) -> None:
        """A group upgraded to a supergroup: ``migrate_to_chat_id`` in the old chat,
        ``migrate_from_chat_id`` in the new one (either suffices; both arrive)."""
        msg = update.effective_message
        if msg is None:
            return
        if msg.migrate_to_chat_id is not None:
            await self.presenter.migrate(msg.chat.id, msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id is not None:
            await self.presenter.migrate(msg.migrate_from_chat_id, msg.chat.id)

    async def error(self, update: object, context: Context) -> None:
        log.error("unhandled error while handling an update", exc_info=context.error)
