"""Forum topics through the real bot and a fake Telegram: a table belongs
to the topic it was opened in, every group message of it goes there, each topic holds a table
of its own, and commands, deep links and /join find the table of their topic. Also the store
and the service on their own: the migration, a group's move, concurrent deals."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from dataclasses import replace

import pytest
from support.e2e import FAST_PACING, make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from support.forum import command, open_table, people, play_out
from support.images import png as png_bytes
from support.play import press_current
from support.posted import picture_id, settlement_id
from support.service import PEOPLE, Clock, Observer
from telegram import Bot, Update
from telegram.error import BadRequest

from bot.i18n import t
from bot.store import MIGRATIONS, PlaceTaken, Store
from bot.table import Person, Table, TableService
from bot.telegram.app import Services

GROUP_SENDS = ("sendMessage", "sendPhoto", "sendDocument")


def topic_errors(tg: FakeTelegram) -> list[str]:
    """What Telegram refused because of a thread id (a wrong one, or a closed topic)."""
    return [e.description for e in tg.errors
            if "thread" in e.description or "TOPIC" in e.description]


async def some_moves(tg: FakeTelegram, table: Table, users: list[FakeUser], rng: random.Random,
                     n: int) -> None:
    for _ in range(n):
        await press_current(tg, table, users, rng, tg.messages(users[0])[0])


def check_in_topic(tg: FakeTelegram, svc: Services, forum: FakeChat, table: Table,
                   lobby: FakeMessage) -> None:
    """The table's lobby, its hand's photo and its settlement are in its topic, and every
    picture or settlement there is of its own hand."""
    record = table.current
    posted = picture_id(svc, table), settlement_id(svc, table)
    assert record is not None and all(posted)
    for msg_id in (lobby.message_id, *posted):
        shown = tg.message(forum, msg_id)
        assert shown is not None and shown.thread_id == table.thread_id
    photos = [m for m in tg.topic_messages(forum, table.thread_id) if m.photo_bytes]
    assert {m.message_id for m in photos} == set(posted)
    picture = tg.message(forum, posted[0])
    assert picture is not None and (picture.caption or "").startswith(
        f"第 {table.no} 桌 · 第 {record.table_no} 局")


async def test_two_topics_play_two_tables_at_once_each_in_its_topic(tg: FakeTelegram,
                                                                    tmp_path) -> None:
    """Two tables in two topics of one forum, dealt and played at the same time, with a
    restart in the middle of both hands: every group message of each lands in its own
    topic, none in General, none in the other's."""
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    east, west = people(tg, "Alice", "Bob", "Carol"), people(tg, "Dave", "Erin", "Frank")
    config = make_config(tg, tmp_path / "db.sqlite3")
    rng = random.Random(11)
    async with running_bot(config) as app:
        (a, lobby_a), (b, lobby_b) = await asyncio.gather(
            open_table(tg, app, forum, topic_a, east), open_table(tg, app, forum, topic_b, west))
        await asyncio.gather(tg.press_button(lobby_a, east[0], "开局"),
                             tg.press_button(lobby_b, west[0], "开局"))
        await tg.wait_for(lambda: a.status == b.status == "playing")
        assert {a.current.no, b.current.no} == {1, 2}  # the group's hands, one number each
        await asyncio.gather(some_moves(tg, a, east, rng, 6), some_moves(tg, b, west, rng, 6))
        await services(app).presenter.idle()
        logs = (list(a.current.hand.log), list(b.current.hand.log))
    async with running_bot(config) as app:  # restart with both hands running
        svc = services(app)
        a, b = svc.service.in_chat(forum.id, topic_a), svc.service.in_chat(forum.id, topic_b)
        assert a is not None and b is not None and svc.service.in_chat(forum.id) is None
        assert (a.thread_id, b.thread_id) == (topic_a, topic_b)
        assert (a.current.hand.log, b.current.hand.log) == logs
        await asyncio.gather(play_out(tg, a, east, rng), play_out(tg, b, west, rng))
        await svc.presenter.idle()
        assert a.status == b.status == "between"
        # /history numbers each hand as its table's first, and by the group's id to replay
        history = await tg.wait_reply(await tg.send_text(forum, east[0], "/history",
                                                         topic=topic_a))
        heads = sorted(line.split(" 🏆")[0].split(" 荒庄")[0]
                       for line in history.text.splitlines()[1:])
        assert heads == sorted(f"#{t.current.no} 第 {t.no} 桌第 1 局" for t in (a, b))
    assert tg.topic_messages(forum, None) == []  # nothing in General
    check_in_topic(tg, svc, forum, a, lobby_a)
    check_in_topic(tg, svc, forum, b, lobby_b)
    assert {m.thread_id for m in tg.messages(forum)} == {topic_a, topic_b}
    assert topic_errors(tg) == []
    # Telegram's limit (about 20 posts a minute) is the group's: its topics share it
    assert tg.max_per_minute(forum) <= 20


async def test_commands_act_on_their_own_topics_table(tg: FakeTelegram, tmp_path) -> None:
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    alice, bob, dave = people(tg, "Alice", "Bob", "Dave")
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        service = services(app).service
        lobby_a = await command(tg, forum, alice, "/new", topic_a)
        lobby_b = await command(tg, forum, dave, "/new", topic_b)  # a second table of the group
        a, b = service.in_chat(forum.id, topic_a), service.in_chat(forum.id, topic_b)
        assert a is not None and b is not None and a is not b
        assert (lobby_a.thread_id, lobby_b.thread_id) == (topic_a, topic_b)

        answers = {
            (bob, "/new", topic_a): "table_exists",
            (alice, "/join", topic_b): "seated_elsewhere",  # one table at a time
            (alice, "/addbot", topic_b): "not_seated",
            (dave, "/leave", topic_a): "not_seated",
            (dave, "/stop", topic_a): "only_opener",
            (bob, "/join", None): "no_table",  # General holds no table
        }
        for (user, text, topic), key in answers.items():
            reply = await command(tg, forum, user, text, topic)
            assert reply.text == t("zh", key), (text, topic, reply.text)
        await tg.send_text(forum, alice, "/addbot", topic=topic_a)
        await tg.wait_for(lambda: len(a.players) == 2)
        assert len(b.players) == 1 and b.seat_of(dave.id) == 0

        await tg.send_text(forum, alice, "/stop", topic=topic_a)
        await tg.wait_for(lambda: service.in_chat(forum.id, topic_a) is None)
        assert service.in_chat(forum.id, topic_b) is b and b.status == "lobby"
        lobby_a2 = await command(tg, forum, bob, "/new", topic_a)  # the topic is free again
        assert service.in_chat(forum.id, topic_a).seat_of(bob.id) == 0
        await services(app).presenter.idle()
    assert tg.topic_messages(forum, None) == [
        m for m in tg.messages(forum) if m.text == t("zh", "no_table")]
    assert "已结束" in (tg.message(forum, lobby_a.message_id).text or "")
    assert tg.message(forum, lobby_a2.message_id).thread_id == topic_a
    assert "已结束" not in (tg.message(forum, lobby_b.message_id).text or "")
    assert topic_errors(tg) == []


async def test_deep_link_and_join_from_a_topic_seat_at_its_table(tg: FakeTelegram,
                                                                 tmp_path) -> None:
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    alice, dave = people(tg, "Alice", "Dave")
    carol = tg.user("Carol")  # has not opened the bot
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        service = services(app).service
        await command(tg, forum, alice, "/new", topic_a)
        lobby_b = await command(tg, forum, dave, "/new", topic_b)
        b = service.in_chat(forum.id, topic_b)
        link = f"https://t.me/{tg.bot.username}?start=j{b.id}"
        asked = await command(tg, forum, carol, "/join", topic_b)
        assert link in asked.text  # asked in topic B, for table B
        answer = await tg.press_button(lobby_b, carol, "加入")
        assert answer.url == link
        await tg.send_text(carol, carol, f"/start j{b.id}")
        await tg.wait_for(lambda: b.seat_of(carol.id) is not None)
        assert service.in_chat(forum.id, topic_a).seat_of(carol.id) is None
        await tg.wait_for(lambda: "Carol" in (tg.message(forum, lobby_b.message_id).text or ""))
    assert topic_errors(tg) == []


async def test_general_holds_its_own_table_and_a_reply_there_names_no_topic(
        tg: FakeTelegram, tmp_path) -> None:
    """In General a message has no thread id, but a reply there carries its reply thread's
    id (not a topic: sending there fails). A /join replying to General's lobby seats at
    General's table, and the bot answers in General."""
    forum = tg.forum("跑胡子论坛")
    topic = tg.create_topic(forum, "一桌")
    alice, bob, carol = people(tg, "Alice", "Bob", "Carol")
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        service = services(app).service
        await command(tg, forum, alice, "/new", topic)
        lobby = await command(tg, forum, bob, "/new", None)
        general = service.in_chat(forum.id)
        assert lobby.thread_id is None and general is not None and general.thread_id is None
        await tg.send_text(forum, carol, "/join", reply_to=lobby)
        await tg.wait_for(lambda: general.seat_of(carol.id) is not None)
        again = await command(tg, forum, carol, "/join", None, reply_to=lobby)
        assert again.text == t("zh", "already_seated") and again.thread_id is None
        await tg.wait_for(lambda: "Carol" in (tg.message(forum, lobby.message_id).text or ""))
    assert topic_errors(tg) == []


async def test_replies_questions_and_notes_go_to_the_topic(tg: FakeTelegram, tmp_path) -> None:
    """Replies to commands, the question before /stop voids a hand, and the 托管 note are
    posted in the topic they concern."""
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    [alice] = people(tg, "Alice")
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.3)) as app:
        await command(tg, forum, alice, "/new", topic_a)
        table = services(app).service.in_chat(forum.id, topic_a)
        for _ in range(2):
            await tg.send_text(forum, alice, "/addbot", topic=topic_a)
        await tg.wait_for(lambda: len(table.players) == 3)
        helped = await command(tg, forum, alice, "/help", topic_b)
        assert helped.text == t("zh", "help")
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: at once
        sent = await tg.send_text(forum, alice, "/stop", topic=topic_a)  # the hand just began
        question = await tg.wait_reply(
            sent, match=lambda m: m.text == t("zh", "stop_confirm", hand=1))
        assert question.thread_id == topic_a
        note = await tg.wait_for(lambda: next(
            (m for m in tg.messages(forum) if "托管" in (m.text or "")), None))
        assert note.thread_id == topic_a  # Alice did not act: played for, and told there
        await tg.wait_for(lambda: table.status == "between", timeout=30)
        await services(app).presenter.idle()
    assert tg.topic_messages(forum, None) == []
    assert {m.thread_id for m in tg.messages(forum)} == {topic_a, topic_b}


async def test_a_closed_topic_holds_the_tables_posts_until_it_reopens(
        tg: FakeTelegram, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A topic closed by an admin refuses the bot's posts (TOPIC_CLOSED): the hand goes on in
    private chats, nothing is posted elsewhere instead (not in General, not in the other
    topic), and once the topic is reopened the table's settlement comes there by itself."""
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    east, west = people(tg, "Alice", "Bob", "Carol"), people(tg, "Dave", "Erin", "Frank")
    rng = random.Random(4)
    # the other topic's full table stays in its lobby however long the hand takes to play
    config = make_config(tg, tmp_path / "db.sqlite3", full_start_delay=600.0,
                         pacing=replace(FAST_PACING, topic_retry=0.2))
    async with running_bot(config) as app:
        svc = services(app)
        (a, lobby_a), (b, _) = await asyncio.gather(
            open_table(tg, app, forum, topic_a, east), open_table(tg, app, forum, topic_b, west))
        tg.close_topic(forum, topic_a)
        await tg.press_button(lobby_a, east[0], "开局")  # a button still works there
        await play_out(tg, a, east, rng)
        await svc.presenter.idle()
        assert "Bad Request: TOPIC_CLOSED" in topic_errors(tg)
        assert a.status == "between" and picture_id(app, a) is settlement_id(app, a) is None
        lobbies = sorted(m.thread_id for m in tg.messages(forum))
        assert lobbies == sorted([topic_a, topic_b])  # nothing but the two lobbies
        assert b.status == "lobby" and len(b.players) == 3  # the other topic's table is fine

        tg.close_topic(forum, topic_a, closed=False)  # no move, no press: the bot looks again
        await tg.wait_for(lambda: settlement_id(app, a) is not None)
        settlement = tg.message(forum, settlement_id(app, a))
        assert settlement is not None and settlement.thread_id == topic_a
        assert "再来一局" in settlement.caption  # live: 再来一局 in private
    assert tg.topic_messages(forum, None) == []


async def test_a_deleted_topic_closes_its_table_once_the_hand_is_over(tg: FakeTelegram,
                                                                     tmp_path) -> None:
    """A topic deleted with its messages: the bot's posts and edits there fail. The hand is
    played out in private chats and recorded, nothing goes to General instead, and then the
    table closes (nobody could leave it there), freeing its players."""
    forum = tg.forum("跑胡子论坛")
    topic, other = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    users = people(tg, "Alice", "Bob", "Carol")
    rng = random.Random(5)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        table, lobby = await open_table(tg, app, forum, topic, users)
        await tg.press_button(lobby, users[0], "开局")
        await tg.wait_for(lambda: table.status == "playing")
        await svc.presenter.idle()
        tg.delete_topic(forum, topic)
        await play_out(tg, table, users, rng)
        # closed in memory at once, out of the lookups once the change is committed
        await tg.wait_for(lambda: svc.service.in_chat(forum.id, topic) is None)
        assert table.status == "closed"
        history = await svc.store.finished_hands(forum.id, 1)
        assert [h.id for h in history] == [table.current.id]
        assert tg.messages(forum) == []
        assert "Bad Request: message thread not found" in topic_errors(tg)
        lobby = await command(tg, forum, users[0], "/new", other)  # free to play elsewhere
        assert svc.service.in_chat(forum.id, other).seat_of(users[0].id) == 0


# --- the fake's forums, through PTB ---------------------------------------------------------


async def test_the_fake_forum_speaks_like_telegram(fake_tg: FakeTelegram) -> None:
    """Topic messages carry their topic, a reply in General carries its reply thread (no
    topic), and sending refuses thread ids of no open topic with Telegram's texts."""
    alice = fake_tg.user("Alice")
    forum, plain = fake_tg.forum("论坛"), fake_tg.group("群")
    topic = fake_tg.create_topic(forum, "一桌")
    root = await fake_tg.send_text(forum, alice, "hi @PaohuziTestBot")
    await fake_tg.send_text(forum, alice, "/join", topic=topic)
    await fake_tg.send_text(forum, alice, "/join", reply_to=root)
    in_topic, reply = (Update.de_json(u, None).effective_message
                       for u in fake_tg.world.updates[1:])
    assert Update.de_json(fake_tg.world.updates[0], None).effective_chat.is_forum
    assert (in_topic.message_thread_id, in_topic.is_topic_message) == (topic, True)
    assert (reply.message_thread_id, reply.is_topic_message) == (root.message_id, None)
    async with Bot(fake_tg.token, base_url=fake_tg.base_url) as bot:
        sent = await bot.send_message(forum.id, "桌", message_thread_id=topic)
        assert sent.message_thread_id == topic and sent.is_topic_message
        assert fake_tg.topic_messages(forum, topic)[0].text == "桌"
        for chat, thread in ((forum, root.message_id), (plain, topic)):
            with pytest.raises(BadRequest, match="thread not found"):
                await bot.send_message(chat.id, "x", message_thread_id=thread)
        fake_tg.close_topic(forum, topic)
        with pytest.raises(BadRequest, match="(?i)topic_closed"):  # PTB: "Topic_closed"
            await bot.send_photo(forum.id, png_bytes("red"), message_thread_id=topic)
        fake_tg.set_admin(forum, fake_tg.bot)  # an admin may post in a closed topic
        await bot.send_message(forum.id, "管理员", message_thread_id=topic)
        fake_tg.delete_topic(forum, topic)
        assert fake_tg.topic_messages(forum, topic) == []
        with pytest.raises(BadRequest, match="thread not found"):
            await bot.send_message(forum.id, "x", message_thread_id=topic)


# --- the store and the service on their own -----------------------------------------------


def _topic_migration() -> int:
    """The index of the migration that adds topics (found by what it does, not where)."""
    return next(i for i, sql in enumerate(MIGRATIONS) if "thread_id" in sql)


async def test_the_migration_keeps_open_tables_in_general_and_allows_one_per_topic(
        tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    before = _topic_migration()
    with sqlite3.connect(path) as db:
        for target in range(1, before + 1):
            db.executescript(f"BEGIN;\n{MIGRATIONS[target - 1]}\n"
                             f"PRAGMA user_version = {target};\nCOMMIT;")
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                   " VALUES (1, -100, 1, 'lobby', 3)")
    store = await Store.open(path)
    try:
        [row] = await store.open_tables()
        assert (row.id, row.chat_id, row.thread_id) == (1, -100, None)
        async with store.transaction() as tx:
            await tx.create_table(-100, 2, 3, thread_id=5)  # another topic: allowed
        for thread_id in (None, 5):  # a second open table of one topic is not
            with pytest.raises(PlaceTaken):
                async with store.transaction() as tx:
                    await tx.create_table(-100, 3, 3, thread_id=thread_id)
        assert [(r.chat_id, r.thread_id) for r in await store.open_tables()] == \
            [(-100, None), (-100, 5)]
    finally:
        await store.close()


def _service(store: Store, tmp_path) -> TableService:
    return TableService(store, Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                        autoplay_delay=1.5, clock=Clock(), rng=random.Random(3))


async def test_a_moved_group_keeps_its_tables_topics(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        for p in PEOPLE:
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        service = _service(store, tmp_path)
        general = await service.open(-1, PEOPLE[0])
        topic = await service.open(-1, PEOPLE[1], thread_id=9)
        await store.set_topic_name(-1, 9, "一桌")
        await store.set_topic_name(-1, 9, "老友桌")  # renamed
        assert sorted(t.id for t in await service.move_chat(-1, -2)) == [general.id, topic.id]
        assert await store.topic_names(-2) == {9: "老友桌"} and await store.topic_names(-1) == {}
        assert service.in_chat(-2) is general and service.in_chat(-2, 9) is topic
        assert service.in_chat(-1) is None and service.in_chat(-1, 9) is None
        assert await service.move_chat(-1, -2) == []  # told again: nothing more to move
        restarted = _service(store, tmp_path)
        await restarted.load()
        moved = restarted.in_chat(-2, 9)
        assert moved is not None and moved.id == topic.id and moved.thread_id == 9
    finally:
        await store.close()


async def test_two_topics_dealing_at_once_draw_two_hand_numbers(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        six = [*PEOPLE, *(Person(20 + i, n, "zh") for i, n in enumerate("DEF"))]
        for p in six:
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        service = _service(store, tmp_path)
        tables = []
        for thread_id, seated in ((5, six[:3]), (7, six[3:])):
            table = await service.open(-100, seated[0], thread_id=thread_id)
            for p in seated[1:]:
                await service.join(table.id, p)
            tables.append(table)
        await asyncio.gather(*(service.begin(t.id, t.opener_id) for t in tables))
        assert sorted(t.current.no for t in tables) == [1, 2]
    finally:
        await store.close()


async def test_each_topics_first_hand_reads_as_its_tables_first(tg: FakeTelegram,
                                                                 tmp_path) -> None:
    """Hands are numbered per group for /replay N and /export, but players read their
    table's own count: the second topic's first hand is 第 1 局 of its 第 2 桌."""
    forum = tg.forum("跑胡子论坛")
    topic_a, topic_b = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    east, west = people(tg, "Alice", "Bob", "Carol"), people(tg, "Dave", "Erin", "Frank")
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        a, lobby_a = await open_table(tg, app, forum, topic_a, east)
        await tg.press_button(lobby_a, east[0], "开局")
        await tg.wait_for(lambda: a.status == "playing")
        b, lobby_b = await open_table(tg, app, forum, topic_b, west)
        await tg.press_button(lobby_b, west[0], "开局")
        await tg.wait_for(lambda: b.status == "playing")
        await services(app).presenter.idle()
        assert (a.current.no, b.current.no) == (1, 2)  # the group's ids stay unique
        assert (a.current.table_no, b.current.table_no) == (1, 1)
        picture = tg.message(forum, picture_id(app, b))
        assert (picture.caption or "").startswith(f"第 {b.no} 桌 · 第 1 局 · 庄家")
        dealt = [m for m in tg.messages(west[0]) if m.photo_bytes]
        assert dealt and (dealt[-1].caption or "").startswith(f"第 {b.no} 桌 · 第 1 局 · ")
        assert not any("第 2 局" in (m.caption or "") for m in tg.messages(forum))
