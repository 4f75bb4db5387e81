"""Share cards through inline mode and the fake Bot API: ``@bot`` offers the user's /me
card, his last 总结算, a replay of his last hand and his group's open challenge, each with a
deep link that opens it in the bot (the /me card's opens the sharer's card, whoever presses
it); an unknown, forged or expired link gets a short reason."""

from __future__ import annotations

import random

from support.challenge import current_buttons
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.play import press_result
from support.robots import alice_plays

from bot import links as deep
from bot.i18n import t

BOT = "PaohuziTestBot"
LINK = f"https://t.me/{BOT}?start="


def links(answer) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each result's id and its button's deep-link payload."""
    out = {}
    for r in answer.results:
        [[button]] = r["reply_markup"]["inline_keyboard"]
        assert button["url"].startswith(LINK), button
        out[r["id"]] = button["url"].removeprefix(LINK)
    return out


def card(user_id: int, token: str) -> str:
    """The payload of a player's sealed card link."""
    return deep.card(BOT, user_id, token).removeprefix(LINK)


async def test_inline_query_offers_the_users_cards(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config, seed=3) as app:
        svc = services(app)
        alice, bob = tg.user("Alice", language_code="zh-hans"), tg.user("Bob")
        group = tg.group("分享群", members=(alice, bob))
        tg.start_private(alice)
        tg.start_private(bob)
        # a newcomer: only his /me card
        answer = await tg.inline_query(bob)
        assert links(answer) == {"me": card(bob.id, config.token)} and answer.is_personal

        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new 4局"))
        for _ in range(2):
            await tg.send_text(group, alice, "/addbot")
        table = await tg.wait_for(lambda: (tb := svc.service.in_chat(group.id))
                                  and len(tb.players) == 3 and tb)
        await tg.press_button(lobby, alice, "开局")
        await tg.wait_for(lambda: table.status == "playing")
        record, match_id = table.current, table.match.id
        await alice_plays(tg, app, alice, table, random.Random(6))
        await press_result(tg, alice, "q")  # the match ends early
        await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                        if (m.caption or "").startswith("🏁")), None))
        await svc.presenter.idle()
        await tg.send_text(group, bob, "/challenge")
        challenge = await tg.wait_for(lambda: next(
            (m for m in tg.messages(group) if (m.text or "").startswith("⚔️")), None))
        row = await svc.store.open_challenge(group.id)

        answer = await tg.inline_query(alice, "")
        got = links(answer)
        assert got == {"me": card(alice.id, config.token), f"match{match_id}": f"r{record.id}",
                       f"hand{record.id}": f"r{record.id}", f"challenge{row.id}": f"x{row.id}"}
        texts = {r["id"]: r["input_message_content"]["message_text"] for r in answer.results}
        assert texts[f"challenge{row.id}"] == challenge.text
        assert texts[f"match{match_id}"].startswith("🏁 总结算")
        assert texts[f"hand{record.id}"].startswith(f"第 {table.id} 桌第 {record.table_no} 局")

        # the links, opened in the private chat: the /me card's is Alice's, whoever opens it
        alices = t("zh", "me_total", points=record.hand.outcome.points[0], hands=1,
                   wins=int(record.hand.outcome.winner == 0),
                   rate=f"{int(record.hand.outcome.winner == 0):.0%}")
        for viewer in (alice, bob):
            reply = await tg.wait_reply(await tg.send_text(viewer, viewer,
                                                           f"/start {got['me']}"))
            assert reply.photo_bytes and reply.caption.splitlines()[0] == "📇 Alice", viewer
            assert alices in reply.caption
        reply = await tg.wait_reply(await tg.send_text(bob, bob, "/start me"))  # his own
        assert reply.photo_bytes and reply.caption.splitlines()[0] == "📇 Bob"
        for forged in (f"p{bob.id}_{got['me'].rpartition('_')[2]}",  # Alice's seal, Bob's id
                       f"p{alice.id}_000000000000", f"p{alice.id}", f"p{alice.id}_",
                       got["me"] + "0", f"p{alice.id}_{'é' * 12}",
                       card(987654321, config.token)):  # sealed, but nobody the bot knows
            reply = await tg.wait_reply(await tg.send_text(bob, bob, f"/start {forged}"))
            assert reply.text == t("zh", "link_unknown"), forged
        reply = await tg.wait_reply(await tg.send_text(alice, alice, f"/start r{record.id}"))
        assert reply.photo_bytes and reply.keyboard
        await tg.send_text(alice, alice, f"/start x{row.id}")
        await tg.wait_for(lambda: current_buttons(tg, alice, row.id, 0))
        answer = await tg.inline_query(alice)
        assert f"challenge{row.id}" not in links(answer)  # played: not offered again
        reply = await tg.wait_reply(await tg.send_text(alice, alice, "/start x999"))
        assert reply.text == t("zh", "challenge_closed")
        reply = await tg.wait_reply(await tg.send_text(alice, alice, "/start zz9"))
        assert reply.text == t("zh", "link_unknown")
