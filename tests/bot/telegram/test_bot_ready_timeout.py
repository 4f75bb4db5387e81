"""Between hands the table waits READY_TIMEOUT seconds for 再来一局: then whoever has not
pressed it is unseated (no penalty) and the table goes back to the lobby, or closes when no
human is left. Through the real bot and a fake Telegram; the bot's clock is real time."""

from __future__ import annotations

import asyncio
import random
import time

from support.e2e import make_config, running_bot, services, settlement_closed
from support.fakebot import FakeMessage, FakeTelegram, FakeUser
from support.play import live_result, seat_three
from support.posted import settlement_id

from bot.i18n import t
from bot.table import Table

READY = 2.0  # the tests' READY_TIMEOUT, in real seconds
OK_REFUSALS = (t("zh", "stale"), t("zh", "not_your_turn"))  # a computer got there first
# a claim waiting for higher ones, or the answer that someone else took the card
OK_ANSWERS = ("✓ ", "已选 ", *(t("zh", k, name="") for k in
                              ("taken_hu", "taken_pao", "taken_peng", "taken_chi")))


async def finish_hand(tg: FakeTelegram, table: Table, users: dict[int, FakeUser],
                      carrier: FakeMessage, seed: int) -> None:
    """The humans press random offered buttons (sent from ``carrier``: the bot reads only the
    callback data) until the hand ends; computer players play on their own."""
    rng = random.Random(seed)
    while table.status == "playing":
        humans = [s for s, d in table.decisions.items() if d.legal and s in users]
        if not humans:
            await asyncio.sleep(0.01)
            continue
        seat = rng.choice(humans)
        d = table.decisions[seat]
        data = f"a:{table.id}:{d.version}:{rng.randrange(len(d.legal))}"
        answer = await tg.press(carrier.chat, carrier.message_id, users[seat], data)
        text = answer.text or ""
        assert text.startswith(OK_ANSWERS[:2]) or text.endswith(OK_ANSWERS[2:]) \
            or text in OK_REFUSALS, answer
    assert table.status == "between", table.status


async def press_again(tg: FakeTelegram, carrier: FakeMessage, user: FakeUser,
                      table: Table) -> str:
    """A press of 再来一局 (sent from ``carrier``, buttons shown or not: the bot reads only the
    callback data, so no need to wait for the settlement); returns the bot's toast."""
    answer = await tg.press(carrier.chat, carrier.message_id, user, f"g:{table.id}:{table.current.id}")
    return answer.text or ""


def notes(tg: FakeTelegram, group) -> list[str]:  # type: ignore[no-untyped-def]
    return [m.text for m in tg.messages(group) if m.text]


async def test_who_did_not_press_again_is_unseated(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", ready_timeout=READY)) as app:
        users, group, lobby = await seat_three(tg)
        alice, bob, carol = users
        svc = services(app)
        assert (await tg.press_button(lobby, alice, "开局")).text is None
        table = svc.service.in_chat(group.id)
        await finish_hand(tg, table, dict(enumerate(users)), lobby, seed=4)
        since = table.between_since
        assert svc.service.due_at(table) == since + READY
        for user in (alice, bob):
            assert await press_again(tg, lobby, user, table) == t("zh", "ready")
        assert table.status == "between" and len(table.players) == 3
        record = table.current
        settle = await tg.wait_for(lambda: tg.message(group, settlement_id(app, table, record) or 0))
        # the wait is over: Carol is unseated, Alice and Bob wait in the lobby
        await tg.wait_for(lambda: table.status == "lobby", timeout=READY + 5)
        assert svc.service.clock() - since >= READY - 1e-3
        assert [table.players[s].user_id for s in sorted(table.players)] == [alice.id, bob.id]
        assert [r.user_id for r in await svc.store.seats(table.id)] == [alice.id, bob.id]
        assert svc.service.table_of_user(carol.id) is None  # free to sit at another table
        assert svc.service.due_at(table) is None
        await svc.presenter.idle()
        assert settlement_closed(tg.message(group, settle.message_id))
        assert t("zh", "ready_timeout", names="Carol") in notes(tg, group)
        new_lobby = tg.last_message(group)
        assert new_lobby.message_id > settle.message_id
        assert "Alice" in new_lobby.text and "Bob" in new_lobby.text and "(空)" in new_lobby.text
        assert "Carol" not in new_lobby.text
        assert "加入" in str(new_lobby.keyboard)
        # late presses of 再来一局 are refused and change nothing
        before = (table.status, table.version, dict(table.players), len(tg.messages(group)))
        assert await press_again(tg, settle, alice, table) == t("zh", "stale")
        # whoever presses: the settlement's button is outdated once the table is back in the lobby
        assert await press_again(tg, settle, carol, table) == t("zh", "stale")
        await svc.presenter.idle()
        assert (table.status, table.version, dict(table.players),
                len(tg.messages(group))) == before
        # Dave takes the free seat and a new hand can begin
        dave = tg.user("Dave")
        tg.start_private(dave)
        assert (await tg.press_button(new_lobby, dave, "加入")).text == t("zh", "ok")
        assert (await tg.press_button(new_lobby, alice, "开局")).text is None
        assert table.status == "playing" and table.current.no == 2
        assert table.current.users == (alice.id, bob.id, dave.id)
        assert not [e for e in tg.errors if e.code != 403], tg.errors


async def test_nobody_presses_again_and_the_table_closes(tg: FakeTelegram, tmp_path) -> None:
    """A computer player alone does not keep the table open."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", ready_timeout=READY)) as app:
        svc = services(app)
        alice, bob = tg.user("Alice", language_code="zh-hans"), tg.user("Bob")
        group = tg.group("牌友群", members=(alice, bob))
        tg.start_private(alice)
        tg.start_private(bob)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        await tg.press_button(lobby, bob, "加入")
        await tg.send_text(group, alice, "/addbot")
        table = svc.service.in_chat(group.id)
        await tg.wait_for(lambda: len(table.players) == 3)
        assert table.players[2].robot
        assert (await tg.press_button(lobby, alice, "开局")).text is None
        await finish_hand(tg, table, {0: alice, 1: bob}, lobby, seed=5)
        record = table.current
        settle = await tg.wait_for(lambda: tg.message(group, settlement_id(app, table, record) or 0))
        await tg.wait_for(lambda: live_result(tg, alice))  # 再来一局 is in private
        await tg.wait_for(lambda: svc.service.in_chat(group.id) is None, timeout=READY + 5)
        assert table.status == "closed"
        assert table.id not in [r.id for r in await svc.store.open_tables()]
        assert svc.service.table_of_user(alice.id) is None
        assert svc.service.table_of_user(bob.id) is None
        await svc.presenter.idle()
        said = notes(tg, group)
        assert t("zh", "ready_timeout", names="Alice、Bob") in said
        assert said[-1] == t("zh", "stopped")
        assert settlement_closed(tg.message(group, settle.message_id))
        assert await press_again(tg, settle, alice, table) == t("zh", "unknown_table")
        # Alice may open a new table at once
        reply = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert "Alice" in reply.text and svc.service.in_chat(group.id) is not table
        assert not [e for e in tg.errors if e.code != 403], tg.errors


async def test_all_press_again_in_time_and_nobody_is_unseated(tg: FakeTelegram,
                                                              tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", ready_timeout=READY)) as app:
        users, group, lobby = await seat_three(tg)
        svc = services(app)
        await tg.press_button(lobby, users[0], "开局")
        table = svc.service.in_chat(group.id)
        await finish_hand(tg, table, dict(enumerate(users)), lobby, seed=6)
        for user in users:
            await press_again(tg, lobby, user, table)
        assert table.status == "playing" and table.current.no == 2
        assert table.between_since is None
        assert svc.service.due_at(table) == min(d.since for d in table.decisions.values()
                                                if d.legal) + 30.0  # the turn timer again
        await asyncio.sleep(READY + 0.5)  # well past the wait for 再来一局
        await svc.presenter.idle()
        assert table.status == "playing" and len(table.players) == 3
        assert svc.service.in_chat(group.id) is table
        assert not [n for n in notes(tg, group) if n.startswith("⌛")]  # no one was unseated


async def test_after_a_restart_the_wait_keeps_its_grace(tg: FakeTelegram, tmp_path) -> None:
    """A restarted bot counts the wait from the hand's end, but gives those who have not
    pressed 再来一局 RESTART_GRACE at least (here all of READY_TIMEOUT, so from its start),
    and a 再来一局 pressed before the restart still counts."""
    config = make_config(tg, tmp_path / "db.sqlite3", ready_timeout=READY)
    async with running_bot(config) as app:
        users, group, lobby = await seat_three(tg)
        svc = services(app)
        await tg.press_button(lobby, users[0], "开局")
        table = svc.service.in_chat(group.id)
        await finish_hand(tg, table, dict(enumerate(users)), lobby, seed=7)
        assert await press_again(tg, lobby, users[1], table) == t("zh", "ready")
    restarted = time.monotonic()
    async with running_bot(config) as app:
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table.status == "between" and table.players[1].ready
        since = table.between_since
        assert since is not None and since >= restarted  # the grace: counted from the load
        await tg.wait_for(lambda: table.status == "lobby", timeout=READY + 5)
        assert svc.service.clock() - since >= READY - 1e-3
        assert [table.players[s].user_id for s in sorted(table.players)] == [users[1].id]


async def test_stop_between_hands_takes_the_settlement_buttons(tg: FakeTelegram,
                                                               tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", ready_timeout=60)) as app:
        users, group, lobby = await seat_three(tg)
        svc = services(app)
        assert (await tg.press_button(lobby, users[0], "开局")).text is None
        table = svc.service.in_chat(group.id)
        await finish_hand(tg, table, dict(enumerate(users)), lobby, seed=6)
        record = table.current
        settle = await tg.wait_for(lambda: tg.message(group, settlement_id(app, table, record) or 0))
        await tg.wait_for(lambda: all(live_result(tg, u) for u in users))
        await tg.send_text(group, users[0], "/stop")  # the opener closes the table
        await tg.wait_for(lambda: svc.service.in_chat(group.id) is None)
        await svc.presenter.idle()
        assert settlement_closed(tg.message(group, settle.message_id))
        assert not any(live_result(tg, u) for u in users)  # their 再来一局 / 离开 went
        assert t("zh", "stopped") in notes(tg, group)
