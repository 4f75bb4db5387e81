"""Users driving the real bot through the fake Telegram: three seated by the lobby, a hand
dealt, random or sensible presses to the end, the checks made at every step (each DM
shows only its own seat's actions and hand, the group's move log only public events), and
再来一局 / 离开 pressed where they live (each seat's private result).
"""

from __future__ import annotations

import random

import pytest
from telegram.ext import Application

from bot.i18n import lang_of, t
from bot.present.screens.words import event_line
from bot.table import HandRecord, Table
from bot.telegram.app import Services
from engine import actions as A
from engine import player
from engine.ting import ting as compute_ting
from render import render_hand
from support.e2e import action_buttons, hand_message, services
from support.fakebot import CallbackAnswer, FakeMessage, FakeTelegram, FakeUser
from support.posted import picture_id, settlement_id


def live_result(tg: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The user's private result that still offers 再来一局 (the last one), if any."""
    return next((m for m in reversed(tg.messages(user))
                 if any(data and data.startswith("g:") for _, data in m.buttons)), None)


async def press_result(tg: FakeTelegram, user: FakeUser, kind: str = "g",
                       timeout: float = 10.0) -> CallbackAnswer:
    """The user presses 再来一局 (``kind`` "g"; 离开: "q") under his private result, once it
    has come: where 再来一局 lives for every seat that has a private chat."""
    result = await tg.wait_for(lambda: live_result(tg, user), timeout=timeout)
    return await tg.press_button(result, user,
                                 lambda text, data: bool(data) and data.startswith(f"{kind}:"))


def check_private(tg: FakeTelegram, table: Table, users: list[FakeUser], render: bool) -> None:
    """Each DM offers exactly its own seat's legal actions and shows its own hand."""
    record = table.current
    assert record is not None
    for seat, user in enumerate(users):
        msg = hand_message(tg, user)
        assert msg is not None
        lang = lang_of(user.language_code, "zh")
        shown = sorted(text for text, _ in action_buttons(msg))
        assert shown == sorted(A.label(a, lang) for a in record.hand.legal_actions(seat))
        pings = [m for m in tg.messages(user) if (m.text or "").startswith("⏰")]
        assert len(pings) <= 1  # the previous ping is deleted
        if shown:
            assert len(pings) == 1  # whoever must decide was pinged
        own = set(record.hand.private_view(seat).hand)
        for text in shown:
            if text.startswith("出 "):
                assert any(text == A.label(A.discard(k), lang) for k in own)
        if render:
            view = record.hand.private_view(seat)
            ting = compute_ting(record.hand.rules, view)  # the picture shows the seat's 听
            assert msg.photo_bytes == render_hand(view, record.names, lang, ting=ting)


def check_group(tg: FakeTelegram, group, svc: Services, table: Table,
                record: HandRecord) -> None:
    """The table caption's move log holds only lines of public events."""
    public = {event_line(e, record.names, "zh") for e in record.hand.history
              if e.visible_to is None}
    private = {event_line(e, record.names, "zh") for e in record.hand.history
               if e.visible_to is not None and e.cards} - public
    posted = picture_id(svc, table, record)
    msg = tg.message(group, posted) if posted else None
    if msg is None:
        return
    lines = msg.caption.splitlines()[1:]
    for line in lines:
        assert line not in private
        assert line in public or line.startswith("等待")


async def press_current(tg: FakeTelegram, table: Table, users: list[FakeUser],
                        rng: random.Random, carrier: FakeMessage) -> None:
    """A random awaited seat presses a random button of its current keyboard (built from the
    bot's own decision record, so the DM need not have arrived yet; the query is sent from
    ``carrier``, since the bot reads only the callback data)."""
    seat = rng.choice([s for s, d in table.decisions.items() if d.legal])
    decision = table.decisions[seat]
    data = f"a:{table.id}:{decision.version}:{rng.randrange(len(decision.legal))}"
    answer = await tg.press(carrier.chat, carrier.message_id, users[seat], data)
    # the move, confirmed, or a claim waiting for higher ones
    assert (answer.text or "").startswith(("✓ ", "已选 ")), answer


def _pings_sent(tg: FakeTelegram, user: FakeUser) -> int:
    return sum(1 for c in tg.calls if c.method == "sendMessage" and c.chat_id == user.id)


async def seat_three(tg: FakeTelegram, langs=("zh-hans", "zh-hans", "zh-hans")):
    """Alice opens, Bob joins by button, Carol joins by the deep link after a 403."""
    users = [tg.user(n, language_code=lang)
             for n, lang in zip(("Alice", "Bob", "Carol"), langs, strict=True)]
    group = tg.group("牌友群", members=tuple(users))
    tg.start_private(users[0])
    tg.start_private(users[1])
    lobby = await tg.wait_reply(await tg.send_text(group, users[0], "/new"))
    assert (await tg.press_button(lobby, users[1], "加入")).text == \
        t(lang_of(langs[1], "zh"), "ok")
    answer = await tg.press_button(lobby, users[2], "加入")
    assert answer.url == "https://t.me/PaohuziTestBot?start=j1"  # 403: not seated
    assert "私聊入座" in str(lobby.keyboard)
    await tg.send_text(users[2], users[2], "/start j1")
    joined = t(lang_of(langs[2], "zh"), "joined_dm", chat="牌友群", table=1)
    reply = await tg.wait_for(lambda: next(
        (m for m in tg.messages(users[2]) if m.text == joined), None))
    assert "牌友群" in reply.text
    await tg.wait_for(lambda: "Carol" in (tg.message(group, lobby.message_id).text or ""))
    return users, group, lobby


async def start_hand(tg: FakeTelegram, app: Application):  # type: ignore[type-arg]
    """Three seated (see :func:`seat_three`) and the first hand dealt."""
    users, group, lobby = await seat_three(tg)
    svc = services(app)
    assert (await tg.press_button(lobby, users[0], "开局")).text is None
    table = svc.service.in_chat(group.id)
    assert table is not None and table.status == "playing"
    return users, group, lobby, svc, table


SENSIBLE = 0.75  # share of presses chosen by engine.player, the rest at random (all buttons)


async def play_hand(tg: FakeTelegram, app, users, group, rng: random.Random,
                    max_steps: int = 400) -> Table:
    """Press offered buttons until the hand ends, checking every DM and the group each step."""
    svc = services(app)
    table = svc.service.in_chat(group.id)
    assert table is not None and table.status == "playing"
    record = table.current
    pinged: dict[int, int] = {}
    for step in range(max_steps):
        await svc.presenter.idle()
        if table.status != "playing":
            break
        check_private(tg, table, users, render=step % 15 == 0)
        check_group(tg, group, svc, table, record)
        movers = [u for u in users if action_buttons(hand_message(tg, u))]
        for u in users:  # a ping only goes to a player whose decision it is
            if u not in movers and step > 0:
                assert pinged[u.id] == _pings_sent(tg, u)
            pinged[u.id] = _pings_sent(tg, u)
        user = rng.choice(movers)
        msg = hand_message(tg, user)
        buttons = action_buttons(msg)
        if rng.random() < SENSIBLE:  # the button a sensible player would press
            seat = users.index(user)
            public = [e for e in record.hand.history if e.visible_to is None]
            wanted = A.label(player.choose(record.hand.private_view(seat), public, rng),
                             lang_of(user.language_code, "zh"))
            data = next(d for text, d in buttons if text == wanted)
        else:
            _, data = rng.choice(buttons)
        answer = await tg.press(user, msg.message_id, user, data)
        move = next(text for text, d in buttons if d == data)
        lang = lang_of(user.language_code, "zh")
        assert answer.text in (t(lang, "played", move=move), t(lang, "claim_pending", move=move))
    else:
        pytest.fail("the hand did not end")
    await svc.presenter.idle()
    return table


async def play_match_hand(tg: FakeTelegram, app: Application, table: Table,  # type: ignore[type-arg]
                          alice: FakeUser, group: object, k: int, n: int = 8) -> None:
    """Hand k of the match runs to its end (Alice in 托管), its settlement says 第 k/n 局,
    and Alice's 再来一局 deals the next one unless it was the last."""
    svc = services(app)
    await tg.wait_for(lambda: table.status != "playing", timeout=60)
    await svc.presenter.idle()
    record = table.current
    assert record is not None and record.match_place == (k, n)
    settle = tg.message(group, settlement_id(app, table, record))  # type: ignore[arg-type]
    assert settle is not None and f"第 {k}/{n} 局" in (settle.caption or "")
    if k < n:
        assert table.match is not None and len(table.match.played) == k
        await press_result(tg, alice)
        await tg.wait_for(lambda: table.status == "playing" and table.current is not record)
