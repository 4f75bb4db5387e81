"""What the bot does not talk to, a group's upgrade to a supergroup, and the error handler."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.telegram.env import Context, Env

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


async def error(update: object, context: Context) -> None:
    log.error("unhandled error while handling an update", exc_info=context.error)
