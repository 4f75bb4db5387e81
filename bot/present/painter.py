"""Where the pictures are painted, off the event loop: a thread for every picture, and, when
asked (``RENDER_PROCESS``, on by default in production), a process of its own for the
pictures of play (a seat's hand, the group's table), which come many a second at a few
hundred tables.

Painting holds Python's lock for most of its ~10 ms, so a thread in the bot's process holds
the loop up as often: every live page's update and every press waits behind it
(``bench/bench_load.py --webapp-seats 3`` at 200 tables). A process paints on another core;
its arguments (the views) and its picture cross by pickling. Should that process die, the
picture is painted on the thread and the next one starts a new process."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.metrics import PAINTER_QUEUE
from bot.workers import quiet, submit
from engine.rules import QQ
from engine.state import Hand
from render import render_hand, render_table

log = logging.getLogger(__name__)

PARENT_CHECK = 0.5  # seconds between two looks of the painting process at the bot's


class Painter:
    def __init__(self, process: bool = False) -> None:
        # one thread: enough for the gate's pace, and every extra thread would keep its own
        # malloc arena of picture-sized blocks
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="render")
        self._process = process
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def paint(self, draw: Callable[..., bytes], *args: object) -> bytes:
        """A picture painted on the thread (``draw`` may be any callable). Once the painter
        is shut down, the job asking is cancelled: the bot is stopping, and a job that was
        under way then meets this, not an executor that refuses it as an error."""
        with PAINTER_QUEUE.track_inprogress():
            return await self._on_thread(draw, *args)

    async def _on_thread(self, draw: Callable[..., bytes], *args: object) -> bytes:
        if self._closed:
            raise asyncio.CancelledError("the painter is shut down: the bot is stopping")
        return await asyncio.get_running_loop().run_in_executor(self._thread, draw, *args)

    async def paint_play(self, draw: Callable[..., bytes], *args: object) -> bytes:
        """A picture of play, in the painting process if there is one: ``draw`` a function
        of a module and ``args`` plain values (they are pickled)."""
        with PAINTER_QUEUE.track_inprogress():
            return await self._in_process(draw, *args)

    def warm(self) -> None:
        """Start the painting process now, beside the bot's start, and paint a first hand in
        it: the first picture of play would otherwise wait for the process to start and load
        the drawing modules and the fonts, and its chat's outbox with it."""
        if self._process and not self._closed:
            submit(self._started(), _first_pictures).add_done_callback(_said_if_failed)

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: a fork would copy the bot's threads' locks mid-use
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_leave_with, initargs=(os.getpid(),))
        return self._pool

    async def _in_process(self, draw: Callable[..., bytes], *args: object) -> bytes:
        if not self._process or self._closed:
            return await self._on_thread(draw, *args)
        pool = self._started()
        try:
            return await submit(pool, draw, *args)
        except BrokenProcessPool:
            log.warning("the painting process died: this picture is painted on the thread,"
                        " the next one in a new process")
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False)
            return await self._on_thread(draw, *args)

    def shutdown(self) -> None:
        self._closed = True
        self._thread.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _first_pictures() -> None:
    """In the painting process: a new hand's table and seat painted, and thrown away."""
    hand = Hand.new(QQ, seed=0, dealer=0)
    names = ("", "", "")
    render_table(hand.public_view(), names)
    render_hand(hand.private_view(0), names)


def _said_if_failed(warming: asyncio.Future[None]) -> None:
    """The warm-up's end: a failure is only said (the first picture starts a new process)."""
    if not warming.cancelled() and warming.exception() is not None:
        log.info("the painting process could not paint its first hand: %s",
                 warming.exception())


def _leave_with(bot_pid: int) -> None:
    """In the painting process: end as soon as the bot's process is gone (killed, say), which
    a worker waiting for its next picture would not notice; it would hold the bot's output
    open and live on. Stop signals are the bot's alone (:mod:`bot.workers`)."""
    quiet()
    def watch() -> None:
        while os.getppid() == bot_pid:
            time.sleep(PARENT_CHECK)
        os._exit(0)
    threading.Thread(target=watch, name="leave-with-bot", daemon=True).start()
