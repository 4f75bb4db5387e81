"""The club's commands of a group: /tables (its open tables, each with a seat button; in a
private chat those of the groups one plays in), /apart (an admin keeps two players from
ever sitting at one table of the group) and /club (its settings: 自动准备, a daily limit of
解散 votes, 禁止解散 at a 群杯's tables). A standing table is /new's (``常驻``,
:mod:`bot.telegram.lobby`); what a club is and is not: docs/club.md."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from telegram import Chat, Update, User

from bot import callbacks as cb
from bot.i18n import t
from bot.present.screens.tables import Listed, has_seat, tables_keyboard, tables_text
from bot.store import ClubSettings
from bot.table import Person, Refusal, Table
from bot.telegram.chat import chat_title
from bot.telegram.env import Context, Env, topic_of
from bot.telegram.lobby import in_group

OFF_WORD = "off"


def _seat_button(env: Env, table: Table) -> str | None:
    """The lobby's own 加入 (of its current mark: outdated once the table moves on)."""
    return cb.Join(table.id, env.service.button_mark(table)).pack() if has_seat(table) else None


def _order(table: Table) -> tuple[int, int, int]:
    return table.chat_id, table.thread_id or 0, table.no


async def tables(env: Env, update: Update, context: Context) -> None:
    """/tables: in a group its open tables; privately those of the groups the user plays
    in. Each with a free seat has its lobby's 加入, which seats from any chat (one the bot
    cannot message yet gets its start link instead: ``lobby_buttons.join``). A cup's table
    played in private chats (``Table.private``) takes no place in its group: not listed."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if context.args:
        env.answer_key(update, "tables_usage")
        return
    private = chat.type == Chat.PRIVATE
    if private:
        groups = await env.reads.groups_of(user.id)
        mine = env.service.table_of_user(user.id)
        groups |= {mine.chat_id} if mine is not None else set()
    else:
        groups = {chat.id}
    found = sorted((t for t in env.service.tables() if t.chat_id in groups and not t.private),
                   key=_order)
    chats = {t.chat_id for t in found}
    titles = {g: await chat_title(context, g) for g in chats} if private else {}
    topics = {g: await env.reads.topic_names(g)
              for g in {t.chat_id for t in found if t.thread_id is not None}}
    listed = [Listed(t, titles.get(t.chat_id), seat=_seat_button(env, t),
                     topic=topics.get(t.chat_id, {}).get(t.thread_id or 0)) for t in found]
    env.presenter.keyboard_note(chat.id, lambda lang: tables_text(listed, lang, private),
                                partial(tables_keyboard, listed), lang=env.chat_lang(update),
                                thread_id=topic_of(update))


def apart_args(args: list[str]) -> tuple[bool, list[str]]:
    """(on, usernames) of ``/apart [off] [@a] [@b]``; ``apart_usage`` for anything else."""
    on = not (args and args[0].lower() == OFF_WORD)
    names = args if on else args[1:]
    if len(names) > 2 or not (on or names) or \
            any(len(n) < 2 or not n.startswith("@") for n in names):
        raise Refusal("apart_usage")
    return on, [n[1:] for n in names]


async def _named(env: Env, username: str) -> tuple[int, str]:
    found = await env.reads.user_by_username(username)
    if found is None:
        raise Refusal("apart_unknown", name=username)
    return found.user_id, found.name


async def _pair(env: Env, update: Update, names: list[str]) -> tuple[tuple[int, str], ...]:
    """The two players an /apart names: by username, or the author of the message it
    answers and one username."""
    msg = update.effective_message
    answered = msg.reply_to_message if msg is not None else None
    # in a forum topic every message answers the topic's first one: that is no reply
    replied: User | None = None if answered is None or answered.forum_topic_created \
        else answered.from_user
    if len(names) == 1 and replied is not None and not replied.is_bot:
        person = await env.person(replied)
        first = (person.user_id, person.name)
    elif len(names) == 2:
        first = await _named(env, names[0])
    else:
        raise Refusal("apart_usage")
    second = await _named(env, names[-1])
    if first[0] == second[0]:
        raise Refusal("apart_same")
    return first, second


async def _names(env: Env, pairs: list[tuple[int, int]]) -> list[tuple[str, str]]:
    async def name(user_id: int) -> str:
        user = await env.reads.user(user_id)
        return user.name if user is not None else str(user_id)
    return [(await name(a), await name(b)) for a, b in pairs]


async def apart(env: Env, update: Update, context: Context) -> None:
    """/apart @a @b (or /apart @b in reply to a's message), /apart off @a @b, /apart: an
    admin's pairs of the group who never sit at one table of it (``bot.table.lobby``
    refuses the second of them, privately). A group command (``lobby.in_group``)."""
    async def run(chat: Chat, thread: int | None, person: Person) -> None:
        if not await env.is_admin(context, chat.id, person.user_id):
            raise Refusal("apart_admin_only")
        on, names = apart_args(list(context.args or ()))
        if not names:
            listed = await _names(env, await env.settings.apart_pairs(chat.id))
            env.presenter.note(chat.id, lambda lang: "\n".join(
                [t(lang, "apart_list_head"), *(t(lang, "apart_pair", a=a, b=b) for a, b in listed)]
                if listed else [t(lang, "apart_list_none")]), thread_id=thread)
            return
        (a, a_name), (b, b_name) = await _pair(env, update, names)
        changed = await env.settings.set_apart(chat.id, a, b, person.user_id, on)
        key = ("apart_set" if on else "apart_off") if changed else \
            ("apart_already" if on else "apart_not_set")
        env.presenter.note(chat.id, lambda lang: t(lang, key, a=a_name, b=b_name),
                           thread_id=thread)

    await in_group(env, update, context, run)


# /club's words: a setting (Chinese or English), then its value
SETTING_WORDS = {"自动准备": "auto_ready", "autoready": "auto_ready",
                 "解散": "dissolve_limit", "解散次数": "dissolve_limit", "dissolve": "dissolve_limit",
                 "杯赛禁止解散": "cup_no_dissolve", "cupnodissolve": "cup_no_dissolve"}
ON_WORDS, OFF_WORDS = frozenset({"开", "on"}), frozenset({"关", "off"})
NO_LIMIT_WORDS = frozenset({"不限", "off"})
MAX_DISSOLVE_LIMIT = 99


def club_change(args: list[str], settings: ClubSettings) -> ClubSettings:
    """The settings ``/club <setting> <value>`` makes of ``settings``: ``自动准备 开|关``,
    ``解散 N|不限`` (votes a member may propose a day, 0…99), ``杯赛禁止解散 开|关`` (and
    their English words); ``club_usage`` for anything else."""
    if len(args) != 2 or args[0].lower() not in SETTING_WORDS:
        raise Refusal("club_usage")
    setting, value = SETTING_WORDS[args[0].lower()], args[1].lower()
    if setting == "dissolve_limit":
        if value in NO_LIMIT_WORDS:
            return replace(settings, dissolve_limit=None)
        if value.isascii() and value.isdigit() and int(value) <= MAX_DISSOLVE_LIMIT:
            return replace(settings, dissolve_limit=int(value))
        raise Refusal("club_usage")
    if value not in ON_WORDS | OFF_WORDS:
        raise Refusal("club_usage")
    return replace(settings, **{setting: value in ON_WORDS})


def club_text(settings: ClubSettings, lang: str) -> str:
    def on(flag: bool) -> str:
        return t(lang, "club_on" if flag else "club_off")
    limit = t(lang, "club_no_limit") if settings.dissolve_limit is None else \
        t(lang, "club_limit", n=settings.dissolve_limit)
    return t(lang, "club_settings", auto_ready=on(settings.auto_ready), limit=limit,
             cup=on(settings.cup_no_dissolve))


async def club(env: Env, update: Update, context: Context) -> None:
    """/club: the group's club settings; an admin's ``/club <setting> <value>`` changes one
    (:func:`club_change`) and is answered with them all. A group command
    (``lobby.in_group``)."""
    async def run(chat: Chat, thread: int | None, person: Person) -> None:
        settings = await env.settings.club_settings(chat.id)
        args = list(context.args or ())
        if args:
            if not await env.is_admin(context, chat.id, person.user_id):
                raise Refusal("club_admin_only")
            settings = club_change(args, settings)
            await env.settings.set_club_settings(chat.id, person.user_id, settings)
        env.presenter.note(chat.id, partial(club_text, settings), thread_id=thread)

    await in_group(env, update, context, run)
