"""/play (快速加入): seat the sender at the first standing table of the group with a free seat
that matches his words (``/play hunan``, ``/play 4人 8局``); when every such table is full or
playing, open another like it in a new forum topic (满桌开新桌) and seat him there. Standing
tables are an admin's (``/new … 常驻``, docs/club.md); /play never opens the first one."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Chat, Update

from bot.i18n import t
from bot.present.screens.tables import has_seat
from bot.present.screens.words import rules_label
from bot.present.topics import create_topic
from bot.table import Person, Refusal, Table
from bot.table.lobby import APART_REFUSED
from bot.telegram.env import Context, Env
from bot.telegram.lobby import RULE_WORDS, SEATS_WORD, in_group, match_from_args
from engine.rules import RULE_SETS


@dataclass(frozen=True)
class Wanted:
    """What /play's words ask of a table; None: any."""

    rule_id: str | None = None
    seats: int | None = None
    hands: int | None = None

    def fits(self, table: Table) -> bool:
        return table.standing and not table.private \
            and self.rule_id in (None, table.rules.id) \
            and self.seats in (None, table.rules.players) \
            and self.hands in (None, table.match_hands)


def wanted_from_args(args: list[str]) -> Wanted:
    """/play's words, as /new reads them (a rule set, seats, 局数, 单局); ``play_usage`` for
    anything else."""
    try:
        rest, hands = match_from_args(args)
    except ValueError:
        raise Refusal("play_usage") from None
    rule_id, seats = None, None
    for word in rest:
        word = word.lower().removesuffix(SEATS_WORD)
        if word.isascii() and word.isdigit() and len(word) == 1:
            seats = int(word)
        elif word in RULE_SETS or word in RULE_WORDS:
            rule_id = RULE_WORDS.get(word, word)
        else:
            raise Refusal("play_usage")
    return Wanted(rule_id, seats, hands if len(rest) < len(args) else None)


async def _seat(env: Env, chat: Chat, thread: int | None, person: Person,
                table: Table) -> None:
    """Seat him at ``table`` (one the bot cannot message yet gets its start link), saying
    where in the topic he asked from when the table is in another."""
    if not await env.can_dm(person):
        env.reply_group(chat, thread, "need_dm", link=env.presenter.deep_link(table.id))
        return
    await env.service.join(table.id, person)
    if table.thread_id != thread:
        env.presenter.note(chat.id, lambda lang: t(
            lang, "play_seated", name=person.name, table=table.no,
            rules=rules_label(table.rules, lang)), thread_id=thread)


async def _new_topic(env: Env, context: Context, chat: Chat, like: Table, count: int) -> int | None:
    """A forum topic for another table like ``like`` (None: not a forum, or no right to
    make topics)."""
    lang = await env.presenter.group_lang(chat.id)
    return await create_topic(context.bot, env.settings, chat.id, t(
        lang, "play_topic", rules=rules_label(like.rules, lang), n=count + 1))


async def _play(env: Env, context: Context, chat: Chat, thread: int | None,
                person: Person) -> None:
    wanted = wanted_from_args(list(context.args or ()))
    if env.service.table_of_user(person.user_id) is not None:
        raise Refusal("already_seated")
    fitting = sorted((tb for tb in env.service.tables()
                      if tb.chat_id == chat.id and wanted.fits(tb)),
                     key=lambda tb: (tb.no, tb.id))
    if not fitting:
        raise Refusal("play_none")
    refused: Refusal | None = None
    for table in fitting:
        if not has_seat(table):
            continue
        try:
            await _seat(env, chat, thread, person, table)
            return
        except Refusal as r:  # full meanwhile, or kept apart from someone there: the next
            refused = r
    if refused is not None and refused.code == APART_REFUSED:
        raise refused
    like = fitting[0]
    topic = await _new_topic(env, context, chat, like, len(fitting))
    if topic is None:
        raise Refusal("play_all_full")
    await _seat(env, chat, thread, person, await env.service.open_like(like, topic))


async def play(env: Env, update: Update, context: Context) -> None:
    """/play [words]: 快速加入 (see the module's docstring)."""
    await in_group(env, update, context,
                   lambda chat, thread, person: _play(env, context, chat, thread, person))
