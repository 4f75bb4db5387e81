"""One human and two computers (电脑) at a table through the real bot: how they are seated and
how Alice plays against them (the policy's button mostly, 提示 once when asked).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from telegram.ext import Application

from bot.i18n import t
from bot.table import Table
from engine import actions as A
from engine import player
from support.e2e import action_buttons, hand_message, services
from support.fakebot import FakeTelegram, FakeUser


def public(table: Table) -> list:
    assert table.current is not None
    return [e for e in table.current.hand.history if e.visible_to is None]


async def one_human_two_computers(tg: FakeTelegram, app: Application,  # type: ignore[type-arg]
                                  name: str = "Alice", title: str = "人机群"):
    """Alice (or ``name``) opens a table in a group (``title``) and seats two computers: one
    by /addbot, one by the lobby button."""
    alice = tg.user(name, language_code="zh-hans")
    group = tg.group(title, members=(alice,))
    tg.start_private(alice)
    lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
    await tg.send_text(group, alice, "/addbot")
    await tg.wait_for(lambda: "电脑·小明" in (tg.message(group, lobby.message_id).text or ""))
    assert (await tg.press_button(lobby, alice, "加电脑")).text == t("zh", "ok")
    await tg.wait_for(lambda: "电脑·小红" in (tg.message(group, lobby.message_id).text or ""))
    table = services(app).service.in_chat(group.id)
    assert table is not None
    assert [table.players[s].name for s in range(3)] == [name, "电脑·小明", "电脑·小红"]
    assert [table.players[s].robot for s in range(3)] == [False, True, True]
    return alice, group, lobby, table


async def alice_plays(tg: FakeTelegram, app, alice: FakeUser, table: Table,  # type: ignore[no-untyped-def]
                      rng: random.Random, hint: bool = False,
                      until: Callable[[], bool] = lambda: False,
                      lang: str = "zh", sensible: float = 0.8) -> tuple[int, bool]:
    """Alice presses offered buttons (the policy's with probability ``sensible``, else any)
    until the hand ends (or ``until()``); the computers play in between; her buttons speak
    ``lang``. With ``hint`` she first asks for 提示 once, when
    nobody else has a decision pending. Returns how many buttons she pressed and whether she
    asked for the hint."""
    svc = services(app)
    pressed, hinted = 0, False
    while True:
        def her_turn() -> object:
            if table.status != "playing" or until():
                return "over"
            decision = table.decisions[0]
            msg = hand_message(tg, alice)
            buttons = action_buttons(msg)
            current = f"a:{table.id}:{decision.version}:"
            if decision.legal and buttons and all(d.startswith(current) for _, d in buttons):
                return msg, buttons
            return None
        found = await tg.wait_for(her_turn, timeout=20)
        if found == "over":
            return pressed, hinted
        msg, buttons = found
        if hint and not hinted and table.current.hand.to_act() == (0,):
            await check_hint(tg, alice, msg, table)
            hinted = True
        view = table.current.hand.private_view(0)
        # the hand may have moved past her since the buttons were read: press one anyway
        if rng.random() < sensible and view.legal:
            wanted = A.label(player.choose(view, public(table)), lang)
            data = next(d for text, d in buttons if text == wanted)
        else:
            data = rng.choice(buttons)[1]
        answer = await tg.press(alice, msg.message_id, alice, data)
        pressed_label = next(text for text, d in buttons if d == data)
        taken = tuple(t(lang, f"taken_{k}", name="") for k in ("hu", "pao", "peng", "chi"))
        assert answer.text in (f"✓ {pressed_label}", t(lang, "claim_pending", move=pressed_label),
                               t(lang, "stale"), t(lang, "not_your_turn")) \
            or answer.text.endswith(taken), answer
        pressed += 1
        await svc.presenter.idle()


async def check_hint(tg: FakeTelegram, alice: FakeUser, msg, table: Table) -> None:  # type: ignore[no-untyped-def]
    """提示 answers with an alert naming one of her legal actions and changes nothing."""
    before = (table.version, list(table.current.hand.log), table.decisions[0])
    legal = table.decisions[0].legal
    answer = await tg.press_button(msg, alice, t("zh", "btn_hint"))
    assert answer.show_alert and answer.text.startswith("💡 ")
    named = [a for a in legal if answer.text.startswith(f"💡 {A.label(a, 'zh')}：")]
    assert len(named) == 1, (answer.text, legal)
    assert named[0] == player.explain(table.current.hand.private_view(0), public(table))[0]
    assert (table.version, list(table.current.hand.log), table.decisions[0]) == before
