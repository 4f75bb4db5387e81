"""Users acting in a group or a forum topic: a command and its answer in that topic, a table
opened and filled there, a hand played out by random presses.
"""

from __future__ import annotations

import random

from telegram.ext import Application

from bot.table import Table
from engine import player
from support.e2e import services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from support.play import press_current


async def command(tg: FakeTelegram, forum: FakeChat, user: FakeUser, text: str,
                  topic: int | None, *, reply_to: FakeMessage | None = None) -> FakeMessage:
    """``user`` sends a command in a topic; returns the bot's first answer in that topic."""
    sent = await tg.send_text(forum, user, text, topic=topic, reply_to=reply_to)
    return await tg.wait_reply(sent, match=lambda m: m.thread_id == topic)


async def open_table(tg: FakeTelegram, app: Application, forum: FakeChat,  # type: ignore[type-arg]
                     topic: int | None, users: list[FakeUser]) -> tuple[Table, FakeMessage]:
    """users[0] opens a table in ``topic``, users[1] sits by /join there, users[2] by the
    lobby's 加入 button; returns the table and its lobby."""
    lobby = await command(tg, forum, users[0], "/new", topic)
    table = services(app).service.in_chat(forum.id, topic)
    assert table is not None and table.thread_id == topic and lobby.thread_id == topic
    await tg.send_text(forum, users[1], "/join", topic=topic)
    await tg.wait_for(lambda: table.seat_of(users[1].id) is not None)
    await tg.press_button(lobby, users[2], "加入")
    await tg.wait_for(lambda: len(table.players) == 3)
    return table, lobby


def people(tg: FakeTelegram, *names: str) -> list[FakeUser]:
    users = [tg.user(n) for n in names]
    for user in users:
        tg.start_private(user)
    return users


async def play_out(tg: FakeTelegram, table: Table, users: list[FakeUser],
                   rng: random.Random) -> None:
    """Random presses of the awaited seats until the hand ends."""
    while table.status == "playing":
        await press_current(tg, table, users, rng, tg.messages(users[0])[0])


async def play_sensibly(tg: FakeTelegram, table: Table, users: list[FakeUser],
                        rng: random.Random) -> None:
    """The awaited seats press what the computer player would until the hand ends (hands
    that end in a win far more often than random presses do)."""
    carrier = tg.messages(users[0])[0]
    while table.status == "playing":
        hand = table.hand
        assert hand is not None
        seat = next(s for s, d in table.decisions.items() if d.legal)
        decision = table.decisions[seat]
        public = [e for e in hand.history if e.visible_to is None]
        choice = decision.legal.index(player.choose(hand.private_view(seat), public, rng))
        await tg.press(carrier.chat, carrier.message_id, users[seat],
                       f"a:{table.id}:{decision.version}:{choice}")
