"""Latency: with a network round trip on every Bot API call, presses at two
tables are handled at the same time, not one after the other."""

from __future__ import annotations

import asyncio
import time

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeMessage, FakeTelegram, FakeUser

DELAY = 0.4  # seconds of network round trip on every call, as far from Telegram as it gets


async def open_lobby(tg: FakeTelegram, n: int) -> tuple[FakeMessage, FakeUser]:
    """A table's lobby in its own group, and a second member who has not joined yet."""
    opener, joiner = tg.user(f"Opener{n}"), tg.user(f"Joiner{n}")
    for user in (opener, joiner):
        tg.start_private(user)
    group = tg.group(f"Group{n}", members=(opener, joiner))
    return await tg.wait_reply(await tg.send_text(group, opener, "/new")), joiner


async def answered_at(tg: FakeTelegram, lobby: FakeMessage, user: FakeUser) -> float:
    await tg.press_button(lobby, user, "加入", timeout=30)
    return time.monotonic()


async def test_presses_at_two_tables_are_answered_concurrently(tg: FakeTelegram,
                                                                tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        lobbies = [await open_lobby(tg, n) for n in range(2)]
        tg.delay = DELAY
        # both presses reach the bot in one getUpdates; handled one after the other, the
        # second would wait at least for the first one's answer to make its round trip
        first, second = await asyncio.gather(
            *(answered_at(tg, lobby, user) for lobby, user in lobbies))
        assert abs(first - second) < DELAY / 2


async def test_two_new_at_once_in_one_group_open_one_table(tg: FakeTelegram, tmp_path) -> None:
    """What one chat (or one user) sends is still handled in order: a second /new arriving
    while the first is being written finds the table."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice, bob = tg.user("Alice"), tg.user("Bob")
        for user in (alice, bob):
            tg.start_private(user)
        group = tg.group("牌友群", members=(alice, bob))
        tg.delay = DELAY
        await asyncio.gather(tg.send_text(group, alice, "/new"), tg.send_text(group, bob, "/new"))
        await tg.wait_for(lambda: len(tg.messages(group)) >= 2, timeout=30)  # lobby, refusal
        tables = services(app).service.tables()
        assert len(tables) == 1 and len(tables[0].players) == 1


async def test_presses_of_two_players_in_one_group_are_answered_concurrently(
        tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        alice, bob, carol = tg.user("Alice"), tg.user("Bob"), tg.user("Carol")
        for user in (alice, bob, carol):
            tg.start_private(user)
        group = tg.group("牌友群", members=(alice, bob, carol))
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        tg.delay = DELAY
        first, second = await asyncio.gather(answered_at(tg, lobby, bob),
                                             answered_at(tg, lobby, carol))
        assert abs(first - second) < DELAY / 2
