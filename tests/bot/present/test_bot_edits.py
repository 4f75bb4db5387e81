"""An edited message is not a new one: a command typed into an edit is not acted on (the
bot's handlers take new messages only; an edit arrives as ``edited_message``)."""

from __future__ import annotations

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram

from bot.i18n import t


async def test_a_message_edited_into_new_opens_nothing_and_gets_no_reply(
        tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice = tg.user("Alice", language_code="zh-hans")
        tg.start_private(alice)
        group = tg.group("牌友群", members=(alice,), owner=alice)
        typed = await tg.send_text(group, alice, "/help")
        await tg.wait_reply(typed)
        tg.edit_text(typed, "/new")
        tg.edit_text(await tg.send_text(alice, alice, "/help"), "/start")
        # updates of one chat are handled in turn: once this is answered, the edits were seen
        await tg.wait_reply(await tg.send_text(group, alice, "/rules qq"))
        await svc.presenter.idle()
        assert svc.service.in_chat(group.id) is None
        assert [m.text or m.caption for m in tg.messages(group)][:1] == [t("zh", "help")]
        assert len(tg.messages(group)) == 2  # the help and /rules' page, nothing for the edit
        assert [m.text for m in tg.messages(alice)] == [t("zh", "help")]
