"""A PostgreSQL connection killed between two statements of a transaction: the server's last
word (its FATAL error) may reach the driver before the connection's end does, and a call in
between finds the driver's protocol busy with that unasked-for error. The store says it is
unavailable (nothing was stored, the change is tried again), not a bug; the next
transaction runs on a fresh connection."""

from __future__ import annotations

import asyncpg
import pytest
from support.postgres import killed_unread

from bot.store import StoreUnavailable, open_store


async def test_a_call_between_the_servers_last_word_and_the_connections_end_is_unavailable(
        fresh_postgres_url: str) -> None:
    store = await open_store(fresh_postgres_url)
    admin = await asyncpg.connect(fresh_postgres_url)
    try:
        with pytest.raises(StoreUnavailable):
            async with store.transaction() as tx:
                await tx.exec("SELECT 1")
                # the transaction's connection (private: a test's fault)
                await killed_unread(tx._conn._db, admin)
                await tx.exec("SELECT 2")
        assert not store.health.up
        async with store.transaction() as tx:
            assert await tx.exec("SELECT 3") == 1
        assert store.health.up
    finally:
        await admin.close()
        await store.close()
