"""The bot's helper processes ignore the stop signals of its process group (bot.workers):
the bot ends them itself, once it has stopped."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor

from bot.workers import quiet, submit


async def test_a_helper_process_lives_through_sigterm_and_sigint() -> None:
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=quiet)
    try:
        pid = await submit(pool, os.getpid)
        assert pid != os.getpid()
        os.kill(pid, signal.SIGTERM)
        os.kill(pid, signal.SIGINT)
        assert await submit(pool, os.getpid) == pid  # the same process, still serving
    finally:
        pool.shutdown(wait=True)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == set()  # nothing left blocked
