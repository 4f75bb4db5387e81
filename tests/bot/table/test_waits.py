"""A wait with a time limit keeps a cancellation that comes as its event is set
(:mod:`bot.waits`): the bot's stop cancels its lookers (:mod:`bot.table.looks`) and outboxes
and waits for their end, which a lost cancellation put off by a whole interval."""

from __future__ import annotations

import asyncio

from bot.table.looks import Looker
from bot.waits import woken


class Counting(Looker):
    def __init__(self) -> None:
        super().__init__(every=60.0)
        self.looks = 0

    async def look(self) -> bool:
        self.looks += 1
        return False


async def test_woken_says_whether_the_event_came_in_time() -> None:
    event = asyncio.Event()
    assert await woken(event, 0.01) is False
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await woken(event, 5) is True


async def test_a_cancellation_as_the_event_is_set_ends_the_waiting_task() -> None:
    event = asyncio.Event()

    async def waits_forever() -> None:
        while True:
            await woken(event, 60)
            event.clear()

    task = asyncio.create_task(waits_forever())
    await asyncio.sleep(0.01)
    event.set()
    task.cancel()  # in the same turn of the loop as the set
    async with asyncio.timeout(2):
        await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()


async def test_a_looker_nudged_as_it_is_stopped_looks_no_more() -> None:
    looker = Counting()
    looker.start()
    await asyncio.sleep(0.01)
    assert looker.looks == 1
    looker.nudge()
    async with asyncio.timeout(2):
        await looker.stop()
    assert looker.looks == 1  # with wait_for, the nudge won over the stop: a look after it
