"""/dissolve, /replace and the vote buttons (``bot.present.votes``); /notify."""

from __future__ import annotations

from functools import partial

from telegram import Update

from bot import callbacks as cb
from bot import links
from bot.i18n import t
from bot.table import Refusal, owners
from bot.telegram.env import Context, Env, refusal_text, topic_of
from bot.telegram.press import Pressed, Reply, on


async def dissolve(env: Env, update: Update, context: Context) -> None:
    """/dissolve: propose to end the hand in play (in the group, or privately: the table
    one sits at)."""
    await _propose(env, update, replace=False)


async def replace(env: Env, update: Update, context: Context) -> None:
    """/replace: propose a computer player for a seat in 托管 two whole hands running."""
    await _propose(env, update, replace=True)


async def _propose(env: Env, update: Update, *, replace: bool) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or env.votes is None:
        return
    person = await env.person(user)
    try:
        table = await env.table_of(chat, update, user.id)
        if replace:
            await env.votes.propose_replace(table.id, person)
        else:
            await env.votes.propose_dissolve(table.id, person)
    except Refusal as r:
        if r.code == owners.ELSEWHERE:  # another bot's table is here: it answers
            return
        env.answer(update, partial(refusal_text, r))


@on(cb.Vote)
async def answer(p: Pressed[cb.Vote]) -> Reply:
    """同意 / 拒绝."""
    assert p.env.votes is not None
    key = await p.env.votes.answer(p.press.table, p.press.vote, p.user.id,
                                   p.press.yes)
    return Reply(t(p.lang, key))


async def notify(env: Env, update: Update, context: Context) -> None:
    """/notify [off] in a group: a private note when a table opens here or its lobby
    lacks one player (see ``bot.present.notify``); needs the user to have started the bot."""
    chat, user = env.group_chat(update), update.effective_user
    if chat is None or user is None:
        return
    person = await env.person(user)
    thread = topic_of(update)
    if context.args and context.args[0].lower() == "off":
        await env.settings.subscribe(chat.id, user.id, on=False)
        env.reply_group(chat, thread, "notify_off")
        return
    known = await env.reads.user(person.user_id)
    if known is None or not known.dm_ok:
        env.reply_group(chat, thread, "notify_need_dm",
                        link=links.private(env.presenter.username))
        return
    await env.settings.subscribe(chat.id, user.id, on=True)
    env.reply_group(chat, thread, "notify_on")
