"""A 群杯's Swiss rounds through the real bot and a fake Telegram: seven players, three rounds
of one hand (`/cup qq 3轮 1局`), played in 托管 to the final card. No later round seats a
table of players who sat together before, nobody is the only human among computer players
twice, and the final card's places follow the standings (ties shared, 🥇 to each first)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram

from bot.i18n import t
from bot.store.cups import CupWrites
from bot.table.cups import Cup, standings
from engine.points import signed

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")


def _count(db: Path, sql: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(sql).fetchone()[0])


def _card(tg: FakeTelegram, forum: FakeChat, head: str) -> FakeMessage | None:
    return next((m for m in tg.topic_messages(forum, None)
                 if (m.text or "").startswith(head)), None)


async def test_seven_players_three_rounds_never_meet_as_a_table_again(
        tg: FakeTelegram, tmp_path: Path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.2, autoplay_delay=0.0,
                         full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES]
    for user in users:
        tg.start_private(user)
    forum = tg.forum("杯赛群", members=tuple(users))
    forum.members[tg.bot.id] = "administrator"
    async with running_bot(config) as app:
        await tg.send_text(forum, users[0], "/cup qq 3轮 1局")
        card = await tg.wait_for(lambda: _card(tg, forum, "🏅"), timeout=30)
        for user in users[1:]:
            await tg.press_button(card, user, "报名")
        await tg.wait_for(lambda: "报名(7/" in (tg.message(forum, card.message_id).text or ""),
                          timeout=30)
        await tg.send_text(forum, users[0], "/cup start")
        final = await tg.wait_for(lambda: _card(tg, forum, "🏆"), timeout=180)
        row = await services(app).store.cup(1)
    assert row is not None and row.status == "done"
    cup = Cup.loads(row.state)
    assert cup.round == 3
    seen: set[frozenset[int]] = set()
    alone: list[int] = []
    for rnd in cup.tables:
        for table in rnd:
            humans = frozenset(u for u in table.seats if u is not None)
            assert len(humans) < 2 or humans not in seen, [t.seats for t in rnd]
            seen.add(humans)
            if len(humans) == 1:
                alone += humans
    assert len(alone) == len(set(alone)), alone
    # privately: the cup, the round and the cup's own table numbers; no 再来一局 in results;
    # who finished a round's table first was told his place and what comes next
    waits = []
    for user in users:
        texts = [m.text or m.caption or "" for m in tg.messages(user)]
        results = [x for x in texts if x.startswith("🀄")]
        assert results and all(re.match(r"🀄 群杯 #1 · 第 [123] 轮 · 第 [123] 桌 · 第 1 局结束", x)
                               for x in results), results
        captions = [x for x in texts if "胡息" in x and not x.startswith(("🀄", "🏅"))]
        assert captions and all(re.match(r"群杯 #1 · 第 [123] 轮 · 第 [123] 桌", x)
                                for x in captions), captions
        assert not any("再来一局" in label for m in tg.messages(user)
                       for label, _ in m.buttons)
        waits += [x for x in texts if x.startswith("🏅 群杯 #1 · 第 ")]
    assert waits and all("你这桌(第 " in x and "你现在第 " in x for x in waits), waits
    assert any("第 2 轮自动开始" in x for x in waits)
    places = {s.player.name: s.place for s in standings(cup)}
    text = final.text or ""
    for name, place in places.items():
        assert f"{place}. {name} 节分" in text
    firsts = [n for n, p in places.items() if p == 1]
    assert all(f"🥇 {n}" in text for n in firsts)


async def test_cup_cancel_ends_a_cup_in_play_and_keeps_what_was_played(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """Three players, one round of two hands: after the first hand, a player's /cup cancel is
    refused; the group owner's ends the cup, the second hand voided, the first's points
    kept on the final card; the group may open another cup at once."""
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db, action_timeout=0.2, autoplay_delay=0.0, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES[:3]]
    for user in users:
        tg.start_private(user)
    olga = tg.user("Olga")
    forum = tg.forum("杯赛群", members=tuple(users), owner=olga)
    forum.members[tg.bot.id] = "administrator"
    async with running_bot(config) as app:
        store = services(app).store
        await tg.send_text(forum, users[0], "/cup qq 1轮 2局")
        card = await tg.wait_for(lambda: _card(tg, forum, "🏅"), timeout=30)
        for user in users[1:]:
            await tg.press_button(card, user, "报名")
        await tg.wait_for(lambda: "报名(3/" in (tg.message(forum, card.message_id).text or ""),
                          timeout=30)
        await tg.send_text(forum, users[0], "/cup start")
        await tg.wait_for(lambda: _count(db, "SELECT COUNT(*) FROM hands WHERE status = 'done'")
                          == 1, timeout=60)
        refused = await tg.wait_reply(await tg.send_text(forum, users[1], "/cup cancel"),
                                      match=lambda m: m.thread_id is None and bool(m.text))
        assert refused.text == t("zh", "cup_cancel_refused")
        await tg.send_text(forum, olga, "/cup cancel")
        final = await tg.wait_for(lambda: _card(tg, forum, "⛔"), timeout=30)
        row = await store.cup(1)
        assert row is not None and row.status == "done" and Cup.loads(row.state).cancelled
        assert t("zh", "cup_cancelled", k=1, n=1) in (final.text or "")
        assert "🥇" not in (final.text or "")
        with sqlite3.connect(db) as conn:
            first = dict(conn.execute("SELECT r.user_id, r.points FROM results r JOIN hands h"
                                      " ON h.id = r.hand_id WHERE h.status = 'done'").fetchall())
            statuses = [s for (s,) in conn.execute("SELECT status FROM hands ORDER BY id")]
        assert statuses in (["done", "aborted"], ["done"])  # the second voided, or not dealt
        for user in users:
            assert re.search(rf"^\d\. {user.first_name} 节分 \d · {re.escape(signed(first[user.id]))}",
                             final.text or "", re.M), final.text
            assert services(app).service.table_of_user(user.id) is None
        await tg.send_text(forum, users[2], "/cup")  # not locked out: a new cup signs up
        await tg.wait_for(lambda: sum((m.text or "").startswith("🏅")
                                      for m in tg.topic_messages(forum, None)) == 2, timeout=30)


async def test_a_store_failure_at_a_round_s_end_is_tried_again_until_the_round_is_dealt(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Three players, two rounds of one hand. As the first round's table ends, the store
    refuses the cup's writes for a while (a lock held elsewhere): the cup goes on by itself
    once it takes them again, the second round dealt exactly once, to the final card."""
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db, action_timeout=0.2, autoplay_delay=0.0, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in NAMES[:3]]
    for user in users:
        tg.start_private(user)
    forum = tg.forum("杯赛群", members=tuple(users))
    forum.members[tg.bot.id] = "administrator"
    refused: list[int] = []
    real = CupWrites.set_cup

    async def locked(self: CupWrites, cup_id: int, **cols: object) -> None:
        state = cols.get("state")
        if isinstance(state, str) and '"points": {' in state and len(refused) < 4:
            refused.append(1)  # the round's table counted: refused four times
            raise sqlite3.OperationalError("database is locked")
        await real(self, cup_id, **cols)  # type: ignore[arg-type]

    monkeypatch.setattr(CupWrites, "set_cup", locked)
    async with running_bot(config):
        await tg.send_text(forum, users[0], "/cup qq 2轮 1局")
        card = await tg.wait_for(lambda: _card(tg, forum, "🏅"), timeout=30)
        for user in users[1:]:
            await tg.press_button(card, user, "报名")
        await tg.wait_for(lambda: "报名(3/" in (tg.message(forum, card.message_id).text or ""),
                          timeout=30)
        await tg.send_text(forum, users[0], "/cup start")
        await tg.wait_for(lambda: _card(tg, forum, "🏆"), timeout=90)
    assert len(refused) == 4
    assert _count(db, "SELECT COUNT(*) FROM tables") == 2  # one table a round, once each
    assert _count(db, "SELECT COUNT(*) FROM hands WHERE status = 'done'") == 2
    with sqlite3.connect(db) as conn:
        cup = Cup.loads(conn.execute("SELECT state FROM cups").fetchone()[0])
    assert cup.round == 2 and all(t.points for rnd in cup.tables for t in rnd)
    assert "cup work failed" not in caplog.text
