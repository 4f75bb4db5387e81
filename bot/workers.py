"""The bot's helper processes (the painter's, bot.present.painter; the reviewer's,
bot.table.reviewer) stay out of the bot's stop signals.

SIGTERM or SIGINT sent to the bot's process group (``make run``'s, Ctrl-C in a terminal,
systemd's stop of the unit's cgroup) reaches every process in it. A helper that died of it
broke its pool under the bot while the bot was still stopping: the pictures of the stop
painted on the thread, a seat's review logged as failed. The bot ends its helpers itself
once it has stopped, so they ignore those signals: a spawned process starts with the signal
mask of the thread that started it (:func:`submit`, which blocks them meanwhile) and ignores
them before unblocking them (:func:`quiet`), so that none reaches it even while it starts.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

T = TypeVar("T")
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def submit(pool: Executor, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
    """``fn(*args)`` in ``pool``, with the stop signals blocked while it is submitted (a
    process pool starts its processes then). A signal that comes meanwhile waits, and is
    the bot's as soon as this returns."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        return asyncio.get_running_loop().run_in_executor(pool, fn, *args)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def quiet() -> None:
    """In a helper process, first thing: the stop signals ignored (one sent while it
    started is dropped), then unblocked."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
