"""Waiting with a time limit in a task that may be cancelled meanwhile.

On Python 3.11, ``asyncio.wait_for`` loses a cancellation that arrives as the awaited thing
completes: the task goes on, marked "cancelling", and whatever awaits its end (the bot's stop)
waits out its next interval. ``asyncio.timeout`` keeps the cancellation; every wait with a
limit in the bot uses it.
"""

from __future__ import annotations

import asyncio


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """True once ``event`` is set, False when ``seconds`` pass first."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True

