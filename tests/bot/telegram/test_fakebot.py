"""The fake Bot API driven by a real python-telegram-bot Application over HTTP."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from support.fakebot import ApiError, FakeTelegram, RateLimits
from support.fakebot.formatting import parse
from support.fakebot.ratelimit import FloodControl, max_in_window
from support.images import png
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    RetryAfter,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)


def color_of(data: bytes) -> tuple[int, int, int]:
    return Image.open(io.BytesIO(data)).convert("RGB").getpixel((0, 0))


KEYBOARD = InlineKeyboardMarkup(
    [[InlineKeyboardButton("翻牌 Flip", callback_data="flip"),
      InlineKeyboardButton("提示 Hint", callback_data="hint")]]
)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_photo(
        update.effective_chat.id, png("red"), caption="红 red", reply_markup=KEYBOARD
    )


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    if query.data == "hint":
        await query.answer("只是提示 just a hint", show_alert=True)
        return
    await query.answer()
    await query.edit_message_media(
        InputMediaPhoto(png("blue"), caption="蓝 blue"), reply_markup=KEYBOARD
    )


async def dm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/dm in a group: the bot tries to write to the sender privately."""
    assert update.effective_user is not None and update.effective_chat is not None
    try:
        await context.bot.send_message(update.effective_user.id, "私聊 hello")
    except Forbidden as err:
        await context.bot.send_message(update.effective_chat.id, f"forbidden: {err.message}")


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_chat is not None
    await context.bot.send_message(update.effective_chat.id, f"echo {update.effective_message.text}")


async def burst(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    for i in range(3):
        await context.bot.send_message(update.effective_chat.id, f"burst {i}")


@pytest.fixture
async def app(fake_tg: FakeTelegram) -> AsyncIterator[Application]:
    application = (
        ApplicationBuilder()
        .token(fake_tg.token)
        .base_url(fake_tg.base_url)
        .rate_limiter(AIORateLimiter(max_retries=3))
        .build()
    )
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CommandHandler("dm", dm))
    application.add_handler(CommandHandler("burst", burst))
    application.add_handler(CallbackQueryHandler(on_button))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    await application.initialize()
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0, timeout=1)
    yield application
    await application.updater.stop()
    await application.stop()
    await application.shutdown()


async def test_command_photo_and_keyboard_arrive(fake_tg: FakeTelegram, app: Application) -> None:
    alice = fake_tg.user("Alice", language_code="zh")
    sent = await fake_tg.send_text(alice, alice, "/start")
    reply = await fake_tg.wait_reply(sent, timeout=5)
    assert reply.caption == "红 red"
    assert reply.photo_bytes is not None and color_of(reply.photo_bytes) == (255, 0, 0)
    assert reply.photo is not None and (reply.photo.width, reply.photo.height) == (40, 30)
    assert reply.keyboard == [[("翻牌 Flip", "flip"), ("提示 Hint", "hint")]]
    assert fake_tg.unknown_methods == [] and fake_tg.errors == []


async def test_command_addressed_to_bot_in_group(fake_tg: FakeTelegram, app: Application) -> None:
    bob = fake_tg.user("Bob")
    group = fake_tg.group("牌友群")
    await fake_tg.send_text(group, bob, "/start@SomeOtherBot")
    await fake_tg.settle()
    assert fake_tg.messages(group) == []
    sent = await fake_tg.send_text(group, bob, f"/start@{fake_tg.bot.username}")
    assert (await fake_tg.wait_reply(sent, timeout=5)).caption == "红 red"


async def test_group_privacy_mode(fake_tg: FakeTelegram, app: Application) -> None:
    bob = fake_tg.user("Bob")
    group = fake_tg.group("牌友群")
    await fake_tg.send_text(group, bob, "chatter")  # not meant for the bot: never delivered
    sent = await fake_tg.send_text(group, bob, f"hi @{fake_tg.bot.username}")
    mention_echo = await fake_tg.wait_reply(sent, timeout=5)
    assert mention_echo.text == f"echo hi @{fake_tg.bot.username}"
    reply = await fake_tg.send_text(group, bob, "reply", reply_to=mention_echo)
    assert (await fake_tg.wait_reply(reply, timeout=5)).text == "echo reply"
    fake_tg.set_admin(group, fake_tg.bot)  # admins see everything
    admin_sent = await fake_tg.send_text(group, bob, "more chatter")
    assert (await fake_tg.wait_reply(admin_sent, timeout=5)).text == "echo more chatter"
    assert [m.text for m in fake_tg.messages(group)] == [
        f"echo hi @{fake_tg.bot.username}", "echo reply", "echo more chatter"
    ]
    assert fake_tg.transcript(group).splitlines()[:2] == ["#1 Bob: chatter", "#2 Bob: hi @PaohuziTestBot"]
    with pytest.raises(TimeoutError, match="last calls: .*sendMessage") as failed:
        await fake_tg.wait_for(lambda: fake_tg.messages(group)[5], timeout=0.05)
    assert isinstance(failed.value.__cause__, IndexError)


async def test_press_edits_media_and_returns_answers(fake_tg: FakeTelegram, app: Application) -> None:
    alice = fake_tg.user("Alice")
    reply = await fake_tg.wait_reply(await fake_tg.send_text(alice, alice, "/start"), timeout=5)

    answer = await fake_tg.press_button(reply, alice, "提示 Hint", timeout=5)
    assert (answer.text, answer.show_alert) == ("只是提示 just a hint", True)

    answer = await fake_tg.press(alice, reply.message_id, alice, "flip", timeout=5)
    assert (answer.text, answer.show_alert) == (None, False)
    shown = await fake_tg.wait_for(lambda: fake_tg.last_message(alice).edits == 1
                                   and fake_tg.last_message(alice), timeout=5)
    assert shown.photo_bytes is not None and color_of(shown.photo_bytes) == (0, 0, 255)
    assert shown.caption == "蓝 blue" and shown.keyboard[0][0] == ("翻牌 Flip", "flip")
    assert len(fake_tg.messages(alice)) == 1 and fake_tg.unanswered_queries == []
    assert [c.method for c in fake_tg.calls if c.method.startswith("edit")] == ["editMessageMedia"]


async def test_dm_before_start_is_forbidden(fake_tg: FakeTelegram, app: Application) -> None:
    carol = fake_tg.user("Carol")
    group = fake_tg.group("牌友群")
    first = await fake_tg.send_text(group, carol, "/dm")
    refusal = await fake_tg.wait_reply(first, timeout=5)
    assert refusal.text == "forbidden: Forbidden: bot can't initiate conversation with a user"
    assert fake_tg.messages(carol) == []
    assert [(e.method, e.code) for e in fake_tg.errors] == [("sendMessage", 403)]

    fake_tg.start_private(carol)
    await fake_tg.send_text(group, carol, "/dm")
    greeting = await fake_tg.wait_for(lambda: fake_tg.last_message(carol), timeout=5)
    assert greeting.text == "私聊 hello"


# PTB warns about RetryAfter.retry_after's future type whenever it builds a RetryAfter.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_rate_limit_makes_ptb_retry(fake_tg: FakeTelegram, app: Application) -> None:
    fake_tg.rate_limits = RateLimits(private_per_second=1, private_burst=1)
    dave = fake_tg.user("Dave")
    await fake_tg.send_text(dave, dave, "/burst")
    await fake_tg.wait_for(lambda: len(fake_tg.messages(dave)) == 3, timeout=8)
    assert [m.text for m in fake_tg.messages(dave)] == ["burst 0", "burst 1", "burst 2"]
    assert len(fake_tg.rejections) >= 2 and all(r.retry_after >= 1 for r in fake_tg.rejections)
    assert {e.code for e in fake_tg.errors} == {429}
    assert fake_tg.max_in_window(dave, 0.9) == 1  # retried sends kept to 1 per second
    assert fake_tg.max_per_minute(dave) == 3


async def test_identical_edit_is_not_modified(fake_tg: FakeTelegram) -> None:
    erin = fake_tg.start_private(fake_tg.user("Erin")).id
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        msg = await bot.send_message(erin, "<b>分数</b> 3", parse_mode="HTML", reply_markup=KEYBOARD)
        assert msg.text == "分数 3" and msg.entities[0].type == "bold"
        with pytest.raises(BadRequest, match="(?i)message is not modified"):
            await bot.edit_message_text("<b>分数</b> 3", erin, msg.message_id, parse_mode="HTML",
                                        reply_markup=KEYBOARD)
        # Without reply_markup the keyboard goes away, so that is a real edit.
        await bot.edit_message_text("<b>分数</b> 3", erin, msg.message_id, parse_mode="HTML")
        shown = fake_tg.message(erin, msg.message_id)
        assert shown is not None and shown.keyboard == [] and shown.edits == 1
        with pytest.raises(BadRequest, match="(?i)can't parse entities"):
            await bot.send_message(erin, "1 < 2 <b>", parse_mode="HTML")
        fake_tg.delete(erin, msg.message_id)  # Erin clears her chat
        with pytest.raises(BadRequest, match="(?i)message to edit not found"):
            await bot.edit_message_text("x", erin, msg.message_id)


async def test_callback_answered_twice_and_file_id_reuse(fake_tg: FakeTelegram) -> None:
    frank = fake_tg.start_private(fake_tg.user("Frank"))
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        first = await bot.send_photo(frank.id, png("green"))
        again = await bot.send_photo(frank.id, first.photo[-1].file_id, caption="again")
        assert again.photo[-1].file_id == first.photo[-1].file_id
        assert color_of(fake_tg.last_message(frank).photo_bytes) == (0, 128, 0)
        with pytest.raises(BadRequest, match="(?i)wrong file identifier"):
            await bot.send_photo(frank.id, "no-such-file-id")
        with pytest.raises(BadRequest, match="(?i)IMAGE_PROCESS_FAILED"):
            await bot.send_photo(frank.id, b"not an image")

        task = asyncio.create_task(fake_tg.press(frank, first.message_id, frank, "x", timeout=5))
        update = await fake_tg.wait_for(lambda: fake_tg.world.updates, timeout=5)
        query_id = update[-1]["callback_query"]["id"]
        assert await bot.answer_callback_query(query_id, "好")
        assert (await task).text == "好"
        with pytest.raises(BadRequest, match="(?i)query ID is invalid"):
            await bot.answer_callback_query(query_id, "twice")


async def test_a_users_edit_arrives_as_edited_message(fake_tg: FakeTelegram) -> None:
    ida = fake_tg.user("Ida")
    fake_tg.start_private(ida)
    sent = await fake_tg.send_text(ida, ida, "/help")
    fake_tg.edit_text(sent, "/new")
    new, edited = fake_tg.world.updates[-2:]
    assert new["message"]["text"] == "/help" and "edit_date" not in new["message"]
    shown = edited["edited_message"]
    assert shown["message_id"] == sent.message_id and shown["text"] == "/new"
    assert shown["entities"] == [{"type": "bot_command", "offset": 0, "length": 4}]
    assert shown["edit_date"] >= shown["date"]


async def test_edits_deletes_documents_and_settings(fake_tg: FakeTelegram) -> None:
    gus = fake_tg.user("Gus")
    group = fake_tg.group("牌友群", members=(gus,))
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        photo = await bot.send_photo(group.id, png("white"), caption="旧 old", reply_markup=KEYBOARD)
        await bot.edit_message_caption(group.id, photo.message_id, caption="新 new",
                                       reply_markup=KEYBOARD)
        await bot.edit_message_reply_markup(group.id, photo.message_id)
        shown = fake_tg.message(group, photo.message_id)
        assert shown is not None and (shown.caption, shown.keyboard, shown.edits) == ("新 new", [], 2)
        with pytest.raises(BadRequest, match="(?i)no text in the message"):
            await bot.edit_message_text("x", group.id, photo.message_id)

        doc = await bot.send_document(group.id, b"log,1\n", filename="hand.csv", caption="记录")
        assert doc.document.file_name == "hand.csv"
        assert fake_tg.last_message(group).document_bytes == b"log,1\n"
        assert await bot.send_chat_action(group.id, "upload_photo")

        user_msg = await fake_tg.send_text(group, gus, "hello")
        with pytest.raises(BadRequest, match="(?i)message can't be deleted"):
            await bot.delete_message(group.id, user_msg.message_id)
        fake_tg.set_admin(group, fake_tg.bot)
        assert await bot.delete_message(group.id, user_msg.message_id)
        assert await bot.delete_message(group.id, doc.message_id)
        assert [m.message_id for m in fake_tg.messages(group, include_users=True)] == [
            photo.message_id
        ]
        with pytest.raises(BadRequest, match="(?i)message to delete not found"):
            await bot.delete_message(group.id, doc.message_id)

        with pytest.raises(BadRequest, match="(?i)BUTTON_DATA_INVALID"):
            await bot.send_message(group.id, "x", reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("long", callback_data="x" * 65)]]))

        await bot.set_my_commands([("new", "开新桌 New table")], language_code="zh")
        assert fake_tg.commands(language_code="zh") == [("new", "开新桌 New table")]
        assert [c.command for c in await bot.get_my_commands(language_code="zh")] == ["new"]
        assert await bot.get_my_commands() == ()  # the default scope/language was never set
        assert await bot.log_out() and await bot.close()
    assert fake_tg.max_per_minute(group) == 4  # 2 sends + 2 edits; deletes do not count


async def test_long_poll_returns_as_soon_as_an_update_arrives(fake_tg: FakeTelegram) -> None:
    ivan = fake_tg.user("Ivan")
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        loop = asyncio.get_running_loop()
        started = loop.time()
        poll = asyncio.create_task(bot.get_updates(timeout=10, read_timeout=15,
                                                   allowed_updates=["message"]))
        await fake_tg.wait_for(lambda: any(c.method == "getUpdates" for c in fake_tg.calls))
        hi = await fake_tg.send_text(ivan, ivan, "hi")
        updates = await poll
        assert loop.time() - started < 2
        assert [u.message.text for u in updates] == ["hi"]
        # allowed_updates=["message"] is remembered: a button press is dropped, as by Telegram.
        with pytest.raises(TimeoutError):
            await fake_tg.press(ivan, hi.message_id, ivan, "x", timeout=0.05)
        assert len(fake_tg.unanswered_queries) == 1
        assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == ()


async def test_group_upgrade_migrates_the_chat_id(fake_tg: FakeTelegram) -> None:
    owner = fake_tg.user("Olga")
    old = fake_tg.group("老群", owner=owner, supergroup=False)
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        await bot.send_message(old.id, "before")
        new = fake_tg.upgrade_to_supergroup(old)
        with pytest.raises(ChatMigrated) as migrated:
            await bot.send_message(old.id, "after")
        assert migrated.value.new_chat_id == new.id and new.type == "supergroup"
        await bot.send_message(new.id, "after")
        updates = await bot.get_updates(timeout=0)
    assert [u.message.migrate_to_chat_id for u in updates] == [new.id, None]
    assert updates[1].message.migrate_from_chat_id == old.id
    assert [m.text for m in fake_tg.messages(new)] == ["after"]
    assert new.members[owner.id] == "creator"


async def test_unknown_method_and_admins(fake_tg: FakeTelegram) -> None:
    gina, hank = fake_tg.user("Gina"), fake_tg.user("Hank")
    group = fake_tg.group("牌友群", members=(gina, hank), owner=gina)
    fake_tg.set_admin(group, hank)
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        admins = await bot.get_chat_administrators(group.id)
        assert sorted(a.user.id for a in admins) == sorted([gina.id, hank.id])
        assert (await bot.get_chat_member(group.id, hank.id)).status == "administrator"
        assert (await bot.get_chat_member(group.id, fake_tg.user("Ivy").id)).status == "left"
        with pytest.raises(EndPointNotFound):
            await bot.do_api_request("sendSomethingNew", {"chat_id": group.id})
    assert fake_tg.unknown_methods == ["sendSomethingNew"]


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_group_flood_limit_with_fake_clock() -> None:
    now = [1000.0]
    async with FakeTelegram(rate_limits=RateLimits(), clock=lambda: now[0]) as tg:
        group = tg.group("牌友群")
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            for i in range(20):
                await bot.send_message(group.id, f"m{i}")
                now[0] += 0.5
            with pytest.raises(RetryAfter):
                await bot.send_message(group.id, "one too many")
            assert tg.rejections[-1].retry_after == 50  # first send + 60 s - now
            now[0] += 50
            await bot.send_message(group.id, "allowed again")
    assert tg.max_per_minute(group) == 20
    assert len(tg.messages(group)) == 21 and len(tg.rejections) == 1


def test_max_in_window_counts_sliding_windows() -> None:
    assert max_in_window([], 60) == 0
    assert max_in_window([0, 10, 59.9, 60, 61, 200], 60) == 4  # 10..61 lie within [10, 70)
    assert max_in_window([0, 60, 120], 60) == 1


@pytest.mark.parametrize(
    ("mode", "source", "text", "types"),
    [
        ("HTML", "<b>胡</b> &lt;3 &amp; <i>x</i>", "胡 <3 & x", ["bold", "italic"]),
        ("HTML", '<a href="https://t.me/x">链接</a>', "链接", ["text_link"]),
        ("MarkdownV2", r"*粗* 1\.5 \- _斜_", "粗 1.5 - 斜", ["bold", "italic"]),
        ("Markdown", "*粗* _斜_ 1.5", "粗 斜 1.5", ["bold", "italic"]),
        (None, "<b>plain</b>", "<b>plain</b>", []),
    ],
)
def test_parse_modes(mode: str | None, source: str, text: str, types: list[str]) -> None:
    parsed, entities = parse(source, mode, None)
    assert parsed == text and [e["type"] for e in entities] == types


def test_entity_offsets_count_utf16_units() -> None:
    text, entities = parse('<b>🀄</b>胡 <pre><code class="language-py">x</code></pre>', "HTML", None)
    assert text == "🀄胡 x"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 2},
        {"type": "pre", "offset": 4, "length": 1, "language": "py"},
    ]


@pytest.mark.parametrize(
    ("mode", "source"),
    [("HTML", "a < b"), ("HTML", "<b>open"), ("HTML", "<foo>x</foo>"),
     ("MarkdownV2", "1.5"), ("MarkdownV2", "*open"), ("Markdown", "*open")],
)
def test_bad_markup_is_refused(mode: str, source: str) -> None:
    with pytest.raises(Exception, match="can't parse entities"):
        parse(source, mode, None)


def test_private_bucket_and_global_limit() -> None:
    now = [0.0]
    flood = FloodControl(lambda: now[0], RateLimits(private_burst=3, global_per_second=5))
    for _ in range(3):
        flood.admit(1, private=True)  # the burst allowance
    with pytest.raises(ApiError) as refused:
        flood.admit(1, private=True)
    assert (refused.value.code, refused.value.parameters) == (429, {"retry_after": 1})
    now[0] = 1.0
    flood.admit(1, private=True)  # one token refilled after a second
    flood.admit(2, private=True)
    flood.admit(3, private=True)
    flood.admit(4, private=True)
    flood.admit(5, private=True)  # the sends at 0.0 are a full second old: not counted
    with pytest.raises(ApiError, match="retry after 1"):
        flood.admit(6, private=True)  # 5 sends in the last second: the global limit
    assert [r.chat_id for r in flood.rejections] == [1, 6]
    assert flood.max_in_window(1, 60) == 4


@given(st.lists(st.floats(0, 500, allow_nan=False), max_size=40),
       st.floats(0.5, 100, allow_nan=False))
def test_max_in_window_matches_brute_force(times: list[float], window: float) -> None:
    times.sort()
    brute = max((sum(t <= u < t + window for u in times) for t in times), default=0)
    assert max_in_window(times, window) == brute


async def test_stop_releases_a_parked_long_poll_and_leaves_no_tasks() -> None:
    tg = FakeTelegram()
    await tg.start()
    async with Bot(tg.token, base_url=tg.base_url) as bot:
        loop = asyncio.get_running_loop()
        poll = asyncio.create_task(bot.get_updates(timeout=30, read_timeout=40))
        await tg.wait_for(lambda: any(c.method == "getUpdates" for c in tg.calls))
        started = loop.time()
        await tg.stop()
        assert await poll == ()
        assert loop.time() - started < 1.5
    await asyncio.sleep(0)
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
