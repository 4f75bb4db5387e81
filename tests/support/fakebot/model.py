"""The fake world's objects and their Bot API JSON shapes (User, Chat, Message, PhotoSize…)."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Button = tuple[str, str | None]  # (text, callback_data); callback_data None for url buttons

MemberStatus = Literal["creator", "administrator", "member", "left"]


@dataclass(eq=False)
class FakeUser:
    """A Telegram account. ``started`` = has opened the DM with the bot (sent /start)."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_json(self) -> dict:
        data: dict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass(eq=False)
class FakeTopic:
    """A forum topic; its id (``message_thread_id``) is that of the message that created it."""

    thread_id: int
    name: str
    closed: bool = False  # only admins may post: the bot (not an admin) gets TOPIC_CLOSED
    deleted: bool = False  # with all its messages: "message thread not found"


@dataclass(eq=False)
class FakeChat:
    """A private chat (id = the user's id), a group or a channel (negative ids). A forum
    (``is_forum``, supergroups only) holds topics besides its General topic, which has no
    thread id: a message there has no ``message_thread_id``."""

    id: int
    type: Literal["private", "group", "supergroup", "channel"]
    title: str | None = None
    user: FakeUser | None = None  # the other party of a private chat
    username: str | None = None
    members: dict[int, MemberStatus] = field(default_factory=dict)
    bot_member: bool = True  # False after tg.remove_bot(chat)
    migrated_to: int | None = None  # set when a basic group was upgraded to a supergroup
    next_message_id: int = 1
    is_forum: bool = False
    topics: dict[int, FakeTopic] = field(default_factory=dict)  # by thread id

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def to_json(self) -> dict:
        if self.user is not None:
            data = {"id": self.id, "type": "private", "first_name": self.user.first_name}
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
            return data
        data = {"id": self.id, "type": self.type, "title": self.title}
        if self.username:
            data["username"] = self.username
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass(eq=False)
class StoredFile:
    """Bytes the bot uploaded, addressable by file_id for reuse."""

    file_id: str
    file_unique_id: str
    data: bytes
    kind: Literal["photo", "document"]
    file_name: str | None = None
    mime_type: str | None = None
    width: int = 0
    height: int = 0

    def to_json(self) -> dict:
        if self.kind == "photo":
            return {
                "file_id": self.file_id,
                "file_unique_id": self.file_unique_id,
                "width": self.width,
                "height": self.height,
                "file_size": len(self.data),
            }
        data: dict = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
        }
        if self.file_name:
            data["file_name"] = self.file_name
        if self.mime_type:
            data["mime_type"] = self.mime_type
        return data

    def image(self):  # -> PIL.Image.Image, imported lazily: only tests that look need Pillow
        """The photo decoded with Pillow (for tests that inspect pixels or size)."""
        from PIL import Image

        return Image.open(io.BytesIO(self.data))


@dataclass(eq=False)
class FakeMessage:
    """One message as the chat currently shows it; edits update it in place.

    ``text``/``caption`` are the plain text after parse_mode was applied (what users see);
    ``entities`` hold the formatting. ``edits`` counts successful edits of any kind.
    """

    message_id: int
    chat: FakeChat
    sender: FakeUser
    date: int
    text: str | None = None
    entities: list[dict] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[dict] = field(default_factory=list)
    photo: StoredFile | None = None
    document: StoredFile | None = None
    reply_markup: dict | None = None
    reply_to: FakeMessage | None = None
    edits: int = 0
    edit_date: int | None = None
    deleted: bool = False
    sender_chat: FakeChat | None = None  # sent on behalf of this chat (sender: a stand-in)
    thread_id: int | None = None  # the forum topic it is in (None: General, or no forum)
    silent: bool = False  # sent with disable_notification: its chat was not notified

    @property
    def from_bot(self) -> bool:
        """Sent by the bot under test (not by a stand-in for a chat)."""
        return self.sender.is_bot and self.sender_chat is None

    @property
    def photo_bytes(self) -> bytes | None:
        """The current photo's bytes (the latest after editMessageMedia)."""
        return self.photo.data if self.photo else None

    @property
    def document_bytes(self) -> bytes | None:
        return self.document.data if self.document else None

    @property
    def keyboard(self) -> list[list[Button]]:
        """Inline keyboard rows as (text, callback_data); [] without an inline keyboard."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [[(b["text"], b.get("callback_data")) for b in row] for row in rows]

    @property
    def buttons(self) -> list[Button]:
        """The inline keyboard flattened row by row."""
        return [button for row in self.keyboard for button in row]

    def find_button(self, match: str | Callable[[str, str | None], bool]) -> Button:
        """The first button whose text equals ``match``, or for which ``match(text, data)``."""
        for text, data in self.buttons:
            if (match(text, data) if callable(match) else text == match):
                return text, data
        raise LookupError(
            f"no button matching {match!r} in message {self.message_id}; buttons: {self.buttons}"
        )

    def to_json(self, *, with_reply: bool = True) -> dict:
        data: dict = {
            "message_id": self.message_id,
            "from": self.sender.to_json(),
            "chat": self.chat.to_json(),
            "date": self.date,
        }
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_json()
        data.update(self._thread_json())
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.photo is not None:
            data["photo"] = [self.photo.to_json()]
        if self.document is not None:
            data["document"] = self.document.to_json()
        if self.caption is not None:
            data["caption"] = self.caption
            if self.caption_entities:
                data["caption_entities"] = self.caption_entities
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup  # only inline keyboards are echoed back
        if with_reply and self.reply_to is not None:  # Telegram nests one level only
            data["reply_to_message"] = self.reply_to.to_json(with_reply=False)
        return data

    def _thread_json(self) -> dict:
        """As Telegram: a topic message has the topic's ``message_thread_id`` and
        ``is_topic_message``; a reply elsewhere in a supergroup (General included) has the
        ``message_thread_id`` of the thread it replies in (its root message), which is no
        topic: sending to it gives "message thread not found"."""
        if self.thread_id is not None:
            return {"message_thread_id": self.thread_id, "is_topic_message": True}
        if self.reply_to is not None and self.chat.type == "supergroup":
            return {"message_thread_id": self.reply_to.message_id}
        return {}

    def __repr__(self) -> str:
        body = self.text if self.text is not None else f"[{self.media_kind}] {self.caption or ''}"
        return f"<FakeMessage {self.chat.id}/{self.message_id} {body[:40]!r} buttons={len(self.buttons)}>"

    @property
    def media_kind(self) -> str:
        return "photo" if self.photo else "document" if self.document else "text"
