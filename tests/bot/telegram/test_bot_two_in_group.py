"""Two bots of one store (PostgreSQL) in one group: both read the same /new, one table opens,
and the bot that has no table there stays quiet for its table commands, while the one whose
table it is answers them; a forum topic without a table is free for either."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

from bot.i18n import t

TOKEN_B = "7000000002:AAFakeTokenForTestsOnly_zyxwvutsrqp"


@pytest.fixture
async def two(fake_tg: FakeTelegram, fresh_postgres_url: str,
              tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, FakeTelegram]]:
    tg_b = fake_tg.another_bot(TOKEN_B, "PaohuziSecondBot")
    config_a = make_config(fake_tg, tmp_path / "a.sqlite3", database_url=fresh_postgres_url)
    config_b = make_config(tg_b, tmp_path / "b.sqlite3", database_url=fresh_postgres_url)
    async with running_bot(config_a), running_bot(config_b):
        yield fake_tg, tg_b


def said(tg: FakeTelegram, group: FakeChat, after: FakeMessage) -> list[str]:
    return [m.text or m.caption or "" for m in tg.messages(group) if m.message_id > after.message_id]


async def test_one_table_and_only_its_bot_answers(
        two: tuple[FakeTelegram, FakeTelegram]) -> None:
    tg_a, tg_b = two
    alice, bob = tg_a.user("Alice"), tg_a.user("Bob")
    seen_by_b = {u.id: tg_b.same_user(u) for u in (alice, bob)}
    for tg, user in ((tg_a, alice), (tg_a, bob), *((tg_b, u) for u in seen_by_b.values())):
        tg.start_private(user)
    group_a = tg_a.forum("牌友群", members=(alice, bob))
    group_b = tg_b.same_group(group_a)
    topic = tg_a.create_topic(group_a, "第二桌")
    group_b.topics = dict(group_a.topics)

    def b(user: FakeUser) -> FakeUser:
        return seen_by_b[user.id]

    # Alice's /new reaches both bots at once: one table opens, the other bot says nothing
    new_a = await tg_a.send_text(group_a, alice, "/new")
    new_b = await tg_b.send_text(group_b, b(alice), "/new")
    await tg_a.settle()
    await tg_b.settle()
    lobbies = said(tg_a, group_a, new_a) + said(tg_b, group_b, new_b)
    assert len(lobbies) == 1, lobbies
    serving, quiet = (tg_a, tg_b) if said(tg_a, group_a, new_a) else (tg_b, tg_a)
    s_group, q_group = (group_a, group_b) if serving is tg_a else (group_b, group_a)

    def at(tg: FakeTelegram, user: FakeUser) -> FakeUser:
        return user if tg is tg_a else b(user)

    # table commands at that table: the serving bot answers, the other stays quiet
    for command in ("/join", "/new", "/leave", "/dissolve"):
        sent = await quiet.send_text(q_group, at(quiet, bob), command)
        await quiet.settle()
        assert said(quiet, q_group, sent) == [], command
    [lobby] = [m for m in serving.messages(s_group) if m.message_id > 1 and m.keyboard]
    await serving.send_text(s_group, at(serving, bob), "/join")
    await serving.wait_for(lambda: "Bob" in (lobby.text or lobby.caption or ""), timeout=10,
                           what="Bob seated in the lobby")

    # another topic has no table, so the other bot answers there: Bob's /new is refused in
    # words, since he sits at the first bot's table
    elsewhere = await quiet.send_text(q_group, at(quiet, bob), "/new", topic=topic)
    reply = await quiet.wait_reply(elsewhere, timeout=10)
    assert reply.text == t("zh", "seated_elsewhere")
