"""An operator's move from SQLite to PostgreSQL, end to end through the fake Bot API: hands
played on SQLite, the bot stopped, ``python -m bot copy-store`` run as the operator would,
the bot started on PostgreSQL: /history and /me answer exactly as before, and the table
that was open plays on."""

from __future__ import annotations

import random
import subprocess
import sys

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram, FakeUser
from support.play import play_hand, start_hand

from bot.table import TableStatus


async def _answers(tg: FakeTelegram, app, group, user: FakeUser) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(/history's text, /me's caption) as the group reads them now."""
    await services(app).presenter.idle()
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

    on_postgres = make_config(tg, tmp_path / "unused.sqlite3", database_url=fresh_postgres_url)
    async with running_bot(on_postgres) as app:
        assert await _answers(tg, app, group, users[0]) == before
        table = services(app).service.in_chat(group.id)
        assert table is not None and table.id == table_id and table.status == TableStatus.BETWEEN
        for user in users:  # 再来一局 deals the table's second hand, now on PostgreSQL
            await services(app).service.again(table.id, user.id)
        assert table.status == TableStatus.PLAYING and table.current.table_no == 2
