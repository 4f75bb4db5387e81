"""A transaction whose task is cancelled at any point (a stop cancels delivery's jobs, some
inside a store write) leaves the store as it was and ready for the next one, on either
backend. SQLite kept the cancelled BEGIN's transaction open, and every later write of the
run failed ("cannot start a transaction within a transaction")."""

from __future__ import annotations

import asyncio

from bot.store import Store


async def test_a_cancelled_transaction_leaves_the_store_writable(opened_store: Store) -> None:
    store = opened_store
    await store.upsert_user(1, "甲", None, "zh")
    for turns in range(12):  # cancelled before, in and after each statement in flight
        async def rename(turns: int = turns) -> None:
            async with store.transaction() as tx:
                await tx.upsert_user(1, f"乙{turns}", None, "zh")
                await tx.upsert_user(100 + turns, "丙", None, "zh")

        task = asyncio.create_task(rename())
        for _ in range(turns):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        user = await store.user(1)
        assert user is not None
        # all of it or nothing
        assert (user.name == f"乙{turns}") == (await store.user(100 + turns) is not None)
        await store.upsert_user(1, "甲", None, "zh")  # the next write works
        async with store.transaction() as tx:
            await tx.upsert_user(2, f"丁{turns}", None, "zh")
        assert (await store.user(2)).name == f"丁{turns}"  # type: ignore[union-attr]
