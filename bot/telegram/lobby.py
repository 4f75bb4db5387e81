"""The table commands of a group: /new /join /leave /begin /stop /addbot /removebot.

Each acts on the table of the forum topic it was sent in; a refusal is a short note there.
A /leave during a hand (逃跑) and a /stop that would void a running hand are asked first:
their answers are the confirmation buttons of :mod:`bot.telegram.confirm`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

from telegram import Chat, Update

from bot import callbacks as cb
from bot import links
from bot.i18n import rule_set_name, t
from bot.table import LEVELS, MATCHES, Person, Refusal, Table, house, owners
from bot.table.lobby import APART_REFUSED
from bot.telegram.confirm import ask_escape, confirm_buttons
from bot.telegram.env import Context, Env, refusal_text, topic_of
from engine.rules import RULE_SETS, HouseRuleError, RuleSet, table_rules, with_house_rules

# /new's words (read, never written): the rule sets' Chinese names and a few short forms
# besides their ids, and 4人 for 4
SEATS_WORD = "人"
RULE_WORDS = {**{rule_set_name(rid, "zh").lower(): rid for rid in RULE_SETS},
              "湖南": "hunan", "四人十四张": "four14", "跑胡子": "qq"}
MATCH_WORD = "局"
SINGLE_WORD = "单局"  # single hands, as ⚙ 局数 says it
STANDING_WORDS = frozenset({"常驻", "standing"})  # a standing table (常驻桌): admins only
BARE_MATCHES = frozenset({8, 16})  # a bare number that is a match's hands, never seats
# /addbot's word: a computer level by its own name or its Chinese one (弱 / 中 / 强, as ⚙ shows it)
LEVEL_WORDS = {**{level: level for level in LEVELS},
               **{t("zh", f"level_{level}"): level for level in LEVELS}}


class SeatsNotOffered(ValueError):
    """/new asked a rule set for a seat count it is not played by."""

    def __init__(self, rule_id: str, seats: int) -> None:
        super().__init__(f"{rule_id} has no {seats}-seat table")
        self.rule_id, self.seats = rule_id, seats


def split_rules_args(args: list[str]) -> tuple[str, int | None, list[str]]:
    """(rule set id, seats or None, the house words) of ``/new [qq|hunan|four14] [2|3|4]
    [房规…]``, in any order (``4人`` and the Chinese names too; every other word is a house
    rule, ``起胡10``)."""
    rule_id, seats, words = "qq", None, []
    for word in args:
        plain = word.lower().removesuffix(SEATS_WORD)
        if plain.isdigit():
            seats = int(plain)
        elif plain in RULE_SETS or plain in RULE_WORDS:
            rule_id = RULE_WORDS.get(plain, plain)
        else:
            words.append(word)
    return rule_id, seats, words


def rules_from_args(args: list[str]) -> RuleSet:
    """The rules /new's ``args`` ask for (:func:`split_rules_args`; the house words read by
    ``engine.rules.with_house_rules``); :class:`SeatsNotOffered` for a seat count the rule
    set lacks, ``HouseRuleError`` for a house word it does not take."""
    rule_id, seats, words = split_rules_args(args)
    if seats is not None and seats not in RULE_SETS[rule_id].seat_choices:
        raise SeatsNotOffered(rule_id, seats)
    rules = table_rules(rule_id, seats)
    return with_house_rules(rules, words) if words else rules


def house_refusal(error: HouseRuleError, args: list[str]) -> Refusal:
    """A house word :func:`rules_from_args` refused, in words (:func:`bot.table.house.refusal`)."""
    return house.refusal(error, split_rules_args(args)[2])


def match_from_args(args: list[str]) -> tuple[list[str], int]:
    """Split /new's arguments into the rest and the hands of a match (1: single hands):
    ``4局``/``8局``/``16局``, or a bare 8 or 16 (a bare 4 is the seats, ``4局`` the match),
    ``单局`` for single hands;
    ``ValueError`` for a 局 count that is not offered."""
    rest, hands = [], 1
    for word in args:
        count = word.removesuffix(MATCH_WORD)
        if word == SINGLE_WORD:
            hands = 1
        elif count.isdigit() and (word.endswith(MATCH_WORD) or int(count) in BARE_MATCHES):
            if int(count) not in MATCHES or int(count) == 1:
                raise ValueError(f"no match of {count} hands")
            hands = int(count)
        else:
            rest.append(word)
    return rest, hands


def level_from_args(args: list[str]) -> str | None:
    """The level ``/addbot [弱|中|强|weak|medium|strong]`` asks for, None for a bare /addbot;
    ``addbot_usage`` for anything else."""
    if not args:
        return None
    if len(args) > 1 or args[0].lower() not in LEVEL_WORDS:
        raise Refusal("addbot_usage")
    return LEVEL_WORDS[args[0].lower()]


def new_usage(lang: str) -> str:
    """/new's usage with every rule set and its seat counts."""
    choices = "\n".join(t(lang, "new_choice", id=rid, name=rule_set_name(rid, lang),
                           seats="/".join(map(str, rules.seat_choices)))
                         for rid, rules in RULE_SETS.items())
    return "\n".join((t(lang, "new_usage", choices=choices), t(lang, "new_usage_match"),
                      t(lang, "new_usage_standing"), t(lang, "new_usage_house")))


def seats_usage(asked: SeatsNotOffered, lang: str) -> str:
    """The seats a rule set has, and how to open a table of the seats asked for."""
    offered = RULE_SETS[asked.rule_id].seat_choices
    others = " · ".join(f"/new {rid} {asked.seats}" for rid, rules in RULE_SETS.items()
                        if asked.seats in rules.seat_choices)
    if not others:
        return new_usage(lang)
    return t(lang, "new_seats", name=rule_set_name(asked.rule_id, lang),
             seats="/".join(map(str, offered)), n=asked.seats, others=others)


def house_usage(refused: Refusal, lang: str) -> str:
    """What is wrong with /new's house words; an unknown word with /new's usage too (it may
    have meant a rule set)."""
    text = refusal_text(refused, lang)
    return f"{text}\n\n{new_usage(lang)}" if refused.code == "house_unknown" else text


TableCommand = Callable[[Env, Table, Person, Chat, Context], Awaitable[None]]


def standing_from_args(args: list[str]) -> tuple[list[str], bool]:
    """Split /new's arguments into the rest and whether it asks for a standing table."""
    rest = [word for word in args if word.lower() not in STANDING_WORDS]
    return rest, len(rest) < len(args)


async def _open(env: Env, chat: Chat, thread: int | None, person: Person,
                context: Context) -> None:
    """/new [rules] [seats] [局数] [常驻] [房规…]: open this topic's table; a standing one
    (常驻, an admin's) without seating the opener."""
    try:
        rest, standing = standing_from_args(list(context.args or ()))
        rest, hands = match_from_args(rest)
        rules = rules_from_args(rest)
    except SeatsNotOffered as asked:
        env.presenter.note(chat.id, partial(seats_usage, asked), thread_id=thread)
        return
    except HouseRuleError as refused:
        env.presenter.note(chat.id, partial(house_usage, house_refusal(refused, rest)),
                           thread_id=thread)
        return
    except ValueError:
        env.presenter.note(chat.id, new_usage, thread_id=thread)
        return
    if env.service.in_chat(chat.id, thread) is not None:
        raise Refusal("table_exists")
    await owners.check_place_free(env.reads, env.service.bot_id, chat.id, thread)
    if standing and not await env.is_admin(context, chat.id, person.user_id):
        raise Refusal("standing_admin_only")
    if not standing and not await env.can_dm(person):
        # both bots of a group read one /new: the other may have opened it while this one
        # found out that the user never opened it; then that one's table answers
        await owners.check_place_free(env.reads, env.service.bot_id, chat.id, thread)
        env.reply_group(chat, thread, "need_dm_new", link=links.private(env.presenter.username))
        return
    await env.settings.set_chat_lang(chat.id, await env.presenter.group_lang(chat.id), chat.title)
    await env.service.open(chat.id, person, rules, thread_id=thread, match_hands=hands,
                           standing=standing)


async def _join(env: Env, table: Table, person: Person, chat: Chat, context: Context) -> None:
    if not await env.can_dm(person):  # its deep link names the table: it seats at this one
        env.reply_group(chat, table.thread_id, "need_dm",
                        link=env.presenter.deep_link(table.id))
        return
    await env.service.join(table.id, person)


async def _leave(env: Env, table: Table, person: Person, chat: Chat, context: Context) -> None:
    quote = env.service.escape_quote(table.id, person.user_id)
    if quote is None:
        await env.service.leave(table.id, person.user_id)
    else:
        ask_escape(env, table.id, person.user_id, person.lang, quote)
        env.reply_group(chat, table.thread_id, "escape_asked", name=person.name)


async def _begin(env: Env, table: Table, person: Person, chat: Chat, context: Context) -> None:
    await env.service.begin(table.id, person.user_id)


async def _add_robot(env: Env, table: Table, person: Person, chat: Chat,
                     context: Context) -> None:
    """/addbot [level]: a computer player; a level sets every computer's at the table."""
    level = level_from_args(list(context.args or ()))
    await env.service.add_robot(table.id, person.user_id,
                                await env.presenter.group_lang(chat.id), level)


async def _remove_robot(env: Env, table: Table, person: Person, chat: Chat,
                        context: Context) -> None:
    await env.service.remove_robot(table.id, person.user_id)


async def _stop(env: Env, table: Table, person: Person, chat: Chat, context: Context) -> None:
    admin = await env.is_admin(context, chat.id, person.user_id)
    record = env.service.stop_quote(table.id, person.user_id, admin)
    if record is None:
        await env.service.stop(table.id, person.user_id, admin)
    else:  # a running hand would be voided: ask the group first
        env.presenter.note(chat.id, lambda lang: t(lang, "stop_confirm", hand=record.table_no),
                           buttons_of=confirm_buttons(cb.ConfirmStop, table.id, record.id),
                           thread_id=table.thread_id)


async def in_group(env: Env, update: Update, context: Context,
                    run: Callable[[Chat, int | None, Person], Awaitable[None]]) -> None:
    """Run a group command for its sender; in a private chat, say it is for groups."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if chat.type == Chat.PRIVATE:
        env.say(chat, user, lambda lang: t(lang, "group_only"))
        return
    person = await env.person(user)
    thread = topic_of(update)
    try:
        await run(chat, thread, person)
    except Refusal as r:
        if r.code == owners.ELSEWHERE:  # another bot's table is here: it answers
            return
        if r.code == APART_REFUSED:  # the group hears nothing of it: its reason is private
            env.presenter.note(person.user_id, partial(refusal_text, r), lang=person.lang)
            return
        env.presenter.note(chat.id, partial(refusal_text, r), thread_id=thread)


async def new(env: Env, update: Update, context: Context) -> None:
    await in_group(env, update, context, lambda chat, thread, person: _open(
        env, chat, thread, person, context))


def _on_table(command: TableCommand) -> Callable[[Env, Update, Context], Awaitable[None]]:
    """A group command about the table of the topic it was sent in."""
    async def handler(env: Env, update: Update, context: Context) -> None:
        async def run(chat: Chat, thread: int | None, person: Person) -> None:
            table = await env.table_here(chat, thread)
            await command(env, table, person, chat, context)
        await in_group(env, update, context, run)
    handler.__doc__ = command.__doc__
    return handler


join = _on_table(_join)
leave = _on_table(_leave)
begin = _on_table(_begin)
stop = _on_table(_stop)
add_robot = _on_table(_add_robot)
remove_robot = _on_table(_remove_robot)
