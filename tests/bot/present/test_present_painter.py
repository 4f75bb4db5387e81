"""The painter (bot.present.painter): the pictures of play painted in a process of their own
are the thread's to the byte, and a painting process that dies costs no picture."""

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

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


BOT = """
import asyncio, multiprocessing
from bot.present.painter import Painter
from bot.present.screens.group import draw_table
from bot.present.screens.seat import SeatMarks
from engine.rules import get_rule_set
from engine.state import Hand

async def main():
    painter = Painter(process=True)
    view = Hand.new(get_rule_set("qq"), seed=7, dealer=0).public_view()
    await painter.paint_play(draw_table, view, ("A", "B", "C"), "zh", SeatMarks())
    print(multiprocessing.active_children()[0].pid, flush=True)
    await asyncio.sleep(60)

if __name__ == "__main__":  # not in the painting process, which imports this script again
    asyncio.run(main())
"""


async def test_a_picture_asked_for_after_shutdown_cancels_its_job():
    """A job under way when the bot stops, asking for a picture after the painter is shut
    down, is cancelled as the stopping bot's jobs are (the outbox logged the executor's
    refusal as an error)."""
    for painter in (Painter(), Painter(process=True)):
        painter.shutdown()
        draw, *args = pictures()[0]
        for paint in (painter.paint, painter.paint_play):
            with pytest.raises(asyncio.CancelledError):
                await paint(draw, *args)


def test_the_painting_process_ends_with_a_killed_bot(tmp_path):
    """A bot killed with -9 leaves no painter behind (it would hold the bot's output open)."""
    script = tmp_path / "killed.py"
    script.write_text(BOT)
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.Popen([sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        painter = int(proc.stdout.readline())
        proc.kill()
        proc.wait(10)
        deadline = time.monotonic() + 5
        while Path(f"/proc/{painter}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not Path(f"/proc/{painter}").exists(), "the painter outlived its bot"
        assert proc.stdout.read() == b""  # and nothing holds the output open
    finally:
        proc.kill()


async def test_warm_starts_the_process_with_its_drawing_loaded_before_any_picture():
    painter = Painter(process=True)
    before = painters()
    try:
        painter.warm()
        assert len(painters() - before) == 1, "started before any picture is asked"
        fonts = await painter.paint_play(
            eval, "__import__('render.fonts').fonts.font.cache_info().currsize")
        assert fonts > 0  # the first hand was painted there: its fonts are loaded
        draw, *args = pictures()[1]
        assert await painter.paint_play(draw, *args) == await Painter().paint(draw, *args)
        assert len(painters() - before) == 1, "the same process paints play"
    finally:
        painter.shutdown()
