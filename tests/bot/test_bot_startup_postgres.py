"""On PostgreSQL (DATABASE_URL) a second process for the same bot token is refused at start:
one line on stderr, exit 2; the first keeps serving."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from support.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


async def test_a_second_process_for_the_same_bot_refuses(
        fake_tg: FakeTelegram, fresh_postgres_url: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "WEBHOOK_"))}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=fake_tg.token, BOT_API_BASE_URL=fake_tg.base_url,
               DATABASE_URL=fresh_postgres_url, DB_PATH=str(tmp_path / "unused.sqlite3"))
    first = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await fake_tg.wait_for(lambda: any(c.method == "getUpdates" for c in fake_tg.calls),
                               timeout=30, what="the first bot polling")
        second = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(second.communicate(), timeout=30)
        bot_id = fake_tg.token.partition(":")[0]
        assert second.returncode == 2 and out == b""
        assert err.decode().splitlines() == [
            f"paohuzi-bot: bot {bot_id} is served by another running paohuzi-bot on"
            " DATABASE_URL; stop it first (one process per bot token)"]

        alice = fake_tg.user("Alice")
        reply = await fake_tg.wait_reply(await fake_tg.send_text(alice, alice, "/start"))
        assert reply.text.startswith("你好,Alice")
    finally:
        first.send_signal(signal.SIGINT)
        await asyncio.wait_for(first.communicate(), timeout=30)
    assert first.returncode == 0
    assert not (tmp_path / "unused.sqlite3").exists()  # DB_PATH is not claimed beside it
