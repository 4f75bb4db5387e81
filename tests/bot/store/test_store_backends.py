"""The store's reads and writes on every backend (SQLite and PostgreSQL, ``store_url``): a
group's hands, scores, birds, votes, subscriptions and matches, tables of several bots, the
one-process claim of a bot, and a copy of a whole store from one backend to the other and
back."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import SCHEMA_VERSION, ClubSettings, Store, open_store
from bot.store.copy import TABLES, CopyError, copy_store
from bot.store.posts import Slot
from engine.rules import QQ
from engine.simulate import play_random
from engine.state import Hand

GROUP, OTHER_GROUP = -100, -200


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    s = await open_store(store_url)
    yield s
    await s.close()


def _played(seed: int) -> Hand:
    hand = play_random(Hand.new(QQ, seed=seed, dealer=seed % 3), random.Random(seed))
    assert hand.outcome is not None
    return hand


async def _fill(store: Store, hands: int = 3) -> tuple[int, list[int]]:
    """A group's table with ``hands`` finished hands (users 1, 2, 3; the second with a bird of
    user 4), a waiting bird, a vote, a subscription, a running match and its topic's name."""
    async with store.transaction() as tx:
        for u in (1, 2, 3, 4):
            await tx.upsert_user(u, f"u{u}", None, "zh", dm_ok=u == 1)
        table_id = await tx.create_table(GROUP, 1, 3, rules="qq", timer=30, thread_id=7)
        for seat, u in enumerate((1, 2, 3)):
            await tx.add_seat(table_id, seat, u)
        match_id = await tx.create_match(table_id, 4)
    ids = []
    for n in range(1, hands + 1):
        hand = _played(n)
        assert hand.outcome is not None
        async with store.transaction() as tx:
            if n == 2:
                assert await tx.toggle_bird(table_id, 4)
            hand_id = await tx.create_hand(table_id, await store.next_hand_no(GROUP), n, "qq",
                                           2**64 - n, hand.dealer)
            await tx.update_hand(hand_id, match_id=match_id, group_msg_id=1000 + n)
            await tx.deal_birds(table_id, hand_id, (1, 2, 3), allowed=True)
            for seat, action in hand.log:
                await tx.append_action(hand_id, seat, action, auto=seat == 2)
            await tx.finish_hand(hand_id, GROUP, (1, 2, 3), hand.outcome.points,
                                 hand.outcome.winner)
            for user in await tx.bird_users(hand_id):
                await tx.settle_bird(hand_id, GROUP, user, 0, 5)
        ids.append(hand_id)
    async with store.transaction() as tx:
        assert await tx.toggle_bird(table_id, 4)
        vote = await tx.add_vote(table_id, "dissolve", 1)
        await tx.set_post(Slot.VOTE, (vote, GROUP), 55)
        await tx.subscribe(GROUP, 2, on=True)
        assert await tx.mark_notified(table_id, 2)
        assert not await tx.mark_notified(table_id, 2)
    await store.set_topic_name(GROUP, 7, "一桌")
    await store.set_club_settings(GROUP, 1, ClubSettings(auto_ready=True, dissolve_limit=2))
    await store.add_dissolve_ask(GROUP, 2)
    return table_id, ids


async def test_a_groups_hands_read_back_on_every_backend(store: Store) -> None:
    assert await store.schema_version() == SCHEMA_VERSION
    table_id, ids = await _fill(store)
    user = await store.user(1)
    assert user is not None and user.dm_ok and user.name == "u1"
    assert [s.user_id for s in await store.seats(table_id)] == [1, 2, 3]
    last = await store.last_hand(table_id)
    hand = _played(3)
    assert last is not None and last.id == ids[-1] and last.seed == 2**64 - 3
    assert list(last.log) == list(hand.log) and last.users == (1, 2, 3)
    assert [h.no for h in await store.finished_hands(GROUP, 10)] == [3, 2, 1]
    assert await store.hand_in_chat(GROUP, 2) == (ids[1], "done")
    found = await store.played_hand(ids[0])
    assert found is not None and found[0] == GROUP and found[1].names == ("u1", "u2", "u3")
    assert await store.last_played_id(1) == ids[-1]
    assert [h.id for h in await store.user_hands(2, "qq", 2)] == ids[1:]
    totals = await store.table_totals(table_id)
    points = [sum(_played(n).outcome.points[s] for n in (1, 2, 3)) for s in range(3)]  # type: ignore[union-attr]
    assert totals == {1: points[0], 2: points[1], 3: points[2]}
    score = (await store.scores(1, GROUP))["qq"]
    assert (score.points, score.hands) == (points[0], 3)
    assert await store.score(4) == (5, 0, 0) and (await store.scores(4))["qq"].birds == 1
    ranking = await store.ranking(GROUP, 10)
    assert {r.user_id for r in ranking} == {1, 2, 3, 4}
    recent = await store.recent_points([1, 2], "qq", GROUP, last=2)
    assert recent[1] == [_played(n).outcome.points[0] for n in (2, 3)]  # type: ignore[union-attr]
    assert [b.user_id for b in await store.hand_birds(ids[1])] == [4]
    assert [b.user_id for b in await store.waiting_birds(table_id)] == [4]
    assert await store.absent_hands(table_id, 3, 3) == 3  # seat 2 was played for throughout
    assert await store.absent_hands(table_id, 1, 3) == 0
    assert await store.subscribers(GROUP) == [2]
    await store.set_topic_name(GROUP, 7, "老友桌")  # renamed
    assert await store.topic_names(GROUP) == {7: "老友桌"}
    votes = await store.open_votes()
    assert [(v.kind, v.chat_id, v.thread_id) for v in votes] == [("dissolve", GROUP, 7)]
    assert await store.kept(Slot.VOTE, votes[0].id, GROUP) == 55
    match = await store.running_match(table_id)
    assert match is not None and await store.match_place(ids[2]) == (3, 4)
    assert [h.id for h in await store.match_played(match.id)] == ids
    assert len(await store.unposted_hands()) == 3
    for user in (1, 2, 3):  # the best of the hands he won, or None
        won = [(-_played(n).outcome.points[user - 1], n) for n in (1, 2, 3)  # type: ignore[union-attr]
               if _played(n).outcome.winner == user - 1]  # type: ignore[union-attr]
        best = await store.best_hand(user)
        assert (best and best.id) == (ids[min(won)[1] - 1] if won else None)


async def test_closing_moving_and_ending_on_every_backend(store: Store) -> None:
    table_id, ids = await _fill(store, hands=1)
    async with store.transaction() as tx:
        await tx.move_chat(GROUP, OTHER_GROUP)
        match = await store.running_match(table_id)
        assert match is not None
        await tx.update_match(match.id, status="stopped", leaver=2)
        await tx.update_hand(ids[0], settle_msg_id=9)
        await tx.update_seat(table_id, 0, ready=True, autoplay=False)
        await tx.move_seat(table_id, 2, 3)
        await tx.remove_seat(table_id, 1)
        await tx.update_table(table_id, status="between", dealer=1, version=4)
    assert await store.subscribers(OTHER_GROUP) == [2] and await store.subscribers(GROUP) == []
    assert await store.topic_names(OTHER_GROUP) == {7: "一桌"}
    assert await store.topic_names(GROUP) == {}
    assert await store.score(1, GROUP) == (0, 0, 0)
    assert (await store.score(1, OTHER_GROUP))[1] == 1
    assert [(s.seat, s.user_id, s.ready) for s in await store.seats(table_id)] == [
        (0, 1, True), (3, 3, False)]
    assert await store.unposted_hands() == []
    assert [m.status for m in await store.unposted_matches()] == ["stopped"]
    await store.set_chat_lang(OTHER_GROUP, "en", "g")
    assert await store.chat_lang(OTHER_GROUP) == "en"
    async with store.transaction() as tx:
        await tx.close_table(table_id, 5)
    table = await store.table(table_id)
    assert table is not None and table.status == "closed" and table.version == 5
    assert await store.open_tables() == []


async def test_tables_of_several_bots_and_a_seat_across_them(store: Store) -> None:
    async with store.transaction() as tx:
        for u in (1, 2):
            await tx.upsert_user(u, f"u{u}", None, None)
        mine = await tx.create_table(GROUP, 1, 3, bot_id=111)
        theirs = await tx.create_table(OTHER_GROUP, 2, 3, bot_id=222)
        await tx.add_seat(mine, 0, 1)
        await tx.add_seat(theirs, 0, 2)
        assert [t.id for t in await tx.seated_at(1)] == [mine]
    assert [t.id for t in await store.open_tables(111)] == [mine]
    assert [t.bot_id for t in await store.open_tables()] == [111, 222]
    assert [(t.id, t.bot_id) for t in await store.seated_at(2)] == [(theirs, 222)]
    async with store.transaction() as tx:
        await tx.close_table(theirs, 1)
    assert await store.seated_at(2) == [] and await store.seated_at(3) == []


async def test_one_process_claims_a_bot(fresh_postgres_url: str) -> None:
    first, second = await open_store(fresh_postgres_url), await open_store(fresh_postgres_url)
    try:
        assert await first.claim(111)
        assert not await second.claim(111)
        assert await second.claim(222)
        await first.close()
        assert await second.claim(111)  # released with the process's connection
    finally:
        await second.close()


async def _rows(store: Store) -> dict[str, list[tuple[object, ...]]]:
    found: dict[str, list[tuple[object, ...]]] = {}
    for table in TABLES:
        columns = sorted(await store.columns(table))
        found[table] = sorted([r async for batch in store.dump(table, columns) for r in batch],
                              key=repr)
    return found


async def test_the_copy_takes_every_table_of_the_schema(tmp_path: Path) -> None:
    """A table the copy does not name would be left behind by every store move."""
    store = await open_store(f"sqlite://{tmp_path}/a.sqlite3")
    await store.close()
    with sqlite3.connect(tmp_path / "a.sqlite3") as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                          " AND name NOT LIKE 'sqlite_%'")}
    assert set(TABLES) == names


async def test_copy_store_round_trip_sqlite_postgresql_sqlite(
        tmp_path: Path, fresh_postgres_url: str) -> None:
    source, back = f"sqlite://{tmp_path}/a.sqlite3", f"sqlite://{tmp_path}/b.sqlite3"
    original = await open_store(source)
    await _fill(original)
    before = await _rows(original)
    history = await original.finished_hands(GROUP, 10)
    await original.close()
    said: list[str] = []
    counts = await copy_store(source, fresh_postgres_url, said.append)
    assert counts["actions"] == sum(len(_played(n).log) for n in (1, 2, 3))
    assert said == [*(f"{t}: {counts[t]}" for t in TABLES),
                    f"copied {sum(counts.values())} rows in {len(TABLES)} tables from {source} to"
                    f" {fresh_postgres_url}"]
    with pytest.raises(CopyError, match="not empty"):
        await copy_store(source, fresh_postgres_url, said.append)
    said.clear()
    await copy_store(fresh_postgres_url, back, said.append)
    assert said[TABLES.index("hands")] == "hands: 3"
    on_postgres = await open_store(fresh_postgres_url)
    try:
        assert await on_postgres.finished_hands(GROUP, 10) == history
        async with on_postgres.transaction() as tx:  # its ids go on after the copied ones
            assert await tx.create_hand(1, 99, 99, "qq", 1, 0) > max(h.id for h in history)
    finally:
        await on_postgres.close()
    copied = await open_store(back)
    try:
        assert await _rows(copied) == before
        assert await copied.finished_hands(GROUP, 10) == history
        table_ids = [t.id for t in await copied.open_tables()]
        async with copied.transaction() as tx:  # ids go on after the copied ones
            assert await tx.create_table(OTHER_GROUP, 1, 3) > max(table_ids)
    finally:
        await copied.close()
