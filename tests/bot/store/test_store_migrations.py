"""Schema migrations: from an empty file, and from a database left by the previous version."""

from __future__ import annotations

import random
import sqlite3

import asyncpg
from support.store import migration_adding, old_database

from bot.store import MIGRATIONS, SCHEMA_VERSION, Store, open_store
from bot.store.posts import Slot
from bot.store.schema import migrations
from engine.rules import QQ
from engine.simulate import play_random
from engine.state import Hand
from engine.views import OutcomeKind


def _hands_of_each_kind() -> dict[OutcomeKind, Hand]:
    """A won, a drawn and an escaped hand (in that order), played by the engine."""
    found: dict[OutcomeKind, Hand] = {}
    seed = 0
    while not {OutcomeKind.WIN, OutcomeKind.DRAW} <= found.keys():
        hand = play_random(Hand.new(QQ, seed=seed, dealer=seed % 3), random.Random(seed))
        assert hand.outcome is not None
        found.setdefault(hand.outcome.kind, hand)
        seed += 1
    escaped = Hand.new(QQ, seed=seed, dealer=0)
    escaped.escape(1)
    return {OutcomeKind.WIN: found[OutcomeKind.WIN], OutcomeKind.DRAW: found[OutcomeKind.DRAW],
            OutcomeKind.ESCAPE: escaped}


async def test_from_empty_every_migration_applies(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS) >= 2
        assert await store.ranking(-1) == [] and await store.best_hand(1) is None
    finally:
        await store.close()


async def test_upgrading_the_previous_version_keeps_the_data(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    previous = 1  # before the winner column (2) and the per-group hand numbers (3)
    old_database(path, previous)
    hands = _hands_of_each_kind()
    users = (1, 2, 3)
    with sqlite3.connect(path) as db:  # written with the old schema's columns only
        assert db.execute("PRAGMA user_version").fetchone()[0] == previous
        for u in users:
            db.execute("INSERT INTO users (user_id, name, lang) VALUES (?, ?, 'zh')", (u, f"u{u}"))
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                   " VALUES (1, -100, 1, 'between', 3)")
        for no, hand in enumerate(hands.values(), 1):
            db.execute("INSERT INTO hands (id, table_id, no, rule_set, seed, dealer, status)"
                       " VALUES (?, 1, ?, 'qq', ?, ?, 'done')",
                       (no, no, str(hand.seed), hand.dealer))
            for seq, (seat, action) in enumerate(hand.log):
                db.execute("INSERT INTO actions (hand_id, seq, seat, action) VALUES (?, ?, ?, ?)",
                           (no, seq, seat, action))
            assert hand.outcome is not None
            for seat, points in enumerate(hand.outcome.points):
                db.execute("INSERT INTO results VALUES (?, ?, ?, ?)",
                           (no, seat, users[seat], points))
                db.execute("INSERT INTO scores (chat_id, user_id, points, hands, wins)"
                           " VALUES (-100, ?, ?, 1, ?) ON CONFLICT (chat_id, user_id) DO UPDATE"
                           " SET points = points + excluded.points, hands = hands + 1,"
                           " wins = wins + excluded.wins",
                           (users[seat], points, int(seat == hand.outcome.winner)))
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        played = {h.id: h for h in await store.finished_hands(-100, 10)}
        assert sorted(played) == [1, 2, 3]
        for no, hand in enumerate(hands.values(), 1):
            assert hand.outcome is not None
            row = played[no]
            assert row.winner == hand.outcome.winner  # backfilled only for the win
            assert row.seed == hand.seed and row.log == tuple(hand.log)
            assert row.points == hand.outcome.points and row.users == users
            replayed = Hand.replay(QQ, seed=row.seed, dealer=row.dealer, base=row.base,
                                   log=list(row.log))
            assert replayed.outcome == hand.outcome
        for seat, u in enumerate(users):
            points = sum(h.outcome.points[seat] for h in hands.values() if h.outcome)
            wins = sum(h.outcome.winner == seat for h in hands.values() if h.outcome)
            assert await store.score(u, -100) == (points, 3, wins)
        win = hands[OutcomeKind.WIN].outcome
        assert win is not None and win.winner is not None
        best = await store.best_hand(users[win.winner])
        assert best is not None and best.id == 1
        # the upgraded file takes new hands through the current code
        async with store.transaction() as tx:
            hand_id = await tx.create_hand(1, await store.next_hand_no(-100), 1, "qq", 7, 0)
            await tx.finish_hand(hand_id, -100, users, win.points, win.winner)
        assert (await store.finished_hands(-100, 1))[0].winner == win.winner
    finally:
        await store.close()


async def test_hands_are_renumbered_per_group(tmp_path) -> None:
    """Schema 3: a group's hands count 1, 2, 3… over all its tables (they counted per table)."""
    path = tmp_path / "db.sqlite3"
    old_database(path, 2)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO users (user_id, name) VALUES (1, 'u1')")
        # two tables of group -100 (one after the other) and one of group -200, interleaved
        for table_id, chat_id in ((1, -100), (2, -200), (3, -100)):
            db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                       " VALUES (?, ?, 1, 'closed', 3)", (table_id, chat_id))
        for hand_id, table_id, no in ((1, 1, 1), (2, 2, 1), (3, 1, 2), (4, 3, 1), (5, 2, 2),
                                      (6, 3, 2)):
            db.execute("INSERT INTO hands (id, table_id, no, rule_set, seed, dealer, status)"
                       " VALUES (?, ?, ?, 'qq', '1', 0, 'done')", (hand_id, table_id, no))
    store = await Store.open(path)
    try:
        rows = await store._all("SELECT id, no FROM hands ORDER BY id")
        assert [(r["id"], r["no"]) for r in rows] == [(1, 1), (2, 1), (3, 2), (4, 3), (5, 2),
                                                      (6, 4)]
        assert await store.next_hand_no(-100) == 5
        assert await store.next_hand_no(-200) == 3
        assert await store.next_hand_no(-300) == 1
    finally:
        await store.close()


async def test_hands_are_numbered_per_table_besides_per_group(tmp_path) -> None:
    """Schema 12: what players read counts 1, 2, 3… at each table; the group's number stays."""
    path = tmp_path / "db.sqlite3"
    old_database(path, 11)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO users (user_id, name) VALUES (1, 'u1')")
        for table_id in (1, 2):
            db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                       " VALUES (?, -100, 1, 'closed', 3)", (table_id,))
        for hand_id, table_id in ((1, 1), (2, 2), (3, 1), (4, 2), (5, 2)):
            db.execute("INSERT INTO hands (id, table_id, chat_id, no, rule_set, seed, dealer,"
                       " status) VALUES (?, ?, -100, ?, 'qq', '1', 0, 'done')",
                       (hand_id, table_id, hand_id))
    store = await Store.open(path)
    try:
        rows = await store._all("SELECT no, table_no FROM hands ORDER BY id")
        assert [(r["no"], r["table_no"]) for r in rows] == [(1, 1), (2, 1), (3, 2), (4, 2),
                                                            (5, 3)]
        assert [await store.next_table_hand_no(t) for t in (1, 2, 3)] == [3, 4, 1]
        assert await store.next_hand_no(-100) == 6
    finally:
        await store.close()


# a cup, a challenge and a vote with their message ids in their own columns (as before the
# posting room kept them)
KEPT_IN_COLUMNS = (
    "INSERT INTO users (user_id, name, lang) VALUES (1, 'u', 'zh')",
    "INSERT INTO tables (id, chat_id, opener_id, status, base) VALUES (1, -100, 1, 'lobby', 3)",
    "INSERT INTO votes (id, table_id, kind, proposer, msg_id) VALUES (4, 1, 'dissolve', 1, 40)",
    "INSERT INTO cups (id, chat_id, opener_id, status, state, card_msg_id, final_msg_id,"
    " created_at) VALUES (2, -100, 1, 'done', '{}', 20, 21, 0)",
    "INSERT INTO cups (id, chat_id, opener_id, state, created_at) VALUES (3, -100, 1, '{}', 0)",
    "INSERT INTO challenges (id, chat_id, opener_id, rules, seeds, deadline, status,"
    " card_msg_id, created_at) VALUES (5, -100, 1, 'qq', '1', 0, 'done', 50, 0)",
    "INSERT INTO challenge_players (challenge_id, user_id, name, lang, msg_id, joined_at)"
    " VALUES (5, 1, 'u', 'zh', 51, 0)",
)


async def _check_kept_in_posts(store: Store) -> None:
    """The ids of :data:`KEPT_IN_COLUMNS` are the posting room's rows (a missing one is no
    row), and the cup and challenge whose final card is due are found so."""
    assert [await store.kept(slot, key, chat) for slot, key, chat in (
        (Slot.CUP_CARD, 2, -100), (Slot.CUP_FINAL, 2, -100), (Slot.CUP_CARD, 3, -100),
        (Slot.CHALLENGE_CARD, 5, -100), (Slot.CHALLENGE_FINAL, 5, -100),
        (Slot.CHALLENGE_SEAT, 5, 1), (Slot.VOTE, 4, -100))] == [20, 21, None, 50, None, 51, 40]
    assert [c.id for c in await store.live_cups(0)] == [3]  # 2's final card is posted
    assert [c.id for c in await store.unposted_challenges(0)] == [5]  # its final is not


async def test_the_posting_rooms_migration_carries_the_ids_kept_in_columns(tmp_path) -> None:
    """The ids of cups', challenges' and votes' messages move from their own columns into the
    posting room's rows, so that a restart finds them there."""
    path = tmp_path / "db.sqlite3"
    old_database(path, migration_adding("CREATE TABLE posts") - 1)
    with sqlite3.connect(path) as db:
        for sql in KEPT_IN_COLUMNS:
            db.execute(sql)
    store = await Store.open(path)
    try:
        await _check_kept_in_posts(store)
    finally:
        await store.close()


async def test_the_posting_rooms_migration_carries_them_on_postgresql(
        fresh_postgres_url: str) -> None:
    before = migration_adding("CREATE TABLE posts") - 1
    db = await asyncpg.connect(fresh_postgres_url)
    try:
        await db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await db.execute("INSERT INTO schema_version VALUES ($1)", before)
        for sql in (*migrations("postgresql")[:before], *KEPT_IN_COLUMNS):
            await db.execute(sql)
    finally:
        await db.close()
    store = await open_store(fresh_postgres_url)
    try:
        await _check_kept_in_posts(store)
    finally:
        await store.close()
