"""Bot API methods of the fake server, with the real API's result shapes and error texts.

Each handler takes (world, params) and returns the JSON ``result`` or raises ApiError.
Registered by lower-cased name, since Telegram matches method names case-insensitively.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .errors import ApiError
from .formatting import parse, utf16_len
from .model import FakeChat, FakeMessage, FakeTopic, StoredFile
from .params import Params
from .world import CallbackAnswer, InlineAnswer, World

Handler = Callable[[World, Params], Awaitable[Any]]
METHODS: dict[str, Handler] = {}

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_PHOTO_BYTES = 10 * 1024 * 1024
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
_BUTTON_ACTIONS = {
    "callback_data", "url", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
}
_ADMIN_RIGHTS = {
    "can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
    "can_delete_messages": True, "can_manage_video_chats": True, "can_restrict_members": True,
    "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
    "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
    "can_pin_messages": True, "can_manage_topics": False,
}


def method(*names: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for name in names:
            METHODS[name.lower()] = handler
        return handler

    return register


# -- lifecycle and bot settings ------------------------------------------------------------------


@method("getMe")
async def get_me(world: World, p: Params) -> dict:
    return {
        **world.bot.to_json(),
        "can_join_groups": True,
        "can_read_all_group_messages": not world.privacy_mode,
        "supports_inline_queries": False,
    }


@method("setWebhook")
async def set_webhook(world: World, p: Params) -> bool:
    """Only recorded: tests deliver ``world.updates`` to the URL themselves, with the secret."""
    _set_allowed_updates(world, p)
    if p.bool("drop_pending_updates"):
        world.updates.clear()
    world.webhook_url, world.webhook_secret = p.str("url") or "", p.str("secret_token")
    return True


@method("deleteWebhook")
async def delete_webhook(world: World, p: Params) -> bool:
    if p.bool("drop_pending_updates"):
        world.updates.clear()
    world.webhook_url, world.webhook_secret = "", None
    return True


@method("getWebhookInfo")
async def get_webhook_info(world: World, p: Params) -> dict:
    info = {"url": world.webhook_url, "has_custom_certificate": False,
            "pending_update_count": len(world.updates)}
    if world.webhook_error is not None:
        info["last_error_date"], info["last_error_message"] = world.webhook_error
    return info


@method("close", "logOut", "setMyDescription", "setMyShortDescription", "setMyName",
        "setChatMenuButton", "setMyDefaultAdministratorRights")
async def accept(world: World, p: Params) -> bool:
    return True


def _commands_key(p: Params) -> tuple[str, str]:
    scope = p.json("scope") or {"type": "default"}
    return scope.get("type", "default") + str(scope.get("chat_id", "")), p.str("language_code") or ""


@method("setMyCommands")
async def set_my_commands(world: World, p: Params) -> bool:
    commands = p.json("commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise ApiError(400, "Bad Request: commands must be a list of at most 100 BotCommand")
    for c in commands:
        name = str(c.get("command", ""))
        if not (1 <= len(name) <= 32 and name.replace("_", "").isalnum() and name.islower()):
            raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        if not 1 <= len(str(c.get("description", ""))) <= 256:
            raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
    world.commands[_commands_key(p)] = commands
    return True


@method("getMyCommands")
async def get_my_commands(world: World, p: Params) -> list:
    return world.commands.get(_commands_key(p), [])


@method("deleteMyCommands")
async def delete_my_commands(world: World, p: Params) -> bool:
    world.commands.pop(_commands_key(p), None)
    return True


# -- updates -------------------------------------------------------------------------------------


@method("getUpdates")
async def get_updates(world: World, p: Params) -> list:
    if world.webhook_url:
        raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                            "use deleteWebhook to delete the webhook first")
    _set_allowed_updates(world, p)
    offset = p.int("offset")
    if offset:
        world.confirm_updates(offset)
    limit = min(max(p.int("limit") or 100, 1), 100)
    timeout = p.float("timeout") or 0.0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not world.updates and not world.closing and loop.time() < deadline:
        await world.wait_change(deadline - loop.time())
    return world.updates[:limit]


def _set_allowed_updates(world: World, p: Params) -> None:
    allowed = p.json("allowed_updates")
    if allowed is not None:
        world.allowed_updates = set(allowed) or None  # [] means "back to the default"


# -- validation helpers --------------------------------------------------------------------------


def _reply_markup(p: Params) -> dict | None:
    markup = p.json("reply_markup")
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise ApiError(400, "Bad Request: can't parse inline keyboard button: "
                            "InlineKeyboardButton must be an Object")
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise ApiError(400, "Bad Request: can't parse inline keyboard button: Text must be "
                                "non-empty")
        if len(_BUTTON_ACTIONS & button.keys()) != 1:
            raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")
        data = button.get("callback_data")
        if data is not None and not 1 <= len(str(data).encode()) <= MAX_CALLBACK_DATA:
            raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        url = button.get("url")
        if url is not None and not str(url).startswith(("http://", "https://", "tg://")):
            raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
    return markup


def _inline(markup: dict | None) -> dict | None:
    """The part of a markup an edit can change (edits only take inline keyboards)."""
    return markup if markup and "inline_keyboard" in markup else None


def _text(p: Params, name: str, *, required: bool) -> tuple[str | None, list[dict]]:
    raw = p.str(name)
    if raw is None:
        if required:
            raise ApiError(400, "Bad Request: message text is empty")
        return None, []
    entities_key = "entities" if name == "text" else "caption_entities"
    text, entities = parse(raw, p.str("parse_mode"), p.json(entities_key))
    if name == "text":
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(text) > MAX_TEXT:
            raise ApiError(400, "Bad Request: message is too long")
    elif utf16_len(text) > MAX_CAPTION:
        raise ApiError(400, "Bad Request: message caption is too long")
    return text, entities


def _photo(world: World, data: bytes) -> StoredFile:
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_PHOTO_BYTES:
        raise ApiError(400, "Bad Request: PHOTO_SAVE_FILE_INVALID")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError):
        raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from None
    if width + height > 10000 or max(width, height) > 20 * min(width, height):
        raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
    return world.new_file("photo", data, width=width, height=height)


def _input_file(world: World, p: Params, value: Any, kind: str, field: str) -> StoredFile:
    """An upload (multipart part, possibly via attach://) or a file_id of the right kind."""
    part = p.files.get(field)
    if isinstance(value, str) and value.startswith("attach://"):
        part = p.files.get(value.removeprefix("attach://"))
        if part is None:
            raise ApiError(400, f"Bad Request: file {value} not found in the request")
    if part is not None:
        if kind == "photo":
            return _photo(world, part.data)
        return world.new_file(kind, part.data, file_name=part.filename,
                              mime_type=part.content_type)
    if not value:
        raise ApiError(400, f"Bad Request: there is no {kind} in the request")
    stored = world.files.get(str(value))
    if stored is None:
        raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
    if stored.kind != kind:
        raise ApiError(400, f"Bad Request: can't use file of type {stored.kind.title()} as "
                            f"{kind.title()}")
    return stored


def _reply_to(world: World, chat: FakeChat, p: Params) -> FakeMessage | None:
    params = p.json("reply_parameters") or {}
    message_id = params.get("message_id") or p.int("reply_to_message_id")
    if not message_id:
        return None
    target = world.message(chat, int(message_id))
    allow = params.get("allow_sending_without_reply") or p.bool("allow_sending_without_reply")
    if target is None and not allow:
        raise ApiError(400, "Bad Request: message to be replied not found")
    return target


def _thread(world: World, chat: FakeChat, p: Params) -> int | None:
    """The forum topic to send in (``message_thread_id``), refused as Telegram refuses it:
    no such topic (deleted, General's or a reply thread's id, or outside a forum) or, since
    the bot is not an admin there, a closed one."""
    thread_id = p.int("message_thread_id")
    if not thread_id:
        return None
    topic = chat.topics.get(thread_id)
    if topic is None or topic.deleted:
        raise ApiError(400, "Bad Request: message thread not found")
    if topic.closed and chat.members.get(world.bot.id) not in ("administrator", "creator"):
        raise ApiError(400, "Bad Request: TOPIC_CLOSED")
    return thread_id


def _deliver(world: World, chat: FakeChat, p: Params, **fields: Any) -> dict:
    thread_id = _thread(world, chat, p)
    world.flood.admit(chat.id, chat.is_private)
    return world.add_message(chat, world.bot, thread_id=thread_id,
                             silent=bool(p.bool("disable_notification")), **fields).to_json()


# -- sending -------------------------------------------------------------------------------------


@method("sendMessage")
async def send_message(world: World, p: Params) -> dict:
    chat = world.chat(p.raw("chat_id"))
    world.check_can_write(chat)
    text, entities = _text(p, "text", required=True)
    markup = _reply_markup(p)
    reply_to = _reply_to(world, chat, p)
    return _deliver(world, chat, p, text=text, entities=entities, reply_markup=markup,
                    reply_to=reply_to)


@method("sendPhoto")
async def send_photo(world: World, p: Params) -> dict:
    chat = world.chat(p.raw("chat_id"))
    world.check_can_write(chat)
    caption, caption_entities = _text(p, "caption", required=False)
    markup = _reply_markup(p)
    reply_to = _reply_to(world, chat, p)
    photo = _input_file(world, p, p.raw("photo"), "photo", "photo")
    return _deliver(world, chat, p, photo=photo, caption=caption, caption_entities=caption_entities,
                    reply_markup=markup, reply_to=reply_to)


@method("sendDocument")
async def send_document(world: World, p: Params) -> dict:
    chat = world.chat(p.raw("chat_id"))
    world.check_can_write(chat)
    caption, caption_entities = _text(p, "caption", required=False)
    markup = _reply_markup(p)
    reply_to = _reply_to(world, chat, p)
    document = _input_file(world, p, p.raw("document"), "document", "document")
    return _deliver(world, chat, p, document=document, caption=caption,
                    caption_entities=caption_entities, reply_markup=markup, reply_to=reply_to)


@method("createForumTopic")
async def create_forum_topic(world: World, p: Params) -> dict:
    """A new topic, made by the bot: only in a forum, and only as an admin there (Telegram's
    can_manage_topics); its id is that of its (service) creation message."""
    chat = world.chat(p.raw("chat_id"))
    world.check_can_write(chat)
    if not chat.is_forum:
        raise ApiError(400, "Bad Request: the chat is not a forum")
    if chat.members.get(world.bot.id) not in ("administrator", "creator"):
        raise ApiError(400, "Bad Request: not enough rights to create a topic")
    name = p.str("name", required=True) or ""
    created = world.add_message(chat, world.bot)
    created.deleted = True  # a service message: not part of what tests read
    chat.topics[created.message_id] = FakeTopic(created.message_id, name)
    return {"message_thread_id": created.message_id, "name": name, "icon_color": 7322096}


@method("sendChatAction")
async def send_chat_action(world: World, p: Params) -> bool:
    world.check_can_write(world.chat(p.raw("chat_id")))
    return True


# -- editing -------------------------------------------------------------------------------------


def _editable(world: World, p: Params) -> FakeMessage:
    if "inline_message_id" in p:
        raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID (inline messages: not in the fake)")
    chat = world.chat(p.raw("chat_id"))
    world.check_can_write(chat)
    msg = world.message(chat, p.int("message_id", required=True))
    if msg is None:
        raise ApiError(400, "Bad Request: message to edit not found")
    if not msg.from_bot:
        raise ApiError(400, "Bad Request: message can't be edited")
    return msg


def _apply_edit(world: World, msg: FakeMessage, before: tuple, **changes: Any) -> dict:
    """Refuse a no-op edit like Telegram, count the edit against flood limits, apply it.

    ``before`` holds the current values of the fields in ``changes``, in the same order.
    As in the real API, an edit without reply_markup removes the inline keyboard."""
    if before == tuple(changes.values()):
        raise ApiError(400, NOT_MODIFIED)
    world.flood.admit(msg.chat.id, msg.chat.is_private)
    for key, value in changes.items():
        setattr(msg, key, value)
    msg.edits += 1
    msg.edit_date = int(time.time())
    return msg.to_json()


@method("editMessageText")
async def edit_message_text(world: World, p: Params) -> dict:
    msg = _editable(world, p)
    if msg.text is None:
        raise ApiError(400, "Bad Request: there is no text in the message to edit")
    text, entities = _text(p, "text", required=True)
    before = (msg.text, msg.entities, _inline(msg.reply_markup))
    return _apply_edit(world, msg, before, text=text, entities=entities,
                       reply_markup=_inline(_reply_markup(p)))


@method("editMessageCaption")
async def edit_message_caption(world: World, p: Params) -> dict:
    msg = _editable(world, p)
    if msg.text is not None:
        raise ApiError(400, "Bad Request: there is no caption in the message to edit")
    caption, caption_entities = _text(p, "caption", required=False)
    before = (msg.caption, msg.caption_entities, _inline(msg.reply_markup))
    return _apply_edit(world, msg, before, caption=caption, caption_entities=caption_entities,
                       reply_markup=_inline(_reply_markup(p)))


@method("editMessageMedia")
async def edit_message_media(world: World, p: Params) -> dict:
    msg = _editable(world, p)
    if msg.text is not None:
        raise ApiError(400, "Bad Request: there is no media in the message to edit")
    media = p.json("media")
    if not isinstance(media, dict) or media.get("type") not in ("photo", "document"):
        raise ApiError(400, "Bad Request: can't parse InputMedia JSON object")
    kind = media["type"]
    stored = _input_file(world, p, media.get("media"), kind, "media")
    caption, caption_entities = parse(media.get("caption") or "", media.get("parse_mode"),
                                      media.get("caption_entities"))
    before = (msg.photo, msg.document, msg.caption, msg.caption_entities,
              _inline(msg.reply_markup))
    return _apply_edit(
        world, msg, before,
        photo=stored if kind == "photo" else None,
        document=stored if kind == "document" else None,
        caption=caption or None,  # the new media's caption replaces the old one, even if absent
        caption_entities=caption_entities,
        reply_markup=_inline(_reply_markup(p)),
    )


@method("editMessageReplyMarkup")
async def edit_message_reply_markup(world: World, p: Params) -> dict:
    msg = _editable(world, p)
    before = (_inline(msg.reply_markup),)
    return _apply_edit(world, msg, before, reply_markup=_inline(_reply_markup(p)))


@method("deleteMessage")
async def delete_message(world: World, p: Params) -> bool:
    chat = world.chat(p.raw("chat_id"))
    _delete(world, chat, p.int("message_id", required=True))
    return True


@method("deleteMessages")
async def delete_messages(world: World, p: Params) -> bool:
    chat = world.chat(p.raw("chat_id"))
    ids = p.json("message_ids") or []
    if not 1 <= len(ids) <= 100:
        raise ApiError(400, "Bad Request: message_ids must contain 1-100 identifiers")
    for message_id in ids:
        if world.message(chat, int(message_id)) is not None:
            _delete(world, chat, int(message_id))
    return True


def _delete(world: World, chat: FakeChat, message_id: int | None) -> None:
    msg = world.message(chat, message_id)
    if msg is None:
        raise ApiError(400, "Bad Request: message to delete not found")
    bot_is_admin = chat.members.get(world.bot.id) in ("administrator", "creator")
    if not (msg.from_bot or chat.is_private or bot_is_admin):
        raise ApiError(400, "Bad Request: message can't be deleted")
    msg.deleted = True


# -- callbacks and chat info ---------------------------------------------------------------------


@method("answerCallbackQuery")
async def answer_callback_query(world: World, p: Params) -> bool:
    future = world.pending_queries.pop(p.str("callback_query_id") or "", None)
    if future is None:
        raise ApiError(400, QUERY_INVALID)
    text = p.str("text")
    if text is not None and len(text) > 200:
        raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
    if not future.done():
        future.set_result(CallbackAnswer(text, p.bool("show_alert"), p.str("url"),
                                         p.int("cache_time")))
    return True


@method("answerInlineQuery")
async def answer_inline_query(world: World, p: Params) -> bool:
    future = world.pending_inline.pop(p.str("inline_query_id") or "", None)
    if future is None:
        raise ApiError(400, QUERY_INVALID)
    results = p.json("results") or []
    if len(results) > 50:
        raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
    ids = [r.get("id") for r in results]
    if len(set(ids)) != len(ids) or not all(isinstance(i, str) and 0 < len(i.encode()) <= 64
                                            for i in ids):
        raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
    if not future.done():
        future.set_result(InlineAnswer(results, p.int("cache_time"), p.bool("is_personal")))
    return True


def _member_json(world: World, chat: FakeChat, user_id: Any) -> dict:
    user = world.user(user_id)
    status = world.status(chat, user)
    if status == "creator":
        return {"status": "creator", "user": user.to_json(), "is_anonymous": False}
    if status == "administrator":
        return {"status": "administrator", "user": user.to_json(), **_ADMIN_RIGHTS}
    return {"status": status, "user": user.to_json()}


@method("getChatMember")
async def get_chat_member(world: World, p: Params) -> dict:
    return _member_json(world, world.chat(p.raw("chat_id")), p.raw("user_id"))


@method("getChatAdministrators")
async def get_chat_administrators(world: World, p: Params) -> list:
    chat = world.chat(p.raw("chat_id"))
    if chat.is_private:
        raise ApiError(400, "Bad Request: there are no administrators in the private chat")
    admins = [uid for uid, s in chat.members.items() if s in ("creator", "administrator")]
    return [_member_json(world, chat, uid) for uid in admins]


@method("getChatMemberCount")
async def get_chat_member_count(world: World, p: Params) -> int:
    chat = world.chat(p.raw("chat_id"))
    return 2 if chat.is_private else sum(s != "left" for s in chat.members.values())


@method("getChat")
async def get_chat(world: World, p: Params) -> dict:
    chat = world.chat(p.raw("chat_id"))
    gifts = ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription",
             "gifts_from_channels")
    return {
        **chat.to_json(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": dict.fromkeys(gifts, False),
    }
