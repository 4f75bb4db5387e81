"""The club's commands of a group: /tables (its open tables, each with a seat button; in a
private chat those of the groups one plays in) and /apart (an admin keeps two players from
ever sitting at one table of the group). A standing table is /new's (``常驻``,
:mod:`bot.telegram.lobby`); what a club is and is not: docs/club.md."""

from __future__ import annotations

from functools import partial

from telegram import Chat, Update, User

from bot import callbacks as cb
from bot.i18n import t
from bot.present.screens.tables import Listed, has_seat, tables_keyboard, tables_text
from bot.table import Refusal, Table
from bot.telegram.chat import chat_title
from bot.telegram.env import Context, Env, refusal_text, topic_of

OFF_WORD = "off"


def _seat_button(env: Env, table: Table) -> str | None:
    """The lobby's own 加入 (of its current mark: outdated once the table moves on)."""
    return cb.group("j", table.id, env.service.button_mark(table)) if has_seat(table) else None


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
        groups = await env.store.groups_of(user.id)
        mine = env.service.table_of_user(user.id)
        groups |= {mine.chat_id} if mine is not None else set()
    else:
        groups = {chat.id}
    found = sorted((t for t in env.service.tables() if t.chat_id in groups and not t.private),
                   key=_order)
    titles = {g: await chat_title(context, g) for g in {t.chat_id for t in found}} \
        if private else {}
    listed = [Listed(t, titles.get(t.chat_id), seat=_seat_button(env, t)) for t in found]
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
    found = await env.store.user_by_username(username)
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
        user = await env.store.user(user_id)
        return user.name if user is not None else str(user_id)
    return [(await name(a), await name(b)) for a, b in pairs]


async def apart(env: Env, update: Update, context: Context) -> None:
    """/apart @a @b (or /apart @b in reply to a's message), /apart off @a @b, /apart: an
    admin's pairs of the group who never sit at one table of it (``bot.table.lobby``
    refuses the second of them, privately)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if chat.type == Chat.PRIVATE:
        env.answer_key(update, "group_only")
        return
    try:
        if not await env.is_admin(context, chat.id, user.id):
            raise Refusal("apart_admin_only")
        on, names = apart_args(list(context.args or ()))
        if not names:
            listed = await _names(env, await env.store.apart_pairs(chat.id))
            env.answer(update, lambda lang: "\n".join(
                [t(lang, "apart_list_head"), *(t(lang, "apart_pair", a=a, b=b) for a, b in listed)]
                if listed else [t(lang, "apart_list_none")]))
            return
        (a, a_name), (b, b_name) = await _pair(env, update, names)
        changed = await env.store.set_apart(chat.id, a, b, user.id, on)
    except Refusal as r:
        env.answer(update, partial(refusal_text, r))
        return
    key = ("apart_set" if on else "apart_off") if changed else \
        ("apart_already" if on else "apart_not_set")
    env.answer(update, lambda lang: t(lang, key, a=a_name, b=b_name))
