"""The lobby through the real bot and a fake Telegram: who opens it, its
own 「开局」 button apart from Telegram's Start, a closed table says so, a full table starts
on its own."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.play import seat_three
from support.robots import one_human_two_computers
from support.service import PEOPLE, Clock, Observer

from bot.config import ConfigError, load_config
from bot.i18n import t
from bot.store import Store
from bot.table import TableService


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


async def test_a_full_table_says_so_and_deals_on_its_own(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       full_start_delay=1.0)) as app:
        users, group, lobby = await seat_three(tg)
        table = services(app).service.in_chat(group.id)
        full = t("zh", "lobby_full", seconds="1")
        assert full == "人齐了,1 秒后开始(按「开局」立即开始)。"
        shown = await tg.wait_for(lambda: (m := tg.message(group, lobby.message_id))
                                  and full in m.text and m)
        assert "加入" not in buttons(shown) and "开局" in buttons(shown)  # no 加入 while full
        assert table.status == "lobby"
        mark = len(tg.calls)
        await tg.wait_for(lambda: table.status == "playing", timeout=10)  # nobody pressed
        # no ticking countdown: the lobby's last edit only takes its buttons away
        await services(app).presenter.idle()
        lobby_edits = [c for c in tg.calls[mark:]
                       if c.method == "editMessageText" and c.chat_id == group.id]
        assert len(lobby_edits) <= 1


async def test_someone_leaving_cancels_the_countdown(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       full_start_delay=1.0)) as app:
        users, group, lobby = await seat_three(tg)
        table = services(app).service.in_chat(group.id)
        await tg.press_button(lobby, users[1], "离开")
        await asyncio.sleep(1.5)
        assert table.status == "lobby" and table.full_since is None
        await services(app).presenter.idle()
        text = tg.message(group, lobby.message_id).text
        assert "人齐了" not in text and "加入" in buttons(tg.message(group, lobby.message_id))
        await tg.press_button(lobby, users[1], "加入")  # full again: a new countdown
        await tg.wait_for(lambda: table.status == "playing", timeout=10)


async def test_a_full_lobby_counts_down_again_after_a_restart(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        for p in PEOPLE:
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        clock = Clock()
        observer = Observer(tmp_path / "db.sqlite3")

        def service() -> TableService:
            return TableService(store, observer, action_timeout=60, autoplay_delay=1.5,
                                full_start_delay=10, clock=clock, rng=random.Random(1))
        first = service()
        table = await first.open(-100, PEOPLE[0])
        for p in PEOPLE[1:]:
            await first.join(table.id, p)
        assert first.due_at(table) == clock.now + 10
        clock.now += 5  # the bot stops before the hand is dealt, and comes back later
        second = service()
        [again] = await second.load()
        assert again.status == "lobby" and second.due_at(again) == clock.now + 10
        clock.now += 9
        await second.play_due(again.id)
        assert again.status == "lobby"  # not yet
        clock.now += 1
        await second.play_due(again.id)
        assert again.status == "playing" and again.current.no == 1
    finally:
        await store.close()


def test_the_full_start_delay_is_a_setting() -> None:
    token = "123456:" + "A" * 35
    assert load_config({"BOT_TOKEN": token}, None).full_start_delay == 10.0
    assert load_config({"BOT_TOKEN": token, "FULL_START_DELAY": "3"}, None).full_start_delay == 3
    with pytest.raises(ConfigError, match="FULL_START_DELAY"):
        load_config({"BOT_TOKEN": token, "FULL_START_DELAY": "-1"}, None)
    example = (Path(__file__).resolve().parents[3] / ".env.example").read_text("utf-8")
    assert "\nFULL_START_DELAY=10\n" in example


async def test_a_lone_human_with_computer_players_is_dealt_at_once(tg: FakeTelegram,
                                                                   tmp_path) -> None:
    """Nobody else could still leave: the table does not wait its full-table delay."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       full_start_delay=60.0)) as app:
        alice, group, lobby, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing", timeout=5)
        await services(app).presenter.idle()
        assert all("人齐了" not in (m.text or "") for m in tg.messages(group))


async def test_two_humans_and_a_computer_player_still_wait(tg: FakeTelegram,
                                                           tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       full_start_delay=60.0)) as app:
        alice, bob = tg.user("Alice"), tg.user("Bob")
        group = tg.group("牌友群", members=(alice, bob))
        tg.start_private(alice)
        tg.start_private(bob)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        await tg.press_button(lobby, bob, "加入")
        await tg.press_button(lobby, alice, "加电脑")
        full = t("zh", "lobby_full", seconds="60")
        await tg.wait_for(lambda: full in (tg.message(group, lobby.message_id).text or ""))
        assert services(app).service.in_chat(group.id).status == "lobby"
