"""The one-process-per-token guard on PostgreSQL survives a killed connection: the holder
takes its lock again on a new connection, so a second store on the same bot is still
refused; if another process took the lock in the gap, the holder is told it lost."""

from __future__ import annotations

import asyncio

import asyncpg
from support.postgres import (
    eventually,
    guard_holder,
    guard_moved,
    killed_unread,
    take_guard_over,
)

from bot.store import guard as guard_module
from bot.store import open_store
from bot.store.guard import Guard

BOT = 4242


async def test_a_killed_guard_connection_is_taken_again_and_still_refuses(
        fresh_postgres_url: str) -> None:
    first, second = await open_store(fresh_postgres_url), await open_store(fresh_postgres_url)
    admin = await asyncpg.connect(fresh_postgres_url)
    lost: list[int] = []
    try:
        assert await first.claim(BOT, lambda: lost.append(BOT))
        killed = await guard_holder(admin, BOT)
        assert killed is not None
        for _ in range(2):  # twice: the new connection is watched as the first was
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", killed)
            killed = await guard_moved(admin, BOT, killed)
            assert not await second.claim(BOT)
        assert lost == []
    finally:
        await admin.close()
        await first.close()
        await second.close()


async def test_a_guard_taken_by_another_in_the_gap_is_lost(fresh_postgres_url: str) -> None:
    """Another process already waiting for the lock gets it the moment the holder's connection
    dies: the holder cannot take it again and is told to stop."""
    first = await open_store(fresh_postgres_url)
    lost: list[int] = []
    try:
        assert await first.claim(BOT, lambda: lost.append(BOT))
        other = await take_guard_over(fresh_postgres_url, BOT)
        await eventually(lambda: asyncio.sleep(0, lost), "the holder told it lost")
        assert lost == [BOT]
        await other.close()
    finally:
        await first.close()


async def test_a_ping_between_the_servers_last_word_and_the_connections_end_is_a_loss(
        fresh_postgres_url: str, monkeypatch) -> None:
    """The guard's ping finds its connection killed after the server's FATAL error came
    but before its end did (the driver's protocol then busy with that error): the
    connection is lost, as any failed ping says, not an error that ends the watch."""
    monkeypatch.setattr(guard_module, "PING_INTERVAL", 0.05)
    guard = Guard(fresh_postgres_url, BOT, lambda: None)
    admin = await asyncpg.connect(fresh_postgres_url)
    try:
        assert await guard._lock()  # held, not yet watched (private: a test's fault)
        assert guard._db is not None
        await killed_unread(guard._db, admin)
        await asyncio.wait_for(guard._wait_for_loss(), 10)
    finally:
        await admin.close()
        await guard.release()
