"""/start, /help, /lang, /timezone and what the bot does not know: the chat-level commands."""

from __future__ import annotations

import time
from functools import partial

from telegram import Chat, Update, User
from telegram.error import TelegramError

from bot import links
from bot.i18n import CATALOGS, isolate, t
from bot.present import zones
from bot.table import Refusal
from bot.telegram import challenge, info, replay, verify
from bot.telegram.env import Context, Env, refusal_text, topic_of

# a hand's payload: what opens it privately, and the answer's key when the user may not see it
HAND_OPENERS = {links.REPLAY: (replay.open_privately, "replay_dm_unknown"),
                links.VERIFY: (verify.open_privately, "verify_unknown")}


async def start(env: Env, update: Update, context: Context) -> None:
    """/start. Privately, optionally with a deep-link payload (:mod:`bot.links`):
    ``j<table id>`` seats, ``r<hand id>`` opens that hand's replay (the group replay's link),
    ``c<hand id>`` sends its 验证 fairness check, ``x<challenge id>`` joins that 复式挑战,
    ``p<user id>_<seal>`` sends that player's /me card (his share card's link), ``me`` one's
    own (another payload: an unknown link, said so); in a group (sent
    by Telegram when the bot is added by its 添加到群组 link), the help."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if chat.type != Chat.PRIVATE:
        await help_(env, update, context)
        return
    person = await env.person(user, dm_ok=True)
    payload = context.args[0] if context.args else ""
    letter, number = links.opened(payload) or ("", 0)
    if letter == links.JOIN:
        try:
            table = await env.service.join(number, person)
        except Refusal as r:
            env.say(chat, user, partial(refusal_text, r))
            return
        title = await chat_title(context, table.chat_id)
        env.say(chat, user, lambda lang: t(lang, "joined_dm", chat=title, table=table.no))
    elif letter == links.CHALLENGE:
        await challenge.open_privately(env, update, number)
    elif letter in HAND_OPENERS:
        opener, unknown = HAND_OPENERS[letter]
        if not await opener(env, context, user.id, number, env.lang(user)):
            env.say(chat, user, partial(_unknown, unknown, number))
    elif (shared := links.card_of(payload, context.bot.token)) is not None:
        await info.shared_card(env, update, shared)  # a share card's (bot.telegram.inline)
    elif payload == links.ME:
        await info.me(env, update, context)
    elif payload:
        env.say(chat, user, lambda lang: t(lang, "link_unknown"))
    else:
        link = links.add_to_group(context.bot.username)
        env.presenter.link_note(chat.id, lambda lang: t(lang, "start_private", name=person.name),
                                lambda lang: [(t(lang, "btn_add_to_group"), link)],
                                lang=env.lang(user))


def _unknown(key: str, hand_id: int, lang: str) -> str:
    return t(lang, key, id=hand_id)


async def chat_title(context: Context, chat_id: int) -> str:
    """A group's title as Telegram has it now (its id if it cannot say), isolated."""
    try:
        chat = await context.bot.get_chat(chat_id)
    except TelegramError:
        return str(chat_id)
    return isolate(chat.title) if chat.title else str(chat_id)


CLUB_WORDS = ("club", "俱乐部")  # /help club: the words that ask for its club part


async def help_(env: Env, update: Update, context: Context) -> None:
    """/help: the commands, on one phone screen; ``/help club`` its club part: what a club
    is here and is not (docs/club.md)."""
    args = [a.lower() for a in context.args or ()]
    club = len(args) == 1 and args[0] in CLUB_WORDS
    env.answer_key(update, "help_club" if club else "help")


async def lang(env: Env, update: Update, context: Context) -> None:
    """/lang zh|en: in a group, an admin sets the language of the group's messages; in the
    private chat, a player his own (:func:`own_lang`)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    wanted = context.args[0].lower() if context.args else ""
    if chat.type == Chat.PRIVATE:
        await own_lang(env, chat, user, wanted)
        return
    thread = topic_of(update)
    if wanted not in CATALOGS:
        env.reply_group(chat, thread, "lang_usage")
    elif not await env.is_admin(context, chat.id, user.id):
        env.reply_group(chat, thread, "only_admin")
    else:
        await env.settings.set_chat_lang(chat.id, wanted, chat.title)
        env.presenter.set_group_lang(chat.id, wanted)
        env.reply_group(chat, thread, "lang_set")


async def timezone(env: Env, update: Update, context: Context) -> None:
    """/timezone [zone]: the group's time zone (:mod:`bot.present.zones`), in which its
    times are shown; without a word, the current one. An admin sets it; a zone that is not
    one gets examples, and nothing changes."""
    chat, user = env.group_chat(update), update.effective_user
    if chat is None or user is None:
        return
    thread = topic_of(update)
    args = context.args or []
    examples = ", ".join(zones.EXAMPLES)
    if not args:
        now = await env.reads.chat_timezone(chat.id) or zones.DEFAULT
        env.reply_group(chat, thread, "timezone_now", zone=now, examples=examples)
        return
    zone = zones.zone_named(args[0]) if len(args) == 1 else None
    if zone is None:
        env.reply_group(chat, thread, "timezone_bad", examples=examples)
    elif not await env.is_admin(context, chat.id, user.id):
        env.reply_group(chat, thread, "only_admin")
    else:
        await env.settings.set_chat_timezone(chat.id, zone)
        env.reply_group(chat, thread, "timezone_set", zone=zone,
                        now=zones.local_time(time.time(), zone))


async def own_lang(env: Env, chat: Chat, user: User, wanted: str) -> None:
    """/lang zh|en privately: the player's own language, for his private chat, his hand's
    pictures and results and his 复盘 (the group's stays the group's). Stored, so it
    outlives a restart; a seat he holds speaks it from its next picture on."""
    if wanted not in CATALOGS:
        env.say(chat, user, lambda lang: t(lang, "lang_usage_private"))
        return
    await env.person(user, dm_ok=True)
    await env.settings.set_user_lang(user.id, wanted)
    env.chosen_langs[user.id] = wanted
    table = env.service.table_of_user(user.id)
    seat = table.seat_of(user.id) if table is not None else None
    if table is not None and seat is not None:
        table.players[seat].lang = wanted
    env.say(chat, user, lambda lang: t(lang, "lang_set_private"))


async def quiet(env: Env, update: Update, context: Context) -> None:
    """/quiet in the private chat: no pings for one's decisions (the 托管 warning still
    comes); /quiet off: pings again. Stored per user."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if chat.type != Chat.PRIVATE:
        env.answer_key(update, "quiet_private")
        return
    word = context.args[0].lower() if context.args else ""
    if word not in ("", "off"):
        env.answer_key(update, "quiet_usage")
        return
    await env.person(user, dm_ok=True)
    await env.settings.set_quiet(user.id, word != "off")
    env.answer_key(update, "quiet_off" if word == "off" else "quiet_on")


async def unknown(env: Env, update: Update, context: Context) -> None:
    """Any other text in a private chat, or a command addressed to this bot in a group: a
    command it does not know is said so; words in the private chat get a hint of what the
    chat is for."""
    msg = update.effective_message
    command = msg is not None and (msg.text or "").startswith("/")
    env.answer_key(update, "unknown_command" if command else "private_hint")
