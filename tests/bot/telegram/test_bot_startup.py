"""Start-up errors: an unusable DB_PATH and a second bot on the same database are one line on
stderr and exit 2, never a traceback; an unreachable Bot API is one line per attempt."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.botproc import bot_env, fake_env, free_port, refused_start, start_bot, stop_bot
from support.fakebot import FakeTelegram

from bot.claim import StartupError, claim_database

GOOD = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp_-x"


def _env(db_path: Path) -> dict[str, str]:
    return bot_env(GOOD, "http://127.0.0.1:9/bot", DB_PATH=str(db_path))


def _run(tmp_path: Path, db_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=_env(db_path),
                          capture_output=True, text=True, timeout=60)


def _one_line_naming(done: subprocess.CompletedProcess[str], path: Path, words: str) -> None:
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"paohuzi-bot: DB_PATH {path}")
    assert words in line


def test_missing_directory(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "dir" / "db.sqlite3"
    _one_line_naming(_run(tmp_path, path), path, f"the directory {path.parent} does not exist")
    assert not path.parent.exists()


def test_a_directory_nobody_may_write_in(tmp_path: Path) -> None:
    """sysfs refuses new files to everyone, root included (chmod does not stop root)."""
    path = Path("/sys/paohuzi.sqlite3")
    _one_line_naming(_run(tmp_path, path), path, "cannot be opened for writing: Permission denied")


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "data"
    path.mkdir()
    _one_line_naming(_run(tmp_path, path), path, "cannot be opened for writing")


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just some notes that happen to be long enough\n" * 20)
    _one_line_naming(_run(tmp_path, path), path, "is not a usable SQLite database")
    assert path.read_text().startswith("not a database")  # left as it was


def test_claim_locks_the_database_until_released(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    fd = claim_database(path)
    try:
        with pytest.raises(StartupError, match="in use by another running paohuzi-bot"):
            claim_database(path)
    finally:
        os.close(fd)
    os.close(claim_database(path))  # free again once the first holder is gone


async def test_a_second_bot_on_the_same_database_refuses(fake_tg: FakeTelegram,
                                                         tmp_path: Path) -> None:
    """Both would otherwise answer every press. The first keeps serving."""
    path = tmp_path / "db.sqlite3"
    env = fake_env(fake_tg, DB_PATH=str(path))
    first = await start_bot(fake_tg, tmp_path, env)
    try:
        assert await refused_start(tmp_path, env) == [
            f"paohuzi-bot: DB_PATH {path} is in use by another running paohuzi-bot; "
            "stop it first (one bot per database)"]

        alice = fake_tg.user("Alice")
        reply = await fake_tg.wait_reply(await fake_tg.send_text(alice, alice, "/start"))
        assert reply.text.startswith("你好,Alice")
    finally:
        assert await stop_bot(first) == 0


async def test_an_unreachable_bot_api_is_one_line_per_attempt_with_backoff(
        tmp_path: Path) -> None:
    """No network (here: nothing listens at BOT_API_BASE_URL): the bot names the address and
    tries again, further apart each time, without a traceback, until it is stopped."""
    base = f"http://127.0.0.1:{free_port()}/bot"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path,
        env=bot_env(GOOD, base, DB_PATH=str(tmp_path / "db.sqlite3")),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stderr is not None
    lines, seen = [], []
    try:
        for _ in range(3):  # attempts about 0, 1 and 3 s after the start
            lines.append((await asyncio.wait_for(proc.stderr.readline(), 30)).decode())
            seen.append(time.monotonic())
        assert proc.returncode is None  # still trying
    finally:
        proc.terminate()
        _, rest = await asyncio.wait_for(proc.communicate(), 30)
    for line, wait in zip(lines, ("1", "2", "4"), strict=True):
        assert f"WARNING bot.telegram.reach: cannot reach the Bot API at {base} (" in line
        assert line.rstrip().endswith(f"; retrying in {wait} s")
    assert seen[2] - seen[1] >= 1.5  # waits grow
    assert b"Traceback" not in rest and GOOD not in "".join(lines)


async def test_a_token_the_bot_api_refuses_is_one_line(fake_tg: FakeTelegram,
                                                       tmp_path: Path) -> None:
    env = bot_env(GOOD, fake_tg.base_url, DB_PATH=str(tmp_path / "db.sqlite3"))
    assert fake_tg.token != GOOD
    assert await refused_start(tmp_path, env) == [
        f"paohuzi-bot: the Bot API at {fake_tg.base_url} refuses BOT_TOKEN (revoked or"
        " mistyped? or BOT_API_BASE_URL is not a Bot API)"]


async def test_log_format_json_is_one_json_object_a_line(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{free_port()}/bot"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path,
        env=bot_env(GOOD, base, DB_PATH=str(tmp_path / "db.sqlite3"), LOG_FORMAT="json"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stderr is not None
    try:
        line = (await asyncio.wait_for(proc.stderr.readline(), 30)).decode()
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.communicate(), 30)
    record = json.loads(line)
    assert record.keys() == {"time", "level", "logger", "message"}
    assert (record["level"], record["logger"]) == ("WARNING", "bot.telegram.reach")
    assert record["message"].startswith(f"cannot reach the Bot API at {base} (")
    assert record["time"].endswith("+00:00")
