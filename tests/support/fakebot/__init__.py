"""A fake Telegram Bot API server and harness for end-to-end tests of the bot.

The real bot (python-telegram-bot, long polling) talks HTTP to an aiohttp server on
127.0.0.1 that answers like api.telegram.org: same JSON shapes, same error texts (400 "message
is not modified", 403 "bot can't initiate conversation with a user", 429 with retry_after when
flood limits are simulated). Tests act as users and read what each chat shows.

Usage (the ``fake_tg`` fixture in tests/bot/conftest.py does the start/stop)::

    from telegram.ext import AIORateLimiter, ApplicationBuilder
    from support.fakebot import FakeTelegram, RateLimits

    async def test_new_table(fake_tg: FakeTelegram):
        app = (ApplicationBuilder().token(fake_tg.token).base_url(fake_tg.base_url)
               .rate_limiter(AIORateLimiter(max_retries=3)).build())
        ...  # add handlers, or build the real bot with BOT_API_BASE_URL=fake_tg.base_url
        await app.initialize(); await app.start()
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            alice = fake_tg.user("Alice", language_code="zh")
            g = fake_tg.group("牌友群", members=(alice,))
            fake_tg.set_admin(g, alice)
            fake_tg.start_private(alice)               # else DMs to Alice give 403
            sent = await fake_tg.send_text(g, alice, "/new")
            table = await fake_tg.wait_reply(sent)     # first bot message after /new
            answer = await fake_tg.press_button(table, alice, "加入 Join")
            assert answer.show_alert is False
            await fake_tg.wait_for(lambda: fake_tg.last_message(g).edits >= 1)
            shown = fake_tg.last_message(g)
            shown.text, shown.caption, shown.photo_bytes, shown.keyboard  # [[(text, data)]]
            assert fake_tg.max_per_minute(g) <= 20 and not fake_tg.unknown_methods
        finally:
            await app.updater.stop(); await app.stop(); await app.shutdown()

Key facts:

* Import as ``support.fakebot`` (pytest puts ``tests/`` on sys.path: ``pythonpath`` in pyproject.toml).
* Stop the bot (``updater.stop()``, ``stop()``, ``shutdown()``) before the fake; ``stop()`` of
  the fake releases any parked getUpdates at once.
* ``fake_tg.base_url`` is ``http://127.0.0.1:PORT/bot``; PTB appends ``{token}/{method}``.
* Chats are ``FakeChat``; a ``FakeUser`` passed where a chat is expected means their DM.
* ``messages(chat)`` lists the *bot's* visible messages (``include_users=True`` for all);
  ``FakeMessage`` has ``text``/``caption`` (plain text after parse_mode), ``entities``,
  ``photo_bytes``, ``document_bytes``, ``keyboard``, ``buttons``, ``edits``, ``message_id``.
* ``FakeMessage`` objects are live: later edits show up in them (copy a field to compare).
* Like Telegram, an edit without ``reply_markup`` removes the inline keyboard, and
  editMessageMedia without a caption removes the caption. parse_mode HTML/MarkdownV2/Markdown
  is parsed and malformed markup is refused (400 "can't parse entities").
* Privacy mode is on, as BotFather's default: in a group where the bot is not admin it gets
  only commands, replies to its own messages and @mentions (``FakeTelegram(privacy_mode=False)``
  or ``set_admin(group, tg.bot)`` to see all chatter). DMs: ``start_private(user)`` first, or
  ``send_text(user, user, "/start")`` (a user's own DM), else the bot gets 403.
* Other user-side events: ``block(user)`` (403 "bot was blocked by the user"),
  ``delete(chat, message_id)`` (later edits: 400 "message to edit not found"),
  ``remove_bot(group)`` (403), ``upgrade_to_supergroup(group)`` (ChatMigrated, and the two
  service messages unless ``tell=False``), ``press(chat, message_id, user, data)`` for stale
  buttons.
* Forums: ``forum(title)``, ``create_topic(forum, name)`` (returns its message_thread_id; the
  bot gets its ``forum_topic_created``), ``rename_topic(forum, id, name)``
  (``forum_topic_edited``),
  ``send_text(forum, user, text, topic=thread_id)`` (``message_thread_id`` and
  ``is_topic_message`` on the update; a reply in General carries its reply thread's id without
  ``is_topic_message``, as Telegram does), ``topic_messages(forum, thread_id)`` (None: General).
  Sent messages record their ``thread_id``. ``close_topic(forum, id)`` makes the bot's posts
  there fail with 400 "TOPIC_CLOSED" (``closed=False`` reopens), ``delete_topic(forum, id)``
  with "message thread not found", as do thread ids of no topic.
* Channels and chat stand-ins: ``channel(title)``, ``add_bot_to_channel(channel, by)``
  (``my_chat_member``), ``post_in_channel(channel, text)`` (``channel_post``),
  ``send_on_behalf(group, of, text)`` (an anonymous admin, ``of`` = the group, or a user
  posting as a channel: sender GroupAnonymousBot / Channel_Bot). Like Telegram, the bot never
  gets messages that other bots send.
* Several bots: ``tg.another_bot(token, username)`` is a second bot on the same server (one
  ``base_url``, routed by token) with a world of its own (updates, DMs, messages);
  ``other.same_user(user)`` and ``other.same_group(group)`` put one person or group in both
  (his DM with each bot is its own, not started until he opens that bot).
* Never sleep blindly: ``wait_for(predicate)``, ``wait_reply(msg)``, ``settle()`` (quiet bot)
  and ``press()`` (returns the answerCallbackQuery) wake on every bot call.
* Debugging: ``transcript(chat)`` renders a chat as text; a ``wait_for`` timeout lists the
  bot's last calls and errors.
* Stats: ``calls`` (method, chat_id, time), ``errors`` (method, chat_id, code, description),
  ``unknown_methods``, ``unanswered_queries``, ``rejections`` (429s), ``send_times(chat)``, ``max_per_minute(chat)``.
* Network faults: ``delay`` (a round trip added to every call), ``lose_calls(method…)``
  (those calls are recorded but never answered nor carried out).
* Time: ``FakeTelegram(clock=...)`` (default ``time.monotonic``) stamps calls and drives the
  flood limits; ``RateLimits()`` holds Telegram's limits and is off unless passed.
"""

from .errors import ApiError
from .harness import FakeTelegram
from .model import FakeChat, FakeMessage, FakeTopic, FakeUser, StoredFile
from .ratelimit import RateLimits, Rejection
from .world import Call, CallbackAnswer, ErrorRecord, InlineAnswer

__all__ = [
    "ApiError",
    "Call",
    "CallbackAnswer",
    "ErrorRecord",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeTopic",
    "FakeUser",
    "InlineAnswer",
    "RateLimits",
    "Rejection",
    "StoredFile",
]
