"""The bot-wide gate: slots at most ``rate`` a second, urgent waiters first."""

from __future__ import annotations

import asyncio

from bot.present.gate import Gate


async def test_urgent_waiters_go_first_each_class_in_order() -> None:
    gate = Gate(1 / 50, burst=0)
    granted: list[str] = []

    async def take(name: str, urgent: bool) -> None:
        await gate.slot(urgent)
        granted.append(name)

    tasks = [asyncio.create_task(take(f"n{i}", False)) for i in range(3)]
    await asyncio.sleep(0)  # the normal ones queue first
    tasks += [asyncio.create_task(take(f"u{i}", True)) for i in range(2)]
    await asyncio.gather(*tasks)
    assert granted == ["n0", "u0", "u1", "n1", "n2"]  # n0 had the free slot at once


async def test_slots_are_spaced_at_the_rate_after_the_burst() -> None:
    gate = Gate(1 / 50, burst=2)
    loop = asyncio.get_running_loop()
    times: list[float] = []

    async def take() -> None:
        await gate.slot()
        times.append(loop.time())

    start = loop.time()
    await asyncio.gather(*(take() for _ in range(13)))
    assert times[2] - start < 0.015  # an idle gate grants its burst (and one) at once
    assert times[-1] - start >= 10 / 50 * 0.95  # then one every 1/rate


async def test_a_cancelled_waiter_gives_its_slot_to_the_next() -> None:
    gate = Gate(1 / 20, burst=0)
    first = asyncio.create_task(gate.slot())
    await first
    waiting = asyncio.create_task(gate.slot())
    after = asyncio.create_task(gate.slot())
    await asyncio.sleep(0)
    waiting.cancel()
    loop = asyncio.get_running_loop()
    start = loop.time()
    await after
    assert loop.time() - start < 1.5 / 20  # the next slot, not the one after
    assert gate.waiting == 0


async def test_a_promoted_waiter_goes_before_the_normal_ones() -> None:
    gate = Gate(1 / 50, burst=0)
    granted: list[str] = []

    async def take(name: str, key: int | None = None) -> None:
        await gate.slot(key=key)
        granted.append(name)

    tasks = [asyncio.create_task(take(f"n{i}", key=i)) for i in range(4)]
    await asyncio.sleep(0)
    gate.promote(3)  # its chat has new buttons to show now
    gate.promote(99)  # nobody waits under this key: nothing happens
    await asyncio.gather(*tasks)
    assert granted[-2:] == ["n1", "n2"]  # n3 went first, or right after n0's free slot
    assert set(granted[:2]) == {"n0", "n3"}
    assert gate.waiting == 0
