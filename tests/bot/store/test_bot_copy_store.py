"""An operator's move from SQLite to PostgreSQL, end to end through the fake Bot API: hands
played on SQLite, the bot stopped, ``python -m bot copy-store`` run as the operator would,
the bot started on PostgreSQL: /history and /me answer exactly as before, and the table
that was open plays on. And what copy-store refuses, in one line: a missing source, a file
that is not a store, a store a bot runs on, a wrong password, a missing database."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from support.botproc import bot_env, fake_env, start_bot, stop_bot
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram, FakeUser
from support.play import play_hand, start_hand

from bot.store import open_store
from bot.store.copy import TABLES
from bot.table import TableStatus


async def _answers(tg: FakeTelegram, app, group, user: FakeUser) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(/history's text, /me's caption) as the group reads them now (the skill ratings
    folded as far as the store goes: /me shows them)."""
    await services(app).presenter.idle()
    rater = services(app).rater
    assert rater is not None
    await rater.catch_up()
    history = await tg.wait_reply(await tg.send_text(group, user, "/history"))
    me = await tg.wait_reply(await tg.send_text(group, user, "/me"))
    return history.text or "", me.caption or ""


async def test_copy_store_moves_a_bot_to_postgresql_with_history_and_me_unchanged(
        tg: FakeTelegram, tmp_path, fresh_postgres_url: str) -> None:
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db)) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await play_hand(tg, app, users, group, random.Random(4))
        before = await _answers(tg, app, group, users[0])
        table_id = table.id
    assert "第 1 桌第 1 局" in before[0] and before[1]

    copied = subprocess.run(
        [sys.executable, "-m", "bot", "copy-store", f"sqlite:///{db}", fresh_postgres_url],
        capture_output=True, text=True, timeout=120)
    assert copied.returncode == 0, copied.stderr
    assert "hands: 1" in copied.stdout.splitlines()
    assert copied.stdout.splitlines()[-1].startswith("copied ")
    assert copied.stdout.splitlines()[-1].endswith(
        f" rows in {len(TABLES)} tables from sqlite:///{db} to {fresh_postgres_url}")

    on_postgres = make_config(tg, tmp_path / "unused.sqlite3", database_url=fresh_postgres_url)
    async with running_bot(on_postgres) as app:
        assert await _answers(tg, app, group, users[0]) == before
        table = services(app).service.in_chat(group.id)
        assert table is not None and table.id == table_id and table.status == TableStatus.BETWEEN
        for user in users:  # 再来一局 deals the table's second hand, now on PostgreSQL
            await services(app).service.again(table.id, user.id)
        assert table.status == TableStatus.PLAYING and table.current.table_no == 2


# --- what copy-store refuses: one line, exit 2, nothing created or touched -------------------

def _copy_store(cwd: Path, source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "copy-store", source, target],
                          cwd=cwd, env=bot_env("", ""), capture_output=True, text=True,
                          timeout=120)


def _refused(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout)
    [line] = done.stderr.splitlines()
    assert line.startswith("paohuzi-bot: copy-store: ")
    return line.removeprefix("paohuzi-bot: copy-store: ")


def test_a_missing_source_is_refused_and_not_created(tmp_path: Path) -> None:
    source, target = tmp_path / "typo.sqlite3", tmp_path / "new.sqlite3"
    line = _refused(_copy_store(tmp_path, f"sqlite:///{source}", f"sqlite:///{target}"))
    assert line == f"the source {source} does not exist"
    assert not source.exists() and not target.exists()


def test_a_file_that_is_not_a_store_is_refused_untouched(tmp_path: Path) -> None:
    notes, empty_db = tmp_path / "notes.txt", tmp_path / "other.sqlite3"
    notes.write_text("shopping list\n" * 100)
    with closing(sqlite3.connect(empty_db)) as db:
        db.execute("CREATE TABLE things (x)")
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (notes, empty_db)}
    target = tmp_path / "new.sqlite3"
    assert _refused(_copy_store(tmp_path, str(notes), f"sqlite:///{target}")) == (
        f"the source {notes} is not a paohuzi store (file is not a database)")
    assert _refused(_copy_store(tmp_path, str(empty_db), str(target))) == (
        f"the source {empty_db} is not a paohuzi store (an SQLite file without its tables)")
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in before} == before
    assert sorted(tmp_path.iterdir()) == [notes, empty_db]  # no -wal, -shm, nor target


async def test_a_source_a_bot_runs_on_is_refused(fake_tg: FakeTelegram, tmp_path: Path,
                                                 fresh_postgres_url: str) -> None:
    db = tmp_path / "db.sqlite3"
    bot = await start_bot(fake_tg, tmp_path, fake_env(fake_tg, DB_PATH=str(db)))
    try:
        assert _refused(_copy_store(tmp_path, str(db), fresh_postgres_url)) == (
            f"a paohuzi-bot is running on the source {db}; stop it first")
    finally:
        assert await stop_bot(bot) == 0
    on_postgres = fake_env(fake_tg, DATABASE_URL=fresh_postgres_url, DB_PATH=str(db))
    bot = await start_bot(fake_tg, tmp_path, on_postgres)
    try:
        target = tmp_path / "copy.sqlite3"
        assert _refused(_copy_store(tmp_path, fresh_postgres_url, str(target))) == (
            f"a paohuzi-bot is running on the source {fresh_postgres_url}; stop it first")
        assert not target.exists()
    finally:
        assert await stop_bot(bot) == 0


def test_a_wrong_password_or_a_missing_database_is_one_line(
        tmp_path: Path, wrong_password_url: str, postgres_server: str) -> None:
    target = tmp_path / "new.sqlite3"
    line = _refused(_copy_store(tmp_path, wrong_password_url, str(target)))
    assert line.startswith("the source postgresql://paohuzi_pw:***@")
    assert line.endswith('the password was refused (password authentication failed for user'
                         ' "paohuzi_pw")')
    missing = postgres_server.rsplit("/", 1)[0] + "/no_such_db"
    assert _refused(_copy_store(tmp_path, str(target), missing)) == (
        f"the source {target} does not exist")
    db = tmp_path / "db.sqlite3"
    asyncio.run(_empty_store(db))
    assert _refused(_copy_store(tmp_path, str(db), missing)) == (
        f'the destination {missing}: database "no_such_db" does not exist (create it: see'
        ' docs/operators.md, PostgreSQL)')
    assert not target.exists()


async def _empty_store(path: Path) -> None:
    await (await open_store(path)).close()
