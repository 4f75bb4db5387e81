"""A basic group upgraded to a supergroup through the real bot and a fake
Telegram: told by the two service messages, or only by calls refused with ChatMigrated, the
table, its messages to come, its history and its leaderboard move to the new chat id and the
hand goes on. Also the store's move and the outbox's retry on their own."""

from __future__ import annotations

import asyncio

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.play import press_result
from support.posted import lobby_id, picture_id, settlement_id
from support.service import PEOPLE, Counting
from telegram.error import ChatMigrated
from telegram.ext import Application

from bot.present.outbox import Outbox
from bot.store import Store
from bot.table import Table, TableService

TIMEOUT = 0.3  # Alice never presses: 托管 plays her hands out quickly


async def table_in_basic_group(tg: FakeTelegram,
                               app: Application) -> tuple[FakeUser, FakeChat, Table]:  # type: ignore[type-arg]
    """Alice opens a table in a basic (not super) group, seats two computers and deals."""
    alice = tg.user("Alice", language_code="zh-hans")
    old = tg.group("老群", members=(alice,), owner=alice, supergroup=False)
    tg.start_private(alice)
    await tg.wait_reply(await tg.send_text(old, alice, "/new"))
    table = services(app).service.in_chat(old.id)
    assert table is not None
    for _ in range(2):
        await tg.send_text(old, alice, "/addbot")
    await tg.wait_for(lambda: len(table.players) == 3)
    await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
    return alice, old, table


async def play_out(tg: FakeTelegram, app: Application, table: Table) -> None:  # type: ignore[type-arg]
    await tg.wait_for(lambda: table.status == "between", timeout=30)
    await services(app).presenter.idle()


def photos(tg: FakeTelegram, chat: FakeChat, caption_part: str) -> list:  # type: ignore[type-arg]
    return [m for m in tg.messages(chat) if m.photo_bytes and caption_part in (m.caption or "")]


async def test_service_messages_move_table_history_and_leaderboard(tg: FakeTelegram,
                                                                   tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       action_timeout=TIMEOUT)) as app:
        svc = services(app)
        alice, old, table = await table_in_basic_group(tg, app)
        await play_out(tg, app, table)  # hand 1 in the basic group: history and scores there
        await press_result(tg, alice)
        await tg.wait_for(lambda: table.status == "playing" and len(table.current.hand.log) > 2)
        hand = table.current

        new = tg.upgrade_to_supergroup(old)
        await tg.wait_for(lambda: table.chat_id == new.id)
        assert svc.service.in_chat(new.id) is table and svc.service.in_chat(old.id) is None
        await play_out(tg, app, table)  # the hand went on, shown in the new chat

        assert table.current is hand and hand.no == 2
        table_photo = tg.message(new, picture_id(app, table, hand))
        assert table_photo is not None and table_photo.photo_bytes
        assert len(photos(tg, new, "第 2 局")) == 1  # told three ways, shown once
        settlement = tg.message(new, settlement_id(app, table, hand))
        assert settlement is not None and "再来一局" in settlement.caption  # live
        # the leaderboard and history of the basic group are the new chat's now
        rank = await tg.wait_reply(await tg.send_text(new, alice, "/rank"))
        assert "Alice" in rank.caption
        points, hands, _ = await svc.store.score(alice.id, new.id)
        assert hands == 2 and points == sum(
            p for played in await svc.store.finished_hands(new.id, 10)
            for u, p in zip(played.users, played.points, strict=True) if u == alice.id)
        history = await tg.wait_reply(await tg.send_text(new, alice, "/history"))
        assert "第 1 局" in history.text and "第 2 局" in history.text
        assert await svc.store.ranking(old.id) == []
        assert await svc.store.finished_hands(old.id, 10) == []
        # and play goes on there: 再来一局 deals hand 3 in the new chat
        await press_result(tg, alice)
        await tg.wait_for(lambda: table.current.no == 3 and table.status == "playing")
        await svc.presenter.idle()
        assert len(photos(tg, new, "第 3 局")) == 1
    # a restart finds the table in the new chat
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       action_timeout=TIMEOUT)) as app:
        again = services(app).service.in_chat(new.id)
        assert again is not None and again.id == table.id


async def test_refused_calls_alone_move_the_table(tg: FakeTelegram, tmp_path) -> None:
    """The service messages never came (e.g. lost while the bot was down): the first call
    refused with ChatMigrated moves the table, and what was queued for the old id arrives."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       action_timeout=TIMEOUT)) as app:
        svc = services(app)
        alice, old, table = await table_in_basic_group(tg, app)
        await tg.wait_for(lambda: picture_id(app, table) is not None)
        new = tg.upgrade_to_supergroup(old, tell=False)
        svc.presenter.note(old.id, lambda lang: "queued before the move")
        await play_out(tg, app, table)
        assert table.chat_id == new.id
        assert [m.text for m in tg.messages(new) if m.text == "queued before the move"]
        assert tg.message(new, picture_id(app, table)).photo_bytes
        settlement = tg.message(new, settlement_id(app, table))
        assert settlement is not None and "再来一局" in settlement.caption  # live
        # one refused call moved everything: the queued note went straight to the new id
        [refused] = [e for e in tg.errors if e.chat_id == old.id]
        assert "upgraded to a supergroup" in refused.description
        assert await svc.store.score(alice.id, new.id) != (0, 0, 0)


async def test_a_lobby_moves_and_is_posted_again(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice = tg.user("Alice", language_code="zh-hans")
        old = tg.group("老群", members=(alice,), owner=alice, supergroup=False)
        tg.start_private(alice)
        await tg.wait_reply(await tg.send_text(old, alice, "/new"))
        new = tg.upgrade_to_supergroup(old)
        lobby = await tg.wait_for(lambda: tg.last_message(new))
        await svc.presenter.idle()
        table = svc.service.in_chat(new.id)
        assert table is not None and lobby_id(app, table) == lobby.message_id
        assert "加入" in [text for text, _ in lobby.buttons]
        await tg.send_text(new, alice, "/addbot")
        await tg.wait_for(lambda: "电脑" in (tg.message(new, lobby.message_id).text or ""))


async def test_back_in_the_lobby_after_a_hand_the_lobby_is_posted_once(tg: FakeTelegram,
                                                                       tmp_path) -> None:
    """The table's last hand has messages in the old chat only: the new chat's lobby is not
    taken for one above them (and posted again at every change)."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       action_timeout=TIMEOUT)) as app:
        svc = services(app)
        alice, old, table = await table_in_basic_group(tg, app)
        await play_out(tg, app, table)
        await tg.send_text(old, alice, "/removebot")
        await tg.wait_for(lambda: table.status == "lobby")
        await svc.presenter.idle()
        new = tg.upgrade_to_supergroup(old)
        await tg.wait_for(lambda: table.chat_id == new.id)
        await svc.presenter.idle()
        # (never full: alone with computer players, a full table would deal at once)
        for command, seated in (("/removebot", 1), ("/addbot", 2), ("/removebot", 1),
                                ("/addbot", 2)):
            await tg.send_text(new, alice, command)
            await tg.wait_for(lambda seated=seated: len(table.players) == seated)
            await svc.presenter.idle()
        lobbies = [m for m in tg.messages(new) if "第 1 桌" in (m.text or "")]
        assert len(lobbies) == 1 and lobbies[0].message_id == lobby_id(app, table)
        assert "加入" in [text for text, _ in lobbies[0].buttons]  # a seat free again


async def test_the_move_is_told_as_any_change(tmp_path) -> None:
    """Moving a group's tables is a committed change of each: its observer (the timers, the
    live pages, other processes, the presenter) is told of every table moved, once."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        for p in PEOPLE:
            await store.upsert_user(p.user_id, p.name, None, p.lang)
        observer = Counting()
        service = TableService(store, observer, action_timeout=60, autoplay_delay=1.5)
        table = await service.open(-1, PEOPLE[0])
        await service.join(table.id, PEOPLE[1])
        before = observer.changes
        assert await service.move_chat(-1, -2) == [table]
        assert observer.changes == before + 1 and table.chat_id == -2
        assert await service.move_chat(-1, -2) == []  # told again: nothing moves, nobody told
        assert observer.changes == before + 1
    finally:
        await store.close()


async def test_store_move_adds_up_scores_and_keeps_the_language(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        await store.set_chat_lang(-1, "en", "old")
        async with store.transaction() as tx:
            for chat_id, points in ((-1, 5), (-2, 3)):
                await tx.exec("INSERT INTO scores (chat_id, rule_set, user_id, points, hands,"
                              " wins) VALUES (?, 'qq', 7, ?, 1, 1)", chat_id, points)
            await tx.exec("INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins)"
                          " VALUES (-1, 'qq', 8, -5, 1, 0)")
            await tx.move_chat(-1, -2)
        assert await store.score(7, -2) == (8, 2, 2)
        assert await store.score(8, -2) == (-5, 1, 0)
        assert await store.score(7, -1) == (0, 0, 0)
        assert await store.chat_lang(-2) == "en" and await store.chat_lang(-1) is None
    finally:
        await store.close()


async def test_outbox_retries_once_after_the_move() -> None:
    moved: list[int] = []
    sent: list[str] = []

    async def on_migrated(new: int) -> None:
        moved.append(new)

    async def refused_once() -> int:
        if not moved:
            raise ChatMigrated(-100)
        sent.append("first")
        return 1

    async def always_refused() -> int:
        raise ChatMigrated(-100)

    async def after() -> int:
        sent.append("after")
        return 1

    box = Outbox(0.0, on_migrated=on_migrated)
    box.put("a", refused_once)
    box.put("b", always_refused)
    box.put("c", after)
    await asyncio.wait_for(box.drain(), 5)
    assert sent == ["first", "after"]  # the one that never follows the move is dropped
    assert moved == [-100, -100]
