"""A group numbers its own tables: 第 1 桌 is a group's first, whatever other groups opened
before (the table's id, which links and the store use, counts bot-wide). In a forum its
topics' tables count together; the numbers survive a restart and the migration numbers the
tables a store already has, in order, per group."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.forum import command, people
from support.store import old_database

from bot.store import Store, open_store
from engine.rules import QQ
from engine.simulate import play_random
from engine.state import Hand

FORUM, GROUP = -100, -200


def lobby_head(n: int) -> str:
    return f"🀄 跑胡子 · 第 {n} 桌\n"


async def test_each_group_and_forum_counts_its_own_tables(tg: FakeTelegram, tmp_path) -> None:
    group = tg.group("一群")
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    alice, bob, carol = people(tg, "Alice", "Bob", "Carol")
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        service = services(app).service
        first = await command(tg, group, alice, "/new", None)
        in_a = await command(tg, forum, bob, "/new", topic_a)
        in_b = await command(tg, forum, carol, "/new", topic_b)
        assert first.text.startswith(lobby_head(1))
        assert in_a.text.startswith(lobby_head(1))  # another group's was first
        assert in_b.text.startswith(lobby_head(2))
        table_b = service.in_chat(forum.id, topic_b)
        assert table_b is not None and (table_b.id, table_b.no) == (3, 2)
        # the join link still names the table by its id
        urls = [b.get("url", "") for row in in_b.reply_markup["inline_keyboard"] for b in row]
        assert any(url.endswith(f"start=j{table_b.id}") for url in urls), urls
        await tg.send_text(group, alice, "/stop")
        await tg.wait_for(lambda: service.in_chat(group.id) is None)
    async with running_bot(config) as app:  # after a restart: the same numbers, and the next
        service = services(app).service
        table_b = service.in_chat(forum.id, topic_b)
        assert table_b is not None and table_b.no == 2
        again = await command(tg, group, alice, "/new", None)
        assert again.text.startswith(lobby_head(2))
        table = service.in_chat(group.id)
        assert table is not None and (table.id, table.no) == (4, 2)


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    s = await open_store(store_url)
    yield s
    await s.close()


async def test_the_store_numbers_tables_per_group_on_every_backend(store: Store) -> None:
    """A table's number is its group's count (of every topic, open or closed); a hand read
    back names its table's number, for /history, /replay and the 复盘."""
    async with store.transaction() as tx:
        await tx.upsert_user(1, "u1", None, "zh")
        ids = [await tx.create_table(chat, 1, 3, thread_id=topic)
               for chat, topic in ((FORUM, 7), (GROUP, None), (FORUM, 8))]
        assert [await tx.table_number(i) for i in ids] == [1, 1, 2]
        await tx.update_table(ids[0], status="closed")
        fourth = await tx.create_table(FORUM, 1, 3, thread_id=7)
        assert await tx.table_number(fourth) == 3
        await tx.add_seat(fourth, 0, 1)
    assert [(r.id, r.no) for r in await store.open_tables()] == [(ids[1], 1), (ids[2], 2),
                                                                 (fourth, 3)]
    hand = play_random(Hand.new(QQ, seed=1, dealer=0), random.Random(1))
    assert hand.outcome is not None
    async with store.transaction() as tx:
        hand_id = await tx.create_hand(fourth, 1, 1, "qq", 5, 0)
        for seat, action in hand.log:
            await tx.append_action(hand_id, seat, action)
        await tx.finish_hand(hand_id, FORUM, (1, 1, 1), hand.outcome.points, hand.outcome.winner)
    [played] = await store.finished_hands(FORUM, 5)
    assert (played.table_id, played.table_number) == (fourth, 3)


async def test_the_migration_numbers_existing_tables_in_order_per_group(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    old_database(path, 15)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO users (user_id, name) VALUES (1, 'u1')")
        for table_id, chat_id in ((1, FORUM), (2, GROUP), (3, FORUM), (4, -300), (5, GROUP),
                                  (6, FORUM)):
            db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                       " VALUES (?, ?, 1, 'closed', 3)", (table_id, chat_id))
    store = await Store.open(path)
    try:
        rows = await store._all("SELECT id, no FROM tables ORDER BY id")
        assert [(r["id"], r["no"]) for r in rows] == [(1, 1), (2, 1), (3, 2), (4, 1), (5, 2),
                                                      (6, 3)]
        async with store.transaction() as tx:
            assert await tx.table_number(await tx.create_table(GROUP, 1, 3)) == 3
    finally:
        await store.close()
