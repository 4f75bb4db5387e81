"""/lang zh|en in the private chat sets the player's own language (his private chat, his
hand's pictures, his result, his 复盘), stored so that it outlives a restart; the group's
language stays the group's, set by its admins."""

from __future__ import annotations

import random

from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeTelegram, FakeUser
from support.posted import picture_id, settlement_id
from support.robots import alice_plays

from bot.i18n import t


async def dm_says(tg: FakeTelegram, user: FakeUser, text: str) -> str:
    return (await tg.wait_reply(await tg.send_text(user, user, text))).text


async def test_a_player_chooses_his_own_language_privately(tg: FakeTelegram, tmp_path) -> None:
    alice = tg.user("Alice", language_code="zh-hans")
    group = tg.group("人机群", members=(alice,))
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        svc = services(app)
        assert await dm_says(tg, alice, "/lang xx") == t("zh", "lang_usage_private")
        assert await dm_says(tg, alice, "/lang en") == t("en", "lang_set_private")
        assert await dm_says(tg, alice, "/help") == t("en", "help")
        # the group's language is not hers to set, and stays Chinese
        sent = await tg.send_text(group, alice, "/lang en")
        assert (await tg.wait_reply(sent)).text == t("zh", "only_admin")
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert lobby.text.startswith("🀄 跑胡子 · 第 1 桌")
        for _ in range(2):
            await tg.send_text(group, alice, "/addbot")
        table = svc.service.in_chat(group.id)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: at once
        await svc.presenter.idle()
        assert hand_message(tg, alice).caption.startswith("Table 1 · hand 1 · ")
        assert tg.message(group, picture_id(app, table)).caption.startswith("第 1 桌 · 第 1 局")
        await alice_plays(tg, app, alice, table, random.Random(5), lang="en")
        await svc.presenter.idle()
        head = t("en", "result_head", table=1, hand=1)
        await tg.wait_for(lambda: any(m.text and m.text.startswith(head)
                                      for m in tg.messages(alice)))
        result = next(m for m in tg.messages(alice) if m.text and m.text.startswith(head))
        assert [text for row in result.keyboard for text, _ in row][-1] == t("en", "btn_review")
        settlement = tg.message(group, settlement_id(app, table))
        assert t("zh", "settle_next") in settlement.caption  # the group's own language
    async with running_bot(config) as app:  # her choice is stored
        assert await dm_says(tg, alice, "/help") == t("en", "help")
        table = services(app).service.in_chat(group.id)
        assert table is not None and table.players[0].lang == "en"
        assert await dm_says(tg, alice, "/lang zh") == t("zh", "lang_set_private")
        assert table.players[0].lang == "zh"
        assert (await services(app).store.user(alice.id)).lang == "zh"
    async with running_bot(config) as app:
        assert await dm_says(tg, alice, "/help") == t("zh", "help")
