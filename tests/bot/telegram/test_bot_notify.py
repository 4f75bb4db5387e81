"""/notify, the 添加到群组 button and the command scopes, end to end through the
fake Bot API: a subscriber is written to when a table opens in the group and joins from the
note; at most one note a table; /notify off; who never started the bot is told how to."""

from __future__ import annotations

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeMessage, FakeTelegram, FakeUser

from bot.i18n import t
from bot.telegram.commands import ADMIN_COMMANDS, GROUP_COMMANDS, PRIVATE_COMMANDS


def urls(msg: FakeMessage) -> list[tuple[str, str]]:
    """(label, url) of the message's link buttons."""
    rows = (msg.reply_markup or {}).get("inline_keyboard") or []
    return [(b["text"], b["url"]) for row in rows for b in row if "url" in b]


def notes(tg: FakeTelegram, user: FakeUser) -> list[FakeMessage]:
    """The table notes in the user's private chat."""
    return [m for m in tg.messages(user) if (m.text or "").startswith("🀄 ")]


async def says(tg: FakeTelegram, chat, user: FakeUser, text: str) -> str:  # type: ignore[no-untyped-def]
    return (await tg.wait_reply(await tg.send_text(chat, user, text))).text or ""


async def test_a_subscriber_is_told_once_a_table_and_joins_from_the_note(tg: FakeTelegram,
                                                                          tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice, bob, dave, erin = (tg.user(n) for n in ("Alice", "Bob", "Dave", "Erin"))
        group = tg.group("牌友群", members=(alice, bob, dave, erin))
        # who never started the bot privately is told to, with the link
        assert await says(tg, group, dave, "/notify") == \
            t("zh", "notify_need_dm", link="https://t.me/PaohuziTestBot")
        for user in (alice, bob, dave, erin):
            tg.start_private(user)
            welcome = (await tg.wait_reply(await tg.send_text(user, user, "/start")))
            assert welcome.text == t("zh", "start_private", name=user.first_name)
            assert urls(welcome) == [(t("zh", "btn_add_to_group"),
                                      "https://t.me/PaohuziTestBot?startgroup=paohuzi")]
        assert await says(tg, group, dave, "/notify") == t("zh", "notify_on")
        assert await says(tg, group, erin, "/notify") == t("zh", "notify_on")
        await says(tg, group, alice, "/new")
        table = svc.service.in_chat(group.id)
        await svc.hub.notifier.idle()
        note = await tg.wait_for(lambda: next(iter(notes(tg, dave)), None))
        assert note.text == t("zh", "notify_opened", chat="牌友群", rules="QQ跑胡子", seated=1,
                              seats=3)
        [(label, link)] = urls(note)
        assert (label, link) == (t("zh", "btn_notify_join"),
                                 f"https://t.me/PaohuziTestBot?start=j{table.id}")
        # the deep link seats him (Telegram sends /start j<table> in his private chat)
        await tg.send_text(dave, dave, f"/start j{table.id}")
        await tg.wait_for(lambda: table.seat_of(dave.id) is not None)
        # the lobby lacks one now: Erin was told of this table already, and nobody twice
        await svc.hub.notifier.idle()
        await svc.presenter.idle()
        assert len(notes(tg, erin)) == 1 and len(notes(tg, dave)) == 1
        # /notify off; Bob, who asks now, hears of the table when it lacks one again
        assert await says(tg, group, erin, "/notify off") == t("zh", "notify_off")
        assert await says(tg, group, bob, "/notify") == t("zh", "notify_on")
        await tg.send_text(group, erin, "/join")
        await tg.wait_for(lambda: table.full)
        await tg.send_text(group, erin, "/leave")
        await tg.wait_for(lambda: not table.full)
        await svc.hub.notifier.idle()
        await svc.presenter.idle()
        assert len(notes(tg, erin)) == 1
        assert [m.text for m in notes(tg, bob)] == [
            t("zh", "notify_one_short", chat="牌友群", rules="QQ跑胡子", seated=2, seats=3)]


async def test_the_group_start_of_the_add_to_group_link_gets_the_help(tg: FakeTelegram,
                                                                      tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        alice = tg.user("Alice")
        group = tg.group("新群", members=(alice,))
        assert await says(tg, group, alice, "/start@PaohuziTestBot paohuzi") == t("zh", "help")


async def test_commands_are_set_per_scope_in_both_languages(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        for code, lang in (("", "zh"), ("en", "en")):
            for scope, names in (("all_group_chats", GROUP_COMMANDS),
                                 ("all_chat_administrators", ADMIN_COMMANDS),
                                 ("all_private_chats", PRIVATE_COMMANDS)):
                assert tg.commands(scope=scope, language_code=code) == \
                    [(n, t(lang, f"cmd_{n}")) for n in names]
        group = tg.commands(scope="all_group_chats")
        assert {"dissolve", "replace", "notify"} <= {c for c, _ in group}
        assert "lang" not in {c for c, _ in group}  # an administrator's
        assert "lang" in {c for c, _ in tg.commands(scope="all_chat_administrators")}
        assert "new" not in {c for c, _ in tg.commands(scope="all_private_chats")}
