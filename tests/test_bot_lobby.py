"""The lobby through the real bot and a fake Telegram (issue #10.7–#10.10): who opens it, its
own 「开局」 button apart from Telegram's Start, a closed table says so, a full table starts
on its own."""

from __future__ import annotations

from fakebot import FakeTelegram
from test_bot_e2e import make_config, running_bot, services
from test_bot_e2e import tg as tg  # noqa: F401  (the scaled-clock fixture)

from bot.i18n import t


def buttons(msg) -> list[str]:  # type: ignore[no-untyped-def]
    return [text for row in msg.keyboard for text, _ in row]


async def test_new_before_opening_the_bot_says_to_come_back_and_open(tg: FakeTelegram,
                                                                       tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        alice = tg.user("Alice")
        group = tg.group("牌友群", members=(alice,))
        reply = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert reply.text == t("zh", "need_dm_new", link="https://t.me/PaohuziTestBot")
        assert "开桌" in reply.text and "入座" not in reply.text


async def test_the_opener_is_shown_and_handed_on_and_a_closed_lobby_says_so(
        tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice, bob = tg.user("Alice"), tg.user("Bob")
        group = tg.group("牌友群", members=(alice, bob))
        tg.start_private(alice)
        tg.start_private(bob)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert "开桌人:Alice(可 /stop 结束本桌)" in lobby.text
        # the lobby's own button is 「开局」, told apart from Telegram's Start
        assert "开局" in buttons(lobby) and "开始" not in buttons(lobby)
        assert "「开局」" in lobby.text and "Telegram 的 Start" in lobby.text
        await tg.press_button(lobby, bob, "加入")
        await tg.send_text(group, alice, "/leave")  # the opener leaves: Bob opens now
        await tg.wait_for(lambda: "开桌人:Bob" in tg.message(group, lobby.message_id).text)
        await tg.send_text(group, bob, "/stop")
        await tg.wait_for(lambda: services(app).service.in_chat(group.id) is None)
        await services(app).presenter.idle()
        closed = tg.message(group, lobby.message_id)
        assert closed.text == t("zh", "lobby_closed", table=1) and closed.keyboard == []
        # the last player leaving closes the next table the same way
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        await tg.press_button(lobby, alice, "离开")
        await services(app).presenter.idle()
        closed = tg.message(group, lobby.message_id)
        assert closed.text == t("zh", "lobby_closed", table=2) and closed.keyboard == []
        assert t("zh", "stopped") not in [m.text for m in tg.messages(group)]
