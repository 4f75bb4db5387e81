"""Waiting in a task that may be cancelled meanwhile.

On Python 3.11, ``asyncio.wait_for`` loses a cancellation that arrives as the awaited thing
completes: the task goes on, marked "cancelling", and whatever awaits its end (the bot's stop)
waits out its next interval. ``asyncio.timeout`` keeps the cancellation; every wait with a
limit in the bot uses it.

A statement handed to a database driver's thread runs there whether or not its caller is
cancelled meanwhile; what brackets a transaction must know that it ran (:func:`to_the_end`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """True once ``event`` is set, False when ``seconds`` pass first."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def to_the_end(step: Awaitable[T]) -> T:
    """``step``'s result once it has ended, even if the caller is cancelled meanwhile: the
    cancellation is raised after it ended, not while it may still be running."""
    task = asyncio.ensure_future(step)
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return task.result()
