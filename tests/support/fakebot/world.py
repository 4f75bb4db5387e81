"""The fake Telegram's state: accounts, chats, messages, files, the update queue and call log.

Everything runs on one event loop (server handlers, the bot under test and the test itself), so
state is plain data. ``notify()`` wakes everyone waiting for *some* change: a fresh
``asyncio.Event`` per generation is set and replaced, which is an asyncio.Condition's
notify_all without the lock ceremony (and callable from sync code).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import ApiError
from .model import FakeChat, FakeMessage, FakeUser, StoredFile
from .ratelimit import FloodControl


class Call(NamedTuple):
    """One Bot API request: method name as sent, chat_id if given (int), clock() time."""

    method: str
    chat_id: int | str | None
    time: float


class ErrorRecord(NamedTuple):
    method: str
    chat_id: int | str | None
    code: int
    description: str


@dataclass(frozen=True)
class InlineAnswer:
    """What the bot passed to answerInlineQuery: its results (as JSON) and cache time."""

    results: list[dict]
    cache_time: int | None
    is_personal: bool


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot passed to answerCallbackQuery."""

    text: str | None
    show_alert: bool
    url: str | None = None
    cache_time: int | None = None


# Telegram's default when allowed_updates was never set: everything but these.
_NOT_DEFAULT_UPDATES = {"chat_member", "message_reaction", "message_reaction_count"}


class World:
    def __init__(self, token: str, bot_username: str, clock: Callable[[], float]) -> None:
        self.token = token
        self.clock = clock
        self.bot = FakeUser(
            id=int(token.split(":", 1)[0]), first_name="Paohuzi Test Bot",
            username=bot_username, is_bot=True,
        )
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[int, dict[int, FakeMessage]] = {}
        self.files: dict[str, StoredFile] = {}
        self.updates: list[dict] = []
        self.allowed_updates: set[str] | None = None
        self.webhook_url = ""  # setWebhook: Telegram then refuses getUpdates (409)
        self.webhook_secret: str | None = None  # setWebhook's secret_token
        # getWebhookInfo's last_error_date and last_error_message: a delivery that failed
        self.webhook_error: tuple[int, str] | None = None
        self.pending_queries: dict[str, asyncio.Future[CallbackAnswer]] = {}
        self.pending_inline: dict[str, asyncio.Future[InlineAnswer]] = {}
        self.commands: dict[tuple[str, str], list[dict]] = {}
        self.calls: list[Call] = []
        self.errors: list[ErrorRecord] = []
        self.unknown_methods: list[str] = []
        self.flood = FloodControl(clock)
        self.privacy_mode = True
        self.delay = 0.0  # seconds of network round trip added to every call (see server)
        self.lost: set[str] = set()  # methods whose calls never get through (see server)
        self.closing = False
        self._ids = itertools.count(1)
        self._update_ids = itertools.count(500_000_001)
        self._changed = asyncio.Event()

    # -- change notification -------------------------------------------------------------------

    def notify(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_change(self, timeout: float) -> None:
        """Return after the next notify() or after ``timeout`` seconds, whichever is first."""
        event = self._changed
        try:
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            pass

    async def wait_for(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Re-check ``predicate`` on every change until truthy. An exception from it counts as
        "not yet" (``last_message(g).edits`` before any message exists) and is chained to the
        TimeoutError if the wait fails."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        error: Exception | None = None
        while True:
            try:
                result = predicate()
            except Exception as exc:
                result, error = None, exc
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}\n"
                                   f"{self.recent_activity()}") from error
            await self.wait_change(remaining)

    def recent_activity(self, n: int = 8) -> str:
        """The last bot calls and errors, for timeout messages."""
        calls = [f"{c.method}({c.chat_id})" for c in self.calls if c.method != "getUpdates"]
        errors = [f"{e.method}({e.chat_id}) -> {e.code} {e.description}" for e in self.errors]
        return (f"last calls: {', '.join(calls[-n:]) or 'none'}\n"
                f"last errors: {'; '.join(errors[-n:]) or 'none'}")

    # -- ids -----------------------------------------------------------------------------------

    def next_id(self) -> int:
        return next(self._ids)

    def new_file(self, kind: str, data: bytes, **fields: Any) -> StoredFile:
        n = self.next_id()
        prefix = "AgACAgIAAxkDAAI" if kind == "photo" else "BQACAgIAAxkDAAI"
        stored = StoredFile(f"{prefix}{n:08x}fake", f"AQAD{n:08x}", data, kind, **fields)
        self.files[stored.file_id] = stored
        return stored

    # -- lookups that fail like the Bot API ----------------------------------------------------

    def chat(self, chat_id: Any) -> FakeChat:
        try:
            chat = self.chats.get(int(chat_id))
            user = self.users.get(int(chat_id))
            if chat is None and user is not None and not user.is_bot:
                chat = self.private(user)
        except (TypeError, ValueError):
            chat = next((c for c in self.chats.values() if chat_id == f"@{c.username}"), None)
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": chat.migrated_to})
        return chat

    def private(self, user: FakeUser) -> FakeChat:
        """The user's DM with the bot (chat id = user id), created on first use."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = FakeChat(user.id, "private", user=user)
        return chat

    def message(self, chat: FakeChat, message_id: int | None) -> FakeMessage | None:
        msg = self.messages.get(chat.id, {}).get(message_id or 0)
        return None if msg is None or msg.deleted else msg

    def user(self, user_id: Any) -> FakeUser:
        try:
            return self.users[int(user_id)]
        except (KeyError, TypeError, ValueError):
            raise ApiError(400, "Bad Request: user not found") from None

    def check_can_write(self, chat: FakeChat) -> None:
        """403s for a DM the user never opened or blocked, or a group the bot was removed from."""
        if chat.user is not None:
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif not chat.bot_member:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")

    def status(self, chat: FakeChat, user: FakeUser) -> str:
        if chat.user is not None:
            return "member" if user in (chat.user, self.bot) else "left"
        return chat.members.get(user.id, "left")

    # -- messages and updates ------------------------------------------------------------------

    def add_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> FakeMessage:
        msg = FakeMessage(chat.next_message_id, chat, sender, int(time.time()), **fields)
        chat.next_message_id += 1
        self.messages.setdefault(chat.id, {})[msg.message_id] = msg
        return msg

    def push_update(self, kind: str, payload: dict) -> None:
        """Queue an update unless the bot's allowed_updates filter drops it, as Telegram does."""
        allowed = self.allowed_updates
        if (allowed is None and kind in _NOT_DEFAULT_UPDATES) or (allowed and kind not in allowed):
            return
        self.updates.append({"update_id": next(self._update_ids), kind: payload})
        self.notify()

    def confirm_updates(self, offset: int) -> None:
        """getUpdates' offset: forget updates below it; a negative one keeps the last -offset."""
        if offset < 0:
            self.updates = self.updates[offset:]
        else:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
