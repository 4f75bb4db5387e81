"""The painter (bot.present.painter): the pictures of play painted in a process of their own
are the thread's to the byte, and a painting process that dies costs no picture."""

import multiprocessing
import os
import signal

from bot.present.painter import Painter
from bot.present.screens.group import draw_table
from bot.present.screens.seat import SeatMarks, draw_hand
from engine.rules import get_rule_set
from engine.state import Hand

NAMES = ("甲", "乙", "丙")


def pictures() -> list[tuple[object, ...]]:
    rules = get_rule_set("qq")
    hand = Hand.new(rules, seed=7, dealer=0)
    marks = SeatMarks(frozenset({1}), frozenset({2}))
    return [(draw_table, hand.public_view(), NAMES, "zh", marks),
            (draw_hand, hand.private_view(0), NAMES, "en", marks, rules)]


def painters() -> set[int]:
    return {p.pid for p in multiprocessing.active_children() if p.pid is not None}


async def test_a_process_paints_the_threads_pictures_and_a_dead_one_is_replaced():
    thread, process = Painter(), Painter(process=True)
    before = painters()
    try:
        for draw, *args in pictures():
            assert await process.paint_play(draw, *args) == await thread.paint(draw, *args)
        started = painters() - before
        assert len(started) == 1, "one painting process"
        os.kill(started.pop(), signal.SIGKILL)
        draw, *args = pictures()[0]
        expected = await thread.paint(draw, *args)
        assert await process.paint_play(draw, *args) == expected  # on the thread meanwhile
        assert await process.paint_play(draw, *args) == expected
        assert len(painters() - before) == 1, "a new process paints again"
    finally:
        thread.shutdown()
        process.shutdown()


async def test_without_a_process_the_thread_paints():
    painter = Painter()
    before = painters()
    try:
        draw, *args = pictures()[0]
        assert (await painter.paint_play(draw, *args)).startswith(b"\xff\xd8")  # a JPEG
        assert painters() == before
    finally:
        painter.shutdown()
