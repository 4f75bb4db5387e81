"""On PostgreSQL (DATABASE_URL) a second process for the same bot token is refused at start:
one line on stderr, exit 2; the first keeps serving, also after its guard's connection was
killed or the server restarted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
from support.botproc import fake_env, refused_start, start_bot, stop_bot
from support.fakebot import FakeTelegram
from support.postgres import Server, guard_holder, guard_moved, take_guard_over


async def test_a_second_process_for_the_same_bot_refuses(
        fake_tg: FakeTelegram, fresh_postgres_url: str, tmp_path: Path) -> None:
    env = fake_env(fake_tg, DATABASE_URL=fresh_postgres_url,
                   DB_PATH=str(tmp_path / "unused.sqlite3"))
    first = await start_bot(fake_tg, tmp_path, env)
    try:
        bot_id = fake_tg.token.partition(":")[0]
        assert await refused_start(tmp_path, env) == [
            f"paohuzi-bot: bot {bot_id} is served by another running paohuzi-bot on"
            " DATABASE_URL; stop it first (one process per bot token)"]

        alice = fake_tg.user("Alice")
        reply = await fake_tg.wait_reply(await fake_tg.send_text(alice, alice, "/start"))
        assert reply.text.startswith("你好,Alice")
    finally:
        assert await stop_bot(first) == 0
    assert not (tmp_path / "unused.sqlite3").exists()  # DB_PATH is not claimed beside it


async def test_the_guard_holds_after_its_connection_is_killed(
        fake_tg: FakeTelegram, fresh_postgres_url: str, tmp_path: Path) -> None:
    """The server drops a session's advisory lock with its connection; the running bot takes
    it again on a new one, so a second process is still refused."""
    env = fake_env(fake_tg, DATABASE_URL=fresh_postgres_url,
                   DB_PATH=str(tmp_path / "unused.sqlite3"))
    bot_id = int(fake_tg.token.partition(":")[0])
    first = await start_bot(fake_tg, tmp_path, env, log=tmp_path / "first.log")
    admin = await asyncpg.connect(fresh_postgres_url)
    try:
        killed = await guard_holder(admin, bot_id)
        assert killed is not None
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", killed)
        await guard_moved(admin, bot_id, killed)
        assert await refused_start(tmp_path, env) == [
            f"paohuzi-bot: bot {bot_id} is served by another running paohuzi-bot on"
            " DATABASE_URL; stop it first (one process per bot token)"]
    finally:
        await admin.close()
        assert await stop_bot(first) == 0
    log = (tmp_path / "first.log").read_text()
    assert "lock was lost; taking the lock again" in log and "Traceback" not in log


async def test_the_guard_holds_after_the_server_restarts(
        fake_tg: FakeTelegram, own_postgres: Server, tmp_path: Path) -> None:
    """A crash and restart (``pg_ctl restart -m immediate``) drops every session's advisory
    lock at once: the running bot takes its own again once the server is back, so a second
    process is still refused."""
    env = fake_env(fake_tg, DATABASE_URL=own_postgres.url,
                   DB_PATH=str(tmp_path / "unused.sqlite3"))
    bot_id = int(fake_tg.token.partition(":")[0])
    first = await start_bot(fake_tg, tmp_path, env, log=tmp_path / "first.log")
    try:
        admin = await asyncpg.connect(own_postgres.url)
        try:
            gone = await guard_holder(admin, bot_id)
        finally:
            await admin.close()
        assert gone is not None
        await asyncio.to_thread(own_postgres.restart)
        admin = await asyncpg.connect(own_postgres.url)
        try:
            await guard_moved(admin, bot_id, gone)
        finally:
            await admin.close()
        assert await refused_start(tmp_path, env) == [
            f"paohuzi-bot: bot {bot_id} is served by another running paohuzi-bot on"
            " DATABASE_URL; stop it first (one process per bot token)"]
        alice = fake_tg.user("Alice")  # and the first serves on
        reply = await fake_tg.wait_reply(await fake_tg.send_text(alice, alice, "/start"))
        assert reply.text.startswith("你好,Alice")
    finally:
        assert await stop_bot(first) == 0
    log = (tmp_path / "first.log").read_text()
    assert "lock was lost; taking the lock again" in log and "Traceback" not in log


async def test_a_bot_whose_guard_was_taken_meanwhile_stops(
        fake_tg: FakeTelegram, fresh_postgres_url: str, tmp_path: Path) -> None:
    """Another process waiting for the lock gets it the moment the guard's connection dies:
    the running bot cannot take it again and stops, one line and exit 2."""
    env = fake_env(fake_tg, DATABASE_URL=fresh_postgres_url,
                   DB_PATH=str(tmp_path / "unused.sqlite3"))
    bot_id = int(fake_tg.token.partition(":")[0])
    bot = await start_bot(fake_tg, tmp_path, env)
    try:
        other = await take_guard_over(fresh_postgres_url, bot_id)
        _, err = await asyncio.wait_for(bot.communicate(), timeout=30)
        await other.close()
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    assert bot.returncode == 2
    assert err.decode().splitlines()[-1] == (
        f"paohuzi-bot: bot {bot_id} is now served by another paohuzi-bot on DATABASE_URL, which"
        " started while this one's connection to the database was away; this one stopped (one"
        " process per bot token)")
