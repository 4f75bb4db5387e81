"""What the bot does not talk to, a group's upgrade to a supergroup, a forum topic created or
renamed, and the error handler."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import NetworkError
from telegram.ext import ApplicationHandlerStop

from bot.i18n import t
from bot.present.topics import keep_name
from bot.store import StoreUnavailable
from bot.telegram.env import Context, Env
from bot.telegram.reach import polling_failed

log = logging.getLogger(__name__)


async def ignore_bots(update: Update, context: Context) -> None:
    """Runs before every other handler: what a bot sent is dropped unanswered. Telegram
    hands a bot no other bot's messages, but it does hand it what is sent on behalf of
    a chat, with a bot stand-in as the sender: an anonymous admin (GroupAnonymousBot)
    or a user posting as a channel (Channel_Bot). Such a sender cannot sit at a table or
    be written to, and all anonymous admins share one account. (Channel posts reach no
    handler: every one names private chats or groups.)"""
    if update.effective_user is not None and update.effective_user.is_bot:
        raise ApplicationHandlerStop


async def migrated(env: Env, update: Update, context: Context) -> None:
    """A group upgraded to a supergroup: ``migrate_to_chat_id`` in the old chat,
    ``migrate_from_chat_id`` in the new one (either suffices; both arrive)."""
    msg = update.effective_message
    if msg is None:
        return
    if msg.migrate_to_chat_id is not None:
        await env.presenter.migrate(msg.chat.id, msg.migrate_to_chat_id)
    elif msg.migrate_from_chat_id is not None:
        await env.presenter.migrate(msg.migrate_from_chat_id, msg.chat.id)


async def topic_named(env: Env, update: Update, context: Context) -> None:
    """A forum topic created or renamed in a group (its service message, whoever made it, an
    anonymous admin too): its name is kept for /tables. A rename of the icon alone has none."""
    msg = update.effective_message
    if msg is None or msg.message_thread_id is None:
        return
    made, edited = msg.forum_topic_created, msg.forum_topic_edited
    name = made.name if made is not None else edited.name if edited is not None else None
    if name:
        await keep_name(env.settings, msg.chat.id, msg.message_thread_id, name)


async def error(env: Env, update: object, context: Context) -> None:
    """Log what a handler raised; a message (a command) is answered that it did nothing and
    may be sent again (e.g. the database was locked past its busy timeout, the disk full):
    whatever it began to write was rolled back with its transaction. A button press is
    answered by its dispatcher (:mod:`bot.telegram.buttons`)."""
    if update is None and isinstance(context.error, NetworkError):  # getUpdates: PTB retries
        polling_failed(context.error)
        return
    unavailable = isinstance(context.error, StoreUnavailable)
    if not unavailable:  # that one the store says once (bot.store.health), not per update
        log.error("unhandled error while handling an update", exc_info=context.error)
    if not isinstance(update, Update) or update.message is None:
        return
    msg = update.message
    thread_id = msg.message_thread_id if msg.is_topic_message else None
    key = "command_unavailable" if unavailable else "command_failed"
    env.presenter.note(msg.chat.id, lambda lang: t(lang, key),
                       lang=env.lang(update.effective_user) if msg.chat.type == "private"
                       else None, thread_id=thread_id)
