"""A 群杯 through the real bot and the fake Bot API: seven players sign up in a forum (报名,
the list edited in place, full at seven); in a bot process of its own, the opener's /cup
start draws three tables (the last filled by a computer player), each in a topic the bot
creates, and the process is killed (-9) in the middle of a hand of the first round;
restarted, that round is played out and the process is killed again as the second round
begins; restarted once more, the bot plays the cup to its final card: its podium, the first
round's points as played, and a draw anyone can check (the seed hashes to the SHA-256 shown
at sign-up, and shuffled by it the sign-up order is the first round's seating). Bad input on
the way gets a reason and changes nothing. In a group without topics the cup's tables play
in the players' private chats, the group seeing only the cup's cards.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import signal
import sqlite3
from pathlib import Path

import pytest
from support.botproc import fake_env, start_bot, stop_bot
from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from telegram.ext import Application

from bot.i18n import t
from bot.present import fairness
from bot.table import TableService, cup_service
from bot.table.cups import Cup, next_round
from engine.points import signed

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
PROCESS = dict(ACTION_TIMEOUT="1", AUTOPLAY_DELAY="0", FULL_START_DELAY="0")  # its shortest


def _card(tg: FakeTelegram, forum: FakeChat) -> FakeMessage | None:
    return next((m for m in tg.topic_messages(forum, None)
                 if (m.text or "").startswith("🏅")), None)


def _count(db: Path, sql: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(sql).fetchone()[0])


async def _start_three(tg: FakeTelegram, forum: FakeChat, users: list[FakeUser]) -> None:
    """users[0] opens a cup of one round of two hands, the other two sign up, it starts."""
    await tg.send_text(forum, users[0], "/cup 1轮 2局")
    card = await tg.wait_for(lambda: _card(tg, forum), timeout=30)
    for user in users[1:]:
        await tg.press_button(card, user, "报名")
    await tg.wait_for(lambda: "报名(3/" in (tg.message(forum, card.message_id).text or ""),
                      timeout=30)
    await tg.send_text(forum, users[0], "/cup start")


# a hand in play with moves made: a kill now comes mid-hand
IN_PLAY = ("SELECT COUNT(*) FROM hands h WHERE h.status = 'running'"
           " AND EXISTS (SELECT 1 FROM actions a WHERE a.hand_id = h.id)")


def _round_points(db: Path, k: int) -> dict[int, int]:
    """Each user's points over the finished hands of round ``k``'s tables (from 0), checked
    to be one hand a table (the cups here play one)."""
    with sqlite3.connect(db) as conn:
        state = json.loads(conn.execute("SELECT state FROM cups").fetchone()[0])
        ids = [t["table_id"] for t in state["tables"][k]]
        marks = ",".join("?" * len(ids))
        done = conn.execute(f"SELECT table_id, COUNT(*) FROM hands WHERE status = 'done'"
                            f" AND table_id IN ({marks}) GROUP BY table_id", ids).fetchall()
        assert sorted(done) == [(i, 1) for i in sorted(ids)]
        return dict(conn.execute(
            f"SELECT r.user_id, SUM(r.points) FROM results r JOIN hands h ON h.id = r.hand_id"
            f" WHERE h.status = 'done' AND h.table_id IN ({marks}) GROUP BY r.user_id", ids))


async def _sit_elsewhere(tg: FakeTelegram, app: Application, group: FakeChat,
                         user: FakeUser) -> None:
    await tg.send_text(group, user, "/new")
    await tg.wait_for(lambda: services(app).service.table_of_user(user.id), timeout=30)


async def _leave(tg: FakeTelegram, app: Application, group: FakeChat, user: FakeUser) -> None:
    await tg.send_text(group, user, "/leave")
    await tg.wait_for(lambda: services(app).service.table_of_user(user.id) is None, timeout=30)


def _final_in(tg: FakeTelegram, chat: FakeChat) -> FakeMessage | None:
    return next((m for m in tg.topic_messages(chat, None) if (m.text or "").startswith("🏆")),
                None)


async def _final(tg: FakeTelegram, forum: FakeChat, timeout: float) -> FakeMessage:
    return await tg.wait_for(lambda: _final_in(tg, forum), timeout=timeout)


async def _reason(tg: FakeTelegram, chat: FakeChat, user: FakeUser, text: str) -> str:
    sent = await tg.send_text(chat, user, text)
    return (await tg.wait_reply(sent, timeout=30, match=lambda m: bool(m.text)
                                and m.thread_id is None)).text or ""


async def test_a_seven_player_cup_plays_two_rounds_through_a_kill_9(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cup_service, "MAX_PLAYERS", 7)  # full with the seven
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db, action_timeout=0.3, autoplay_delay=0.0, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES]
    for user in users:
        tg.start_private(user)
    forum = tg.forum("杯群", members=tuple(users))
    forum.members[tg.bot.id] = "administrator"  # it may create topics
    ann = users[0]
    async with running_bot(config) as app:
        await tg.send_text(forum, ann, "/cup 2轮 1局")
        card = await tg.wait_for(lambda: _card(tg, forum), timeout=30)
        sha = re.search(r"SHA-256:([0-9a-f]{64})", card.text or "")
        assert sha is not None and "报名(1/" in (card.text or "")
        assert await _reason(tg, forum, users[1], "/cup") != ""  # the standings, again
        assert await _reason(tg, forum, ann, "/cup 3轮") == t("zh", "cup_exists")
        assert await _reason(tg, forum, ann, "/cup start") == t("zh", "cup_too_few", n="3")
        join = card.find_button("报名")[1]
        # Gus sits at a table of another group: no sign-up, then no start, until he leaves
        gus, side = users[6], tg.group("别桌群", members=(users[6],))
        await _sit_elsewhere(tg, app, side, gus)
        assert (await tg.press_button(card, gus, "报名")).text == t("zh", "cup_seated")
        await _leave(tg, app, side, gus)
        for user in users[1:]:
            assert (await tg.press_button(card, user, "报名")).text == t("zh", "cup_joined")
        assert (await tg.press_button(card, users[1], "报名")).text == \
            t("zh", "cup_joined_already")
        await tg.wait_for(lambda: "报名(7/" in (tg.message(forum, card.message_id).text or ""),
                          timeout=30)
        late = tg.user("Hal", language_code="zh-hans")
        assert (await tg.press_button(card, late, "报名")).text == t("zh", "cup_full", n="7")
        assert await _reason(tg, forum, users[2], "/cup start") == t("zh", "cup_only_opener")
        await _sit_elsewhere(tg, app, side, gus)
        assert await _reason(tg, forum, ann, "/cup start") == \
            t("zh", "cup_entrant_seated", name="Gus")
        await _leave(tg, app, side, gus)
        assert "报名(7/" in (tg.message(forum, card.message_id).text or "")
        # a forum where the bot is no admin: no topics, so no start, and nothing changed
        other = tg.forum("无权群", members=tuple(users))
        await tg.send_text(other, users[4], "/cup")
        other_card = await tg.wait_for(lambda: _card(tg, other), timeout=30)
        for user in users[5:]:
            await tg.press_button(other_card, user, "报名")
        await tg.wait_for(lambda: "报名(3/" in (tg.message(other, other_card.message_id).text
                                                or ""), timeout=30)
        assert await _reason(tg, other, users[4], "/cup start") == t("zh", "cup_no_topics")
        assert not other.topics and "报名(3/" in (tg.message(other, other_card.message_id).text
                                                  or "")
    # the first round in a real bot process, killed (-9) in the middle of a hand of it
    # (4 s a decision: the kill lands in the first round even on a loaded machine, where at
    # 1 s every seat went 托管 and the round ended before the test looked at the store)
    env = fake_env(tg, DB_PATH=str(db), **{**PROCESS, "ACTION_TIMEOUT": "4"})
    tables = f"SELECT COUNT(*) FROM tables WHERE chat_id = {forum.id}"  # the cup's
    proc = await start_bot(tg, tmp_path, env)
    try:
        await tg.send_text(forum, ann, "/cup start")
        await tg.wait_for(lambda: len(forum.topics) == 3, timeout=30)
        assert (await tg.press(forum, card.message_id, late, join)).text == \
            t("zh", "cup_started")
        await tg.wait_for(lambda: _count(db, IN_PLAY) > 0, timeout=60)
    finally:
        assert await stop_bot(proc, signal.SIGKILL) == -signal.SIGKILL
    assert _count(db, IN_PLAY) > 0 and _count(db, tables) == 3
    # restarted, that hand and the round go on; killed again as soon as the second round's
    # first table is in the store
    proc = await start_bot(tg, tmp_path, env)
    try:
        await tg.wait_for(lambda: _count(db, tables) > 3, timeout=60)
    finally:
        assert await stop_bot(proc, signal.SIGKILL) == -signal.SIGKILL
    assert _count(db, "SELECT COUNT(*) FROM cups WHERE status = 'playing'") == 1
    # the rest with Telegram's group limits paced fast, as the sign-up was: at its real pace
    # one forum's 20 messages a minute would hold the final card for a minute
    async with running_bot(config):
        final = await _final(tg, forum, timeout=90)
        lines = (final.text or "").splitlines()
        rows = re.findall(r"^(\d)\. ([A-Z][a-z]+) 节分", final.text or "", re.M)
        assert sorted(name for _, name in rows) == sorted(NAMES)
        assert rows[0][0] == "1" and [int(p) for p, _ in rows] == sorted(int(p) for p, _ in rows)
        found = re.search(r"抽签种子:(\d+)", final.text or "")
        assert found is not None
        seed = int(found.group(1))
        assert hashlib.sha256(str(seed).encode()).hexdigest() == sha.group(1)
        order = [u.id for u in users]  # the sign-up order, as the final card lists it
        assert f"[{','.join(map(str, order))}]" in (final.text or "")
        random.Random(seed).shuffle(order)
        by_id = {u.id: u.first_name for u in users}
        first = lines[lines.index("第 1 轮:") + 1:lines.index("第 2 轮:")]
        results = {}
        for k, line in enumerate(first):
            seated = re.findall(r"([A-Z][a-z]+) ([+-]?\d+)\((\d)\)", line)
            assert [name for name, _, _ in seated] == [by_id[u] for u in order[3 * k:3 * k + 3]]
            results.update({name: (int(jie), int(points)) for name, points, jie in seated})
        # the first round as played, the hand the kill cut included: one hand a table
        played = _round_points(db, 0)
        assert {by_id[u]: p for u, p in played.items() if u in by_id} == \
            {name: points for name, (_, points) in results.items()}
        # the podium: a medal for each of the first three places (shared places share it)
        assert lines[1] == "  ".join(f"{'🥇🥈🥉'[int(p) - 1]} {n}" for p, n in rows
                                     if int(p) <= 3)
        # Swiss: the second round follows from the first's results (bot.table.cups)
        with sqlite3.connect(db) as conn:
            cup = Cup.loads(conn.execute("SELECT state FROM cups").fetchone()[0])
        second_round = cup.tables[1]
        cup.tables = cup.tables[:1]
        assert [t.seats for t in next_round(cup)[0]] == [t.seats for t in second_round]
        second = lines[lines.index("第 2 轮:") + 1:lines.index("第 2 轮:") + 4]
        for k, line in enumerate(second):
            assert re.findall(r"([A-Z][a-z]+) [+-]?\d+", line) == \
                [by_id[u] for u in second_round[k].seats if u is not None]
        # the topics' tables closed with their rounds; the cup holds nobody any more
        assert await _reason(tg, forum, users[4], "/cup start") == t("zh", "cup_none")


async def test_a_round_of_two_hands_deals_the_second_without_waiting(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """Each table of a round plays all its hands: the second is dealt without anyone pressing
    再来一局, and the round's points are the sum of both."""
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db, action_timeout=0.3, autoplay_delay=0.0, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES[:3]]
    for user in users:
        tg.start_private(user)
    forum = tg.forum("两局群", members=tuple(users))
    forum.members[tg.bot.id] = "administrator"
    async with running_bot(config):
        await _start_three(tg, forum, users)
        final = await _final(tg, forum, timeout=60)
    assert _count(db, "SELECT COUNT(*) FROM hands WHERE status = 'done'") == 2
    with sqlite3.connect(db) as conn:
        sums = dict(conn.execute("SELECT r.user_id, SUM(r.points) FROM results r"
                                 " GROUP BY r.user_id").fetchall())
    line = next(x for x in (final.text or "").splitlines() if x.startswith("  第 1 桌"))
    for user in users:
        assert f"{user.first_name} {signed(sums[user.id])}(" in line


async def test_a_player_who_leaves_is_replaced_and_keeps_what_he_scored(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """逃跑 in the first of a round's two hands: a computer player plays the second in his
    seat, and the final card counts his first hand for him, marked as left."""
    db = tmp_path / "db.sqlite3"
    users = [tg.user(n, language_code="zh-hans") for n in NAMES[:3]]
    for user in users:
        tg.start_private(user)
    forum = tg.forum("逃跑群", members=tuple(users))
    forum.members[tg.bot.id] = "administrator"
    rng = random.Random(3)
    async with running_bot(make_config(tg, db, autoplay_delay=0.0,
                                       full_start_delay=0.0)) as app:
        service = services(app).service
        await _start_three(tg, forum, users)
        table = await tg.wait_for(lambda: service.table_of_user(users[2].id), timeout=30)
        await tg.wait_for(lambda: table.status == "playing", timeout=30)
        await tg.send_text(forum, users[2], "/leave", topic=table.thread_id)
        question = await tg.wait_for(lambda: next(
            (m for m in tg.messages(users[2]) if "确认逃跑" in str(m.keyboard)), None),
            timeout=30)
        assert (await tg.press_button(question, users[2], "确认逃跑")).text == \
            t("zh", "escaped")
        await tg.wait_for(lambda: table.status == "playing" and table.players[
            next(s for s, p in table.players.items() if p.robot)].robot and table.seat_of(
            users[2].id) is None, timeout=30)
        by_id = {u.id: u for u in users}
        while table.status == "playing":  # Ann and Bob press at random, the computers play
            awaited = [(s, d) for s, d in table.decisions.items()
                       if d.legal and not table.players[s].robot]
            if not awaited:
                await tg.settle()
                continue
            seat, decision = rng.choice(awaited)
            user = by_id[table.players[seat].user_id]
            await tg.press(user, tg.messages(user)[0].message_id, user,
                           f"a:{table.id}:{decision.version}:"
                           f"{rng.randrange(len(decision.legal))}")
        final = await _final(tg, forum, timeout=60)
    with sqlite3.connect(db) as conn:
        hands = conn.execute("SELECT COUNT(*) FROM hands WHERE status = 'done'").fetchone()[0]
        first = conn.execute("SELECT r.points FROM results r JOIN hands h ON h.id = r.hand_id"
                             " WHERE r.user_id = ? ORDER BY h.id", (users[2].id,)).fetchall()
    assert hands == 2 and len(first) == 1  # he sat at the first hand only
    row = next(x for x in (final.text or "").splitlines() if " Cat 节分" in x)
    assert row.endswith(t("zh", "cup_left")) and f"· {signed(first[0][0])}" in row


async def _play_privately(tg: FakeTelegram, service: TableService, users: list[FakeUser],
                          rng: random.Random, until: object) -> None:
    """Each awaited player presses a random move under his own private hand picture (the
    computers play by themselves) until ``until()``."""
    by_id = {u.id: u for u in users}
    while not until():  # type: ignore[operator]
        awaited = [(table, d, by_id[table.players[s].user_id])
                   for table in service.registry.tables() if table.status == "playing"
                   for s, d in table.decisions.items()
                   if d.legal and table.players[s].user_id in by_id]
        carriers = [(table, d, user, hand_message(tg, user)) for table, d, user in awaited]
        carriers = [c for c in carriers if c[3] is not None]
        if not carriers:
            await asyncio.sleep(0.02)
            continue
        table, decision, user, carrier = rng.choice(carriers)
        assert carrier is not None and carrier.chat.id == user.id
        await tg.press(user, carrier.message_id, user,
                       f"a:{table.id}:{decision.version}:{rng.randrange(len(decision.legal))}")


async def test_a_cup_in_a_group_without_topics_plays_in_private_chats(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """Five players of a plain group (no topics) play two rounds, two tables at once, each in
    his private chat, with a restart between the rounds and a table of the group opened
    beside them; the group sees the cup's card (its standings after each round) and the 🏆
    final card, none of the tables' pictures. One who never opened the bot cannot sign up."""
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db, action_timeout=5.0, autoplay_delay=0.0, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES[:5]]
    stranger, gus = tg.user("Fay", language_code="zh-hans"), tg.user("Gus")
    for user in (*users, gus):
        tg.start_private(user)
    group = tg.group("私聊杯群", members=(*users, stranger, gus))
    rng = random.Random(5)
    async with running_bot(config) as app:
        await tg.send_text(group, users[0], "/cup 2轮 1局")
        card = await tg.wait_for(lambda: _card(tg, group), timeout=30)
        for user in users[1:]:
            assert (await tg.press_button(card, user, "报名")).text == t("zh", "cup_joined")
        assert (await tg.press_button(card, stranger, "报名")).text == t("zh", "cup_needs_dm")
        await tg.wait_for(lambda: "报名(5/" in (tg.message(group, card.message_id).text or ""),
                          timeout=30)
        await tg.send_text(group, users[0], "/cup start")
        await _play_privately(tg, services(app).service, users, rng,
                              lambda: _count(db, "SELECT COUNT(*) FROM tables") == 4)
    assert _count(db, "SELECT COUNT(*) FROM tables WHERE private = 1") == 4
    async with running_bot(config) as app:  # restarted as the second round is dealt
        service = services(app).service
        await tg.wait_for(lambda: "已赛完 1 轮" in (tg.message(group, card.message_id).text
                                                  or ""), timeout=30)
        standings = tg.message(group, card.message_id).text or ""
        assert all(f"{u.first_name} 节分" in standings for u in users)
        # /cup in play answers the standings: every player with his 节分 and points
        asked = await _reason(tg, group, users[3], "/cup")
        assert asked.startswith("🏅") and "第 2/2 轮进行中" in asked
        assert all(re.search(rf"^\d\. {u.first_name} 节分 [0-3] · [+-]?\d", asked, re.M)
                   for u in users), asked
        # the group's own table beside the cup's two
        lobby = await tg.wait_reply(await tg.send_text(group, gus, "/new"), timeout=30)
        own = service.in_chat(group.id)
        assert own is not None and own.opener_id == gus.id and not own.private
        await _play_privately(tg, service, users, rng, lambda: _final_in(tg, group))
        final = await _final(tg, group, timeout=30)
        # their hands' settlements are never due in the group, after a restart neither
        assert await services(app).store.unposted_hands() == []
    assert _count(db, "SELECT COUNT(*) FROM hands WHERE settle_msg_id IS NULL") == 4
    assert all(name in (final.text or "") for name in NAMES[:5])
    assert all(re.search(rf"^\d\. {n} 节分", final.text or "", re.M) for n in NAMES[:5])
    shown = [m for m in tg.messages(group) if m.message_id != lobby.message_id]
    assert shown and all(m.photo is None and (m.text or "").startswith(("🏅", "🏆"))
                         for m in shown), [m.text or m.caption for m in shown]
    for user in users:  # every hand in his private chat: two rounds' pictures, and results
        assert sum(1 for m in tg.messages(user) if m.photo is not None) >= 2
        results = {m.text.split(" · ")[1] for m in tg.messages(user)
                   if m.text and m.text.startswith("🀄 群杯 #1 · 第") and "局结束" in m.text}
        assert results == {"第 1 轮", "第 2 轮"}, results  # one table of each round


async def test_a_forum_without_topics_for_the_bot_plays_its_cup_in_private_chats(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """A forum where the bot may not create topics: once everyone who signed up has opened
    the bot (/start), /cup start plays the tables in private chats instead; there a seat's
    result carries the hand's 🔒 and its 验证."""
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db, action_timeout=5.0, autoplay_delay=0.0, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES[:3]]
    forum = tg.forum("无权群", members=tuple(users))
    async with running_bot(config) as app:
        await _start_three(tg, forum, users)
        assert await _reason(tg, forum, users[0], "/cup start") == t("zh", "cup_no_topics")
        for user in users:
            await tg.wait_reply(await tg.send_text(user, user, "/start"), timeout=30)
        await tg.send_text(forum, users[0], "/cup start")
        await _play_privately(tg, services(app).service, users, random.Random(2),
                              lambda: _final_in(tg, forum))
        # no settlement in the group: 🔒 验证 is under each seat's private result, against
        # the 🔒 his hand's caption showed from the deal on
        ann = users[0]
        result = next(m for m in tg.messages(ann) if m.text and "局结束" in m.text)
        [(_, press)] = [b for b in result.buttons if b[0] == t("zh", "btn_verify")]
        hand_id = int(press.rsplit(":", 1)[1])
        played = (await services(app).store.played_hand(hand_id))[1]
        fp = f"🔒 {fairness.fingerprint(played.seed)}"
        assert fp in result.text and any(fp in (m.caption or "") for m in tg.messages(ann)
                                         if m.photo is not None)
        before = len(tg.messages(ann))
        assert (await tg.press(ann, result.message_id, ann, press)).text == \
            t("zh", "verify_sent")
        check = await tg.wait_for(lambda: tg.messages(ann)[before:], timeout=30)
        assert t("zh", "verify_replay_ok", steps=len(played.log)) in check[0].text
        assert "✅" in check[0].text.splitlines()[1]
        # the same button in the private chat of one who did not sit at the hand is outdated
        hal = tg.user("Hal", language_code="zh-hans")
        tg.start_private(hal)
        own = await tg.wait_reply(await tg.send_text(hal, hal, "/start"), timeout=30)
        assert (await tg.press(hal, own.message_id, hal, press)).text == t("zh", "stale")
    assert not forum.topics
    assert all((m.text or "").startswith(("🏅", "🏆")) for m in tg.messages(forum)
               if m.text != t("zh", "cup_no_topics"))
    assert _count(db, "SELECT COUNT(*) FROM tables WHERE private = 1") == 1
