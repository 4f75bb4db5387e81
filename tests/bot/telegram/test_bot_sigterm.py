"""SIGTERM to ``make run``'s process group, as ``docker stop`` or systemd's stop of a unit
started with ``make run`` sends it: make passes it on to the bot, which so gets two; it
stops, its moves stored, within 10 s, every time, its painting process (and reviewing one)
living to the end of its stop. Each of five runs on the same store has a
new table playing on its own (a player in 托管 with two computers) when it is stopped, and
the tables the runs before it left.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path

from support.botproc import ROOT, fake_env
from support.fakebot import FakeTelegram

RUNS = 5
STOPPED_WITHIN = 10.0  # seconds


def moves(db: Path) -> int:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


async def make_run(tg: FakeTelegram, env: dict[str, str], log: Path) -> asyncio.subprocess.Process:
    """``make run`` in a process group of its own, with this venv (made already: ``-o``),
    until the bot polls."""
    venv = Path(sys.executable).parent.parent
    seen = len(tg.calls)
    with open(log, "ab") as out:
        proc = await asyncio.create_subprocess_exec(
            "make", "--no-print-directory", "-o", f"{venv}/.installed", "run", f"VENV={venv}",
            cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True)
    await tg.wait_for(lambda: any(c.method == "getUpdates" for c in tg.calls[seen:]),
                      timeout=60, what="the bot to poll")
    return proc


async def open_table(tg: FakeTelegram, run: int) -> None:
    """A player opens a table with two computers; it deals at once and plays on its own."""
    alice = tg.user(f"Alice{run}", language_code="zh-hans")
    group = tg.group(f"停机群{run}", members=(alice,))
    tg.start_private(alice)
    await tg.wait_reply(await tg.send_text(group, alice, "/new"))
    await tg.send_text(group, alice, "/addbot")
    await tg.send_text(group, alice, "/addbot")


async def test_sigterm_to_make_runs_process_group_stops_it_every_time(
        fake_tg: FakeTelegram, tmp_path: Path) -> None:
    db, log = tmp_path / "db.sqlite3", tmp_path / "bot.log"
    env = fake_env(fake_tg, DB_PATH=str(db), ACTION_TIMEOUT="1", AUTOPLAY_DELAY="0",
                   FULL_START_DELAY="0", READY_TIMEOUT="10", BOT_SEED="7")
    taken: list[float] = []
    for run in range(RUNS):
        proc = await make_run(fake_tg, env, log)
        try:
            before = moves(db)
            await open_table(fake_tg, run)
            await fake_tg.wait_for(lambda b=before: moves(db) > b + 3 or None, timeout=30,
                                   what="the table to play a few moves in this run")
            started = time.monotonic()
            os.killpg(proc.pid, signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), STOPPED_WITHIN)
            taken.append(time.monotonic() - started)
        finally:
            if proc.returncode is None:
                os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
        with closing(sqlite3.connect(db)) as conn:  # closed cleanly: whole and not locked
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert len(taken) == RUNS and max(taken) <= STOPPED_WITHIN, taken
    text = log.read_text(errors="replace")
    assert text.count("SIGTERM: stopping") == RUNS
    assert "Traceback" not in text, text[text.find("Traceback") - 2000:][:6000]
    # the painting and reviewing processes are the bot's to end, after its stop: the signal
    # to the group does not kill them under it
    assert "process died" not in text, text[text.find("process died") - 2000:][:4000]
