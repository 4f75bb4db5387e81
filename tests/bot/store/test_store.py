"""The store: migrations from empty, the append-only action log, replay round trips."""

from __future__ import annotations

import random
import sqlite3

import pytest
from support.postgres import INTEGRITY_ERRORS

from bot.store import MIGRATIONS, SCHEMA_VERSION, PlaceTaken, Store, StoreUnusable
from engine.rules import QQ
from engine.simulate import play_random
from engine.state import Hand


@pytest.fixture
async def store(store_url: str):
    """An empty store on each backend."""
    s = await Store.open(store_url)
    yield s
    await s.close()


async def test_migrations_from_empty_reach_the_latest_schema(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    s = await Store.open(path)
    assert await s.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    await s.close()
    s = await Store.open(path)  # opening again applies nothing and keeps the data
    assert await s.schema_version() == SCHEMA_VERSION
    await s.close()
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"users", "chats", "tables", "seats", "hands", "actions", "results", "scores",
            "global_scores"} <= names


async def test_a_newer_database_is_refused(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreUnusable, match="newer"):
        await Store.open(path)


async def _hand_in_store(store: Store) -> tuple[int, int]:
    async with store.transaction() as tx:
        await tx.upsert_user(1, "A", None, "zh", dm_ok=True)
        table_id = await tx.create_table(-100, 1, 3)
        hand_id = await tx.create_hand(table_id, 1, 1, "qq", 2**64 - 1, 2)
    return table_id, hand_id


async def test_action_log_is_append_only(store: Store) -> None:
    _, hand_id = await _hand_in_store(store)
    async with store.transaction() as tx:
        assert await tx.append_action(hand_id, 2, "pass") == 0
        assert await tx.append_action(hand_id, 0, "pass") == 1  # numbered by the store
    for sql in ("UPDATE actions SET action = 'hu'", "DELETE FROM actions"):
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            async with store.transaction() as tx:
                await tx.exec(sql)
    with pytest.raises(INTEGRITY_ERRORS):  # a sequence number is written once
        async with store.transaction() as tx:
            await tx.exec("INSERT INTO actions (hand_id, seq, seat, action)"
                          " VALUES (?, 0, 1, 'hu')", hand_id)


async def test_a_failed_transaction_leaves_nothing(store: Store) -> None:
    _, hand_id = await _hand_in_store(store)
    with pytest.raises(ZeroDivisionError):
        async with store.transaction() as tx:
            await tx.append_action(hand_id, 2, "pass")
            _ = 1 / 0
    row = await store.last_hand(1)
    assert row is not None and row.log == ()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_replay_round_trip(store: Store, seed: int) -> None:
    """A hand stored as (rule set, seed, dealer, log) replays to the same state."""
    rng = random.Random(seed)
    hand_seed, dealer = rng.getrandbits(64), rng.randrange(3)
    async with store.transaction() as tx:
        await tx.upsert_user(1, "A", None, "zh")
        table_id = await tx.create_table(-100, 1, 3)
        hand_id = await tx.create_hand(table_id, 1, 1, "qq", hand_seed, dealer)
    hand = Hand.new(QQ, seed=hand_seed, dealer=dealer)
    steps = 0
    while not hand.is_terminal() and steps < 12:
        seat = rng.choice(hand.to_act())
        action = rng.choice(hand.legal_actions(seat))
        hand.apply(seat, action)
        async with store.transaction() as tx:
            assert await tx.append_action(hand_id, seat, action) == steps
        steps += 1
    row = await store.last_hand(table_id)
    assert row is not None and row.seed == hand_seed and row.dealer == dealer
    replayed = Hand.replay(QQ, seed=row.seed, dealer=row.dealer, log=list(row.log))
    assert replayed.log == hand.log
    assert replayed.history == hand.history
    assert replayed.public_view() == hand.public_view()
    for s in range(3):
        assert replayed.private_view(s) == hand.private_view(s)


async def test_results_feed_chat_and_global_scores(store: Store) -> None:
    hand = play_random(Hand.new(QQ, seed=9, dealer=0), random.Random(9))
    assert hand.outcome is not None
    async with store.transaction() as tx:
        for u in (1, 2, 3):
            await tx.upsert_user(u, f"u{u}", None, "zh")
        table_a = await tx.create_table(-100, 1, 3)
        table_b = await tx.create_table(-200, 1, 3)
        for table_id, chat in ((table_a, -100), (table_b, -200)):
            hand_id = await tx.create_hand(table_id, 1, 1, "qq", 9, 0)
            await tx.finish_hand(hand_id, chat, (1, 2, 3), hand.outcome.points,
                                 hand.outcome.winner)
    for seat, user in enumerate((1, 2, 3)):
        points = hand.outcome.points[seat]
        won = int(seat == hand.outcome.winner)
        assert await store.score(user, -100) == (points, 1, won)
        assert await store.score(user) == (2 * points, 2, 2 * won)
    assert await store.table_totals(table_a) == dict(zip((1, 2, 3), hand.outcome.points,
                                                          strict=True))


async def test_one_open_table_per_chat(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.upsert_user(1, "A", None, "zh")
        first = await tx.create_table(-100, 1, 3, bot_id=7)
    with pytest.raises(PlaceTaken) as taken:
        async with store.transaction() as tx:
            await tx.create_table(-100, 1, 3, bot_id=8)
    assert taken.value.bot_id == 7  # another bot's table: that bot answers there
    async with store.transaction() as tx:
        await tx.close_table(first, 1)
        await tx.create_table(-100, 1, 3)
    assert [t.chat_id for t in await store.open_tables()] == [-100]
