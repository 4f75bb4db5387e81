"""``FakeTelegram``: the test-facing side of the fake (users, groups, sending, reading, stats).

See the package docstring (``tests/support/fakebot/__init__.py``) for a usage example.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Callable
from typing import Any

from .formatting import utf16_len
from .model import Button, FakeChat, FakeMessage, FakeTopic, FakeUser
from .ratelimit import RateLimits, Rejection
from .server import BotApiServer
from .world import Call, CallbackAnswer, ErrorRecord, InlineAnswer, World

DEFAULT_TOKEN = "7000000001:AAFakeTokenForTestsOnly_abcdefghijk"
_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![^\s])")

# How long a wait for the bot (an answer, a reply, a condition) lasts by default: it ends as
# soon as the bot is there, and a machine busy with tests in parallel may make it slow.
WAIT = 30.0

# A FakeUser stands for the user's private chat with the bot; an int is a chat id.
ChatLike = FakeChat | FakeUser | int
ButtonMatch = str | Callable[[str, str | None], bool]


class FakeTelegram:
    """An in-process Telegram: a Bot API server plus the users and chats that talk to it.

    ``clock`` stamps calls and message-or-edit times and drives the flood limits; it defaults
    to ``time.monotonic`` (seconds). Pass a fake clock to test limits without waiting.
    ``rate_limits`` (``RateLimits()`` for Telegram's values) turns 429 simulation on; it can
    also be set or cleared at any time through the attribute.
    ``privacy_mode`` (BotFather's default, on) means that in groups where the bot is not an
    admin it only gets commands, replies to its messages and @mentions, not other chatter.
    ``delay`` (seconds, default 0) is a network round trip added to every Bot API call, as a
    server that far from Telegram sees it; it can be changed at any time through the attribute.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "PaohuziTestBot",
        rate_limits: RateLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        privacy_mode: bool = True,
        delay: float = 0.0,
        server: BotApiServer | None = None,
    ) -> None:
        self.world = World(token, bot_username, clock)
        self.world.delay = delay
        self.world.flood.limits = rate_limits
        self.world.privacy_mode = privacy_mode
        self._owns_server = server is None
        if server is None:
            server = BotApiServer(self.world)
        else:
            server.add(self.world)
        self._server = server
        # the accounts Telegram shows as the sender of what is sent on behalf of a chat: an
        # anonymous group admin, and a user posting as a channel
        self.anonymous_admin = self._account(1087968824, "Group", "GroupAnonymousBot")
        self.channel_bot = self._account(136817688, "Channel", "Channel_Bot")
        self._user_ids = itertools.count(100_001)
        self._group_ids = itertools.count(1)
        self._query_ids = itertools.count(1)

    def _account(self, user_id: int, first_name: str, username: str) -> FakeUser:
        user = FakeUser(user_id, first_name, username=username, is_bot=True)
        self.world.users[user_id] = user
        return user

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        if self._owns_server:
            await self._server.start()

    async def stop(self) -> None:
        if self._owns_server:
            await self._server.stop()

    def another_bot(self, token: str, bot_username: str) -> FakeTelegram:
        """A second bot on this fake's server (at the same ``base_url``): a world of its own
        (its updates, its private chats, its messages), the same Telegram around it. The
        same people and groups are in it through :meth:`same_user` and :meth:`same_group`;
        its new accounts and groups take ids apart from this one's. It runs while this one
        runs."""
        other = FakeTelegram(token=token, bot_username=bot_username, clock=self.world.clock,
                             rate_limits=self.rate_limits, privacy_mode=self.world.privacy_mode,
                             delay=self.delay, server=self._server)
        other._user_ids = itertools.count(200_001 + 100_000 * len(self._server.worlds))
        other._group_ids = itertools.count(1_000 * len(self._server.worlds) + 1)
        return other

    def same_user(self, user: FakeUser) -> FakeUser:
        """The account ``user`` of another bot's world as this bot sees it: the same id and
        name, and a private chat of its own (not started until he opens this bot)."""
        mine = FakeUser(user.id, user.first_name, user.last_name, user.username,
                        user.language_code)
        self.world.users[mine.id] = mine
        return mine

    def same_group(self, group: FakeChat) -> FakeChat:
        """The group ``group`` of another bot's world with this bot in it too (its own view:
        the messages it sends and gets)."""
        chat = FakeChat(group.id, group.type, title=group.title, username=group.username,
                        is_forum=group.is_forum)
        chat.members = {**group.members, self.bot.id: "member"}
        self.world.chats[chat.id] = chat
        return chat

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def base_url(self) -> str:
        """For PTB's ``base_url`` / env ``BOT_API_BASE_URL``: PTB appends ``{token}/{method}``."""
        return f"http://127.0.0.1:{self._server.port}/bot"

    @property
    def bot(self) -> FakeUser:
        """The bot's own account (getMe); ``tg.set_admin(group, tg.bot)`` makes it an admin."""
        return self.world.bot

    @property
    def delay(self) -> float:
        return self.world.delay

    @delay.setter
    def delay(self, seconds: float) -> None:
        self.world.delay = seconds

    def lose_calls(self, *methods: str) -> None:
        """From now on calls of ``methods`` (none: back to normal) are lost on the way: seen in
        ``calls``, but they change nothing and are never answered (the bot's client times
        out), as when the network fails mid-call or the bot is killed while waiting."""
        self.world.lost = set(methods)

    @property
    def rate_limits(self) -> RateLimits | None:
        return self.world.flood.limits

    @rate_limits.setter
    def rate_limits(self, limits: RateLimits | None) -> None:
        self.world.flood.limits = limits

    # -- accounts and chats --------------------------------------------------------------------

    def user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "zh-hans",
    ) -> FakeUser:
        """A new account with a unique id. It has not started the bot yet (DMs give 403)."""
        user = FakeUser(next(self._user_ids), first_name, last_name, username, language_code)
        self.world.users[user.id] = user
        return user

    def private(self, user: FakeUser) -> FakeChat:
        """The user's private chat with the bot (chat id = user id)."""
        return self.world.private(user)

    def start_private(self, user: FakeUser) -> FakeChat:
        """Mark that the user opened the DM (pressed Start) without sending an update; from now
        on the bot may message them. Sending text in the private chat does this implicitly."""
        user.started = True
        return self.private(user)

    def block(self, user: FakeUser) -> None:
        """The user blocks the bot: further DMs to them give 403 "bot was blocked by the user"."""
        user.blocked = True

    def group(
        self,
        title: str,
        *,
        members: tuple[FakeUser, ...] = (),
        owner: FakeUser | None = None,
        supergroup: bool = True,
        username: str | None = None,
    ) -> FakeChat:
        """A group the bot is a (non-admin) member of. Anyone who sends in it becomes a member."""
        n = next(self._group_ids)
        chat_id = -(1_000_000_000_000 + n) if supergroup else -(4_000_000_000 + n)
        chat = FakeChat(chat_id, "supergroup" if supergroup else "group", title=title,
                        username=username)
        chat.members[self.bot.id] = "member"
        for user in members:
            chat.members[user.id] = "member"
        if owner is not None:
            chat.members[owner.id] = "creator"
        self.world.chats[chat_id] = chat
        return chat

    def forum(self, title: str, *, members: tuple[FakeUser, ...] = (),
              owner: FakeUser | None = None) -> FakeChat:
        """A supergroup with topics on (a forum); it starts with its General topic only."""
        chat = self.group(title, members=members, owner=owner)
        chat.is_forum = True
        return chat

    def create_topic(self, forum: FakeChat, name: str, *, by: FakeUser | None = None) -> int:
        """A new topic of ``forum`` made by ``by`` (by default its creator, else its first
        member); returns its ``message_thread_id`` (the id of the service message that created
        it, as in Telegram). As Telegram, the bot gets that service message
        (``forum_topic_created``, in the new topic), privacy mode or not; a forum of no member
        gets its topic silently."""
        if not forum.is_forum:
            raise ValueError("topics exist in forums only (tg.forum(...))")
        maker = by or self._someone(forum)
        created = self.world.add_message(forum, maker or self.bot)
        created.thread_id = created.message_id
        created.deleted = True  # a service message: not part of what tests read
        forum.topics[created.message_id] = FakeTopic(created.message_id, name)
        if maker is not None and forum.bot_member:
            self.world.push_update("message", {
                **created.to_json(), "forum_topic_created": {"name": name,
                                                             "icon_color": 7322096}})
        return created.message_id

    def rename_topic(self, forum: FakeChat, thread_id: int, name: str, *,
                     by: FakeUser | None = None) -> None:
        """``by`` (by default the forum's creator, else its first member) renames a topic: the
        bot gets the ``forum_topic_edited`` service message in it."""
        maker = by or self._someone(forum)
        if maker is None:
            raise ValueError("a topic is renamed by someone: give by=")
        forum.topics[thread_id].name = name
        edited = self.world.add_message(forum, maker, thread_id=thread_id)
        edited.deleted = True
        if forum.bot_member:
            self.world.push_update("message", {**edited.to_json(),
                                               "forum_topic_edited": {"name": name}})

    def _someone(self, chat: FakeChat) -> FakeUser | None:
        """The chat's creator, else its first member (None in a chat of nobody)."""
        ids = sorted(chat.members, key=lambda u: chat.members[u] != "creator")
        return next((self.world.users[u] for u in ids
                     if u in self.world.users and u != self.bot.id
                     and chat.members[u] not in ("left", "kicked")), None)

    def close_topic(self, forum: FakeChat, thread_id: int, closed: bool = True) -> None:
        """An admin closes (or reopens) a topic: then only admins may post in it, and the bot
        (not an admin) gets 400 "TOPIC_CLOSED"."""
        forum.topics[thread_id].closed = closed

    def delete_topic(self, forum: FakeChat, thread_id: int) -> None:
        """An admin deletes a topic with all its messages: sending there, or editing one of
        them, then gives 400 ("message thread not found", "message to edit not found")."""
        forum.topics[thread_id].deleted = True
        for msg in self.world.messages.get(forum.id, {}).values():
            if msg.thread_id == thread_id:
                msg.deleted = True
        self.world.notify()

    def upgrade_to_supergroup(self, group: FakeChat, *, tell: bool = True) -> FakeChat:
        """Telegram's basic group -> supergroup migration: a new chat id; the bot's calls to
        the old id get 400 with ``migrate_to_chat_id`` (PTB: ChatMigrated), and the bot gets
        the two service messages (migrate_to_chat_id in the old chat, migrate_from_chat_id
        in the new one) unless ``tell`` is False (as when those updates are lost, e.g. while
        a webhook was down: then only the refused calls tell the bot)."""
        if group.type != "group":
            raise ValueError("only basic groups (group(..., supergroup=False)) migrate")
        new = self.group(group.title or "", username=group.username)
        new.members.update(group.members)
        old_json = group.to_json()
        group.migrated_to = new.id
        if not tell:
            return new
        date = int(time.time())
        someone = next((self.world.users[u] for u, s in group.members.items()
                        if s == "creator"), self.bot)
        self.world.push_update("message", {
            "message_id": group.next_message_id, "date": date, "chat": old_json,
            "from": someone.to_json(), "migrate_to_chat_id": new.id,
        })
        new_msg = self.world.add_message(new, someone)
        self.world.push_update("message", {
            **new_msg.to_json(), "sender_chat": old_json, "migrate_from_chat_id": group.id,
        })
        new_msg.deleted = True  # a service message: not part of what tests read
        return new

    def channel(self, title: str, *, owner: FakeUser | None = None) -> FakeChat:
        """A channel the bot is not (yet) in; see :meth:`add_bot_to_channel`."""
        chat_id = -(1_000_000_000_000 + next(self._group_ids))
        chat = FakeChat(chat_id, "channel", title=title, bot_member=False)
        if owner is not None:
            chat.members[owner.id] = "creator"
        self.world.chats[chat_id] = chat
        return chat

    def add_bot_to_channel(self, channel: FakeChat, by: FakeUser) -> None:
        """An admin adds the bot to a channel as an administrator (bots can only be admins
        there): the bot gets a ``my_chat_member`` update."""
        channel.bot_member = True
        channel.members[self.bot.id] = "administrator"
        self.world.push_update("my_chat_member", {
            "chat": channel.to_json(), "from": by.to_json(), "date": int(time.time()),
            "old_chat_member": {"user": self.bot.to_json(), "status": "left"},
            "new_chat_member": {**self._admin_rights(), "user": self.bot.to_json(),
                                "status": "administrator"},
        })

    @staticmethod
    def _admin_rights() -> dict:
        rights = ("can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
                  "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                  "can_change_info", "can_invite_users", "can_post_stories",
                  "can_edit_stories", "can_delete_stories")
        return {r: r not in ("can_be_edited", "is_anonymous") for r in rights}

    async def post_in_channel(self, channel: FakeChat, text: str) -> FakeMessage:
        """A post in a channel: a ``channel_post`` update (sent on behalf of the channel, so
        it has ``sender_chat`` and no ``from``) if the bot is in the channel."""
        msg = self.world.add_message(channel, self.channel_bot, text=text,
                                     entities=_entities(text), sender_chat=channel)
        if channel.bot_member:
            payload = msg.to_json()
            del payload["from"]
            self.world.push_update("channel_post", payload)
        return msg

    async def send_on_behalf(self, group: FakeChat, of: FakeChat, text: str) -> FakeMessage:
        """A message sent in ``group`` on behalf of a chat: by an anonymous admin (``of`` is
        the group itself) or by a user posting as channel ``of``. Telegram shows a bot as its
        sender (GroupAnonymousBot or Channel_Bot) and, unlike other bots' messages, gives it
        to the bots of the group (as any message: privacy mode applies)."""
        sender = self.anonymous_admin if of is group else self.channel_bot
        msg = self.world.add_message(group, sender, text=text, entities=_entities(text),
                                     sender_chat=of)
        if self._bot_sees(msg):
            self.world.push_update("message", msg.to_json())
        return msg

    def set_admin(self, group: FakeChat, user: FakeUser, admin: bool = True) -> None:
        group.members[user.id] = "administrator" if admin else "member"

    def remove_bot(self, group: FakeChat) -> None:
        """Kick the bot: sending there then gives 403."""
        group.bot_member = False
        group.members[self.bot.id] = "left"

    def _chat(self, chat: ChatLike) -> FakeChat:
        if isinstance(chat, FakeUser):
            return self.private(chat)
        return self.world.chat(chat) if isinstance(chat, int) else chat

    # -- acting as users -----------------------------------------------------------------------

    async def send_text(
        self, chat: ChatLike, user: FakeUser, text: str, *, reply_to: FakeMessage | None = None,
        topic: int | None = None,
    ) -> FakeMessage:
        """``user`` sends ``text`` in ``chat`` (in its forum topic ``topic``, None for General);
        returns the user's message once it is queued.

        Every ``/command`` or ``/command@Bot`` gets a ``bot_command`` entity, so PTB's
        CommandHandler routes it (and ignores commands addressed to another bot). Whether the
        bot gets an update follows Telegram: not from groups it left, and in privacy mode
        (see the class docstring) only what is meant for it."""
        chat = self._chat(chat)
        if chat.is_private:
            if chat.user is not user:
                raise ValueError(f"{user.first_name} cannot write in another user's DM")
            user.started, user.blocked = True, False  # writing to the bot restarts it
        elif chat.members.get(user.id, "left") == "left":
            chat.members[user.id] = "member"
        if topic is not None and (topic not in chat.topics or chat.topics[topic].deleted):
            raise ValueError(f"no topic {topic} in {chat.title!r}")
        msg = self.world.add_message(chat, user, text=text, entities=_entities(text),
                                     reply_to=reply_to, thread_id=topic)
        if self._bot_sees(msg):
            self.world.push_update("message", msg.to_json())
        return msg

    def edit_text(self, msg: FakeMessage, text: str) -> FakeMessage:
        """Its sender edits ``msg`` (one of his) to ``text``: the bot gets an
        ``edited_message`` update, as Telegram sends it, under the same rules as a new one."""
        if msg.from_bot:
            raise ValueError("a user can edit only his own messages")
        msg.text, msg.entities = text, _entities(text)
        msg.edits += 1
        msg.edit_date = int(time.time())
        if self._bot_sees(msg):
            self.world.push_update("edited_message", msg.to_json())
        return msg

    def _bot_sees(self, msg: FakeMessage) -> bool:
        chat = msg.chat
        if msg.from_bot:  # bots never see other bots' messages, in any mode
            return False
        if chat.is_private:
            return True
        if not chat.bot_member:
            return False
        if not self.world.privacy_mode or self.world.status(chat, self.bot) == "administrator":
            return True
        text = msg.text or ""
        commands = [e for e in msg.entities if e["type"] == "bot_command"]
        if commands and commands[0]["offset"] == 0:
            command = text[: commands[0]["length"]]
            return "@" not in command or command.lower().endswith(f"@{self.bot.username}".lower())
        return (
            (msg.reply_to is not None and msg.reply_to.from_bot)
            or f"@{self.bot.username}".lower() in text.lower()
        )

    async def press(
        self,
        chat: ChatLike,
        message_id: int,
        user: FakeUser,
        callback_data: str,
        *,
        timeout: float = WAIT,
    ) -> CallbackAnswer:
        """``user`` presses an inline button: a callback_query update for the message as it
        is now. Returns the bot's answerCallbackQuery once it comes; TimeoutError if it never
        does. ``callback_data`` is not checked against the keyboard (stale presses happen)."""
        chat = self._chat(chat)
        msg = self.world.message(chat, message_id)
        if msg is None:
            raise LookupError(f"no message {message_id} in chat {chat.id} to press a button on")
        query_id = str(4_000_000_000_000_000 + next(self._query_ids))
        future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
        self.world.pending_queries[query_id] = future
        self.world.push_update("callback_query", {
            "id": query_id,
            "from": user.to_json(),
            "message": msg.to_json(),
            "chat_instance": str(abs(chat.id) * 7 + 3),
            "data": callback_data,
        })
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.shield(future)
        except TimeoutError:
            raise TimeoutError(
                f"bot did not answer callback query {callback_data!r} within {timeout}s"
            ) from None

    async def inline_query(self, user: FakeUser, query: str = "", *,
                           timeout: float = 10.0) -> InlineAnswer:
        """``user`` types ``@bot query`` in some chat: an inline_query update (inline mode
        is on, as /setinline at @BotFather turns it on). Returns the bot's
        answerInlineQuery once it comes; TimeoutError if it never does."""
        query_id = str(5_000_000_000_000_000 + next(self._query_ids))
        future: asyncio.Future[InlineAnswer] = asyncio.get_running_loop().create_future()
        self.world.pending_inline[query_id] = future
        self.world.push_update("inline_query", {
            "id": query_id, "from": user.to_json(), "query": query, "offset": "",
            "chat_type": "sender",
        })
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.shield(future)
        except TimeoutError:
            raise TimeoutError(f"bot did not answer inline query {query!r} within {timeout}s"
                               ) from None

    async def press_button(
        self, message: FakeMessage, user: FakeUser, match: ButtonMatch, *, timeout: float = WAIT
    ) -> CallbackAnswer:
        """Press the button of ``message`` (as the chat shows it now) whose text equals
        ``match``, or for which ``match(text, callback_data)`` is true."""
        current = self.world.message(message.chat, message.message_id)
        if current is None:
            raise LookupError(f"message {message.message_id} was deleted")
        _, data = current.find_button(match)
        if data is None:
            raise LookupError(f"button {match!r} is not a callback button")
        return await self.press(current.chat, current.message_id, user, data, timeout=timeout)

    def delete(self, chat: ChatLike, message_id: int) -> None:
        """A user deletes a message (in a DM anyone may delete anything, for both sides):
        the bot's later edits of it get 400 "message to edit not found". No update is sent,
        as Telegram sends none to bots for deletions."""
        msg = self.world.message(self._chat(chat), message_id)
        if msg is None:
            raise LookupError(f"no message {message_id} to delete")
        msg.deleted = True
        self.world.notify()

    # -- reading -------------------------------------------------------------------------------

    def messages(self, chat: ChatLike, *, include_users: bool = False) -> list[FakeMessage]:
        """The bot's messages as the chat shows them now (edits applied, deleted ones gone),
        oldest first; with ``include_users`` the users' messages too."""
        chat = self._chat(chat)
        return [
            m for m in self.world.messages.get(chat.id, {}).values()
            if not m.deleted and (include_users or m.from_bot)
        ]

    def topic_messages(self, chat: ChatLike, topic: int | None) -> list[FakeMessage]:
        """The bot's messages in one forum topic (``topic`` None: the General topic), as
        :meth:`messages`."""
        return [m for m in self.messages(chat) if m.thread_id == topic]

    def transcript(self, chat: ChatLike) -> str:
        """The chat as text, users' messages included: for assertion messages and debugging."""
        lines = []
        for m in self.messages(chat, include_users=True):
            who = "bot" if m.from_bot else m.sender.first_name
            body = m.text if m.text is not None else f"[{m.media_kind}] {m.caption or ''}"
            edited = f" (edited x{m.edits})" if m.edits else ""
            buttons = f" {m.keyboard}" if m.keyboard else ""
            where = f" [topic {m.thread_id}]" if m.thread_id is not None else ""
            lines.append(f"#{m.message_id}{where} {who}{edited}: {body}{buttons}")
        return "\n".join(lines)

    def last_message(self, chat: ChatLike) -> FakeMessage | None:
        """The bot's newest visible message in the chat, or None."""
        shown = self.messages(chat)
        return shown[-1] if shown else None

    def message(self, chat: ChatLike, message_id: int) -> FakeMessage | None:
        """A message by id as currently shown, None if deleted or unknown."""
        return self.world.message(self._chat(chat), message_id)

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = WAIT, *, what: str | None = None
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value. It is re-checked after
        every bot call and every harness action; TimeoutError after ``timeout`` seconds.
        Exceptions raised by ``predicate`` mean "not yet" and are chained to the TimeoutError."""
        return await self.world.wait_for(predicate, timeout, what or repr(predicate))

    async def wait_reply(
        self, after: FakeMessage, *, timeout: float = WAIT, match: Callable[[FakeMessage], bool] | None = None
    ) -> FakeMessage:
        """The first bot message in ``after``'s chat newer than ``after`` (and matching)."""

        def found() -> FakeMessage | None:
            return next(
                (m for m in self.messages(after.chat)
                 if m.message_id > after.message_id and (match is None or match(m))),
                None,
            )

        return await self.wait_for(found, timeout, what=f"a reply after {after!r}")

    async def settle(self, quiet: float = 0.15, timeout: float = WAIT) -> None:
        """Wait until the bot made no call other than getUpdates for ``quiet`` seconds (use
        before asserting that something did *not* happen)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            seen = self._busy_calls()
            await asyncio.sleep(quiet)
            if self._busy_calls() == seen:
                return
            if loop.time() > deadline:
                raise TimeoutError(f"bot still busy after {timeout}s")

    def _busy_calls(self) -> int:
        return sum(c.method != "getUpdates" for c in self.world.calls)

    def commands(self, *, scope: str = "default", language_code: str = "") -> list[tuple[str, str]]:
        """Commands set by setMyCommands for a scope type (e.g. "all_group_chats"; for chat
        scopes append the chat id, "chat-100…") and language."""
        stored = self.world.commands.get((scope, language_code), [])
        return [(c["command"], c["description"]) for c in stored]

    # -- stats ---------------------------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """Every Bot API request as (method, chat_id, time), getUpdates included."""
        return self.world.calls

    @property
    def errors(self) -> list[ErrorRecord]:
        """Every error answer as (method, chat_id, code, description)."""
        return self.world.errors

    @property
    def unknown_methods(self) -> list[str]:
        return self.world.unknown_methods

    @property
    def unanswered_queries(self) -> list[str]:
        """Ids of button presses the bot never answered (the user's spinner keeps turning)."""
        return [qid for qid, future in self.world.pending_queries.items() if not future.done()]

    @property
    def rejections(self) -> list[Rejection]:
        """429 answers given by the flood simulation, as (chat_id, time, retry_after)."""
        return self.world.flood.rejections

    def send_times(self, chat: ChatLike) -> list[float]:
        """clock() times of every delivered message-or-edit in the chat."""
        return list(self.world.flood.times.get(self._chat(chat).id, []))

    def max_per_minute(self, chat: ChatLike) -> int:
        """Most messages-or-edits delivered to the chat in any sliding 60 s window."""
        return self.world.flood.max_in_window(self._chat(chat).id, 60.0)

    def max_in_window(self, chat: ChatLike, seconds: float) -> int:
        return self.world.flood.max_in_window(self._chat(chat).id, seconds)


__all__ = ["Button", "ButtonMatch", "ChatLike", "FakeTelegram"]


def _entities(text: str) -> list[dict]:
    """A ``bot_command`` entity for every ``/command`` or ``/command@Bot`` in ``text``."""
    return [{"type": "bot_command", "offset": utf16_len(text[: m.start()]),
             "length": utf16_len(m.group())} for m in _COMMAND.finditer(text)]
