"""Channels and bots through the real bot and a fake Telegram: channel
posts and what bots send are ignored, and the bot added to a channel says nothing."""

from __future__ import annotations

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram

from bot.i18n import t


async def test_what_is_sent_on_behalf_of_a_chat_is_ignored(tg: FakeTelegram, tmp_path) -> None:
    """An anonymous admin and a user posting as a channel are shown as bots
    (GroupAnonymousBot, Channel_Bot): neither opens a table nor gets an answer."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice = tg.user("Alice", language_code="zh-hans")
        tg.start_private(alice)
        group = tg.group("牌友群", members=(alice,), owner=alice)
        channel = tg.channel("牌友频道", owner=alice)
        for text in ("/new", "/help", "/rank", "/calc 一二三"):
            await tg.send_on_behalf(group, group, text)
            await tg.send_on_behalf(group, channel, text)
        await tg.send_on_behalf(group, group, f"/rules@{tg.bot.username}")
        asked = await tg.send_text(group, alice, "/help")
        await tg.wait_reply(asked)
        await svc.presenter.idle()
        assert [m.text for m in tg.messages(group)] == [t("zh", "help")]
        assert svc.service.in_chat(group.id) is None
        for stand_in in (tg.anonymous_admin, tg.channel_bot):
            assert await svc.store.user(stand_in.id) is None
            assert not [c for c in tg.calls if c.chat_id == stand_in.id]
        # a person is answered as before: /new opens a table
        await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert svc.service.in_chat(group.id) is not None


async def test_added_to_a_channel_the_bot_says_nothing(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice = tg.user("Alice", language_code="zh-hans")
        channel = tg.channel("牌友频道", owner=alice)
        tg.add_bot_to_channel(channel, by=alice)
        for text in ("/start", "/new", "/help", f"/help@{tg.bot.username}",
                     f"@{tg.bot.username} 你好", "你好"):
            await tg.post_in_channel(channel, text)
        # updates are handled in order: once Alice's /start is answered, the posts were seen
        await tg.wait_reply(await tg.send_text(alice, alice, "/start"))
        await svc.presenter.idle()
        assert tg.messages(channel) == []
        assert not [c for c in tg.calls if c.chat_id == channel.id]
        assert svc.service.in_chat(channel.id) is None
        assert not tg.errors
