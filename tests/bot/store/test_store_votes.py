"""The store side of votes and /notify: the migration, from the database the
previous version left; who was in 托管 whole hands; subscriptions, told once a table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.store import old_database

from bot.store import MIGRATIONS, Store


def _my_migration() -> int:
    """The schema version this work's migration brings (found by what it does)."""
    return next(i for i, m in enumerate(MIGRATIONS, 1) if "CREATE TABLE votes" in m)


@pytest.fixture
async def store(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    old_database(path, _my_migration() - 1)
    with sqlite3.connect(path) as db:  # an open table left by the previous version
        db.execute("INSERT INTO users (user_id, name, lang) VALUES (1, 'u', 'zh')")
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                   " VALUES (1, -100, 1, 'lobby', 3)")
    store = await Store.open(path)
    yield store
    await store.close()


async def test_the_migration_keeps_tables_and_adds_one_vote_per_table(store: Store) -> None:
    [row] = await store.open_tables()
    assert row.id == 1
    assert await store.open_votes() == []
    async with store.transaction() as tx:
        vote = await tx.add_vote(1, "dissolve", 1)
    [open_vote] = await store.open_votes()
    assert (open_vote.id, open_vote.kind, open_vote.chat_id) == (vote, "dissolve", -100)
    with pytest.raises(sqlite3.IntegrityError):  # one vote at a time per table
        async with store.transaction() as tx:
            await tx.add_vote(1, "replace", 1)
    async with store.transaction() as tx:
        await tx.drop_vote(vote)
    assert await store.open_votes() == []


async def hand(store: Store, no: int, moves: list[tuple[int, bool]], users=(1, 2, 3)) -> None:  # type: ignore[no-untyped-def]
    """A finished hand of table 1: ``moves`` (seat, auto) in order."""
    async with store.transaction() as tx:
        hand_id = await tx.create_hand(1, no, no, "qq", 5, 0)
        for seat, auto in moves:
            await tx.append_action(hand_id, seat, "pass", auto)
        await tx.finish_hand(hand_id, -100, users, (0, 0, 0), None)


async def test_absent_hands_count_whole_hands_played_for_the_seat(store: Store) -> None:
    await hand(store, 1, [(0, False), (2, True), (1, False), (2, True)])
    assert await store.absent_hands(1, 3, 2) == 1  # seat 2: all its moves auto
    assert await store.absent_hands(1, 1, 2) == 0
    await hand(store, 2, [(2, False), (2, True)])  # back for one move
    assert await store.absent_hands(1, 3, 2) == 1
    await hand(store, 3, [(2, True), (0, False)])
    assert await store.absent_hands(1, 3, 2) == 1  # the last two: one whole, one not
    await hand(store, 4, [(2, True)], users=(1, 2, 4))  # another user in that seat
    assert await store.absent_hands(1, 3, 2) == 1 and await store.absent_hands(1, 4, 2) == 1


async def test_subscriptions_are_told_once_a_table_and_follow_the_group(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.subscribe(-100, 5, on=True)
        await tx.subscribe(-100, 5, on=True)  # twice is once
        await tx.subscribe(-100, 6, on=True)
        await tx.subscribe(-100, 6, on=False)
    assert await store.subscribers(-100) == [5]
    async with store.transaction() as tx:
        assert await tx.mark_notified(1, 5)
        assert not await tx.mark_notified(1, 5)
        await tx.move_chat(-100, -200)  # upgraded to a supergroup
    assert await store.subscribers(-200) == [5] and await store.subscribers(-100) == []
