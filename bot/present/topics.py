"""Forum topics' names, kept for /tables (the store's ``topic_names``): those of the topics the
bot creates (a standing table's, a 群杯 table's), made through here, and those Telegram's
service messages tell of (a topic created or renamed by a member). A name that cannot be kept
(the store down for a moment) costs only the name: /tables then says the topic's number."""

from __future__ import annotations

import logging
from typing import Protocol

from telegram import Bot
from telegram.error import TelegramError

from bot.store import StoreUnavailable

log = logging.getLogger(__name__)


class TopicNames(Protocol):
    """Where a topic's name is kept: the store (:class:`bot.store.Settings` for a
    handler)."""

    async def set_topic_name(self, chat_id: int, thread_id: int, name: str) -> None: ...


async def keep_name(store: TopicNames, chat_id: int, thread_id: int, name: str) -> None:
    """Remember topic ``thread_id``'s ``name`` in the group, if the store can take it now."""
    try:
        await store.set_topic_name(chat_id, thread_id, name)
    except StoreUnavailable as e:
        log.warning("the name of topic %s of %s is not kept: %s", thread_id, chat_id, e)


async def create_topic(bot: Bot, store: TopicNames, chat_id: int, name: str) -> int | None:
    """A new forum topic ``name`` in the group, its name kept; its thread id, or None when the
    bot may not make one (not a forum, not an admin allowed to manage topics)."""
    try:
        topic = await bot.create_forum_topic(chat_id, name)
    except TelegramError as e:
        log.info("no topic %r in %s: %s", name, chat_id, e)
        return None
    await keep_name(store, chat_id, topic.message_thread_id, topic.name)
    return topic.message_thread_id
