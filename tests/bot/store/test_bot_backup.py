"""``python -m bot backup DEST`` while a table plays, ``python -m bot restore SRC`` into a new
store, and the bot started on the restored store: the table resumes from the moves the
backup holds, which are the first moves the playing bot stored, and plays its hand out."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

from support.botproc import ROOT, fake_env
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.outage import LOG_SQL, hand_with_tuoguan, moves_of


def stored(db: Path, table_id: int) -> list[tuple[int, str]]:
    with closing(sqlite3.connect(db)) as conn:
        return moves_of(conn.execute(LOG_SQL.format("?"), (table_id,)).fetchall())


async def command(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT / "tests", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_a_backup_taken_while_a_table_plays_restores_and_the_table_resumes(
        tg: FakeTelegram, tmp_path: Path) -> None:
    db, copy, restored = tmp_path / "db.sqlite3", tmp_path / "backup.sqlite3", \
        tmp_path / "restored" / "db.sqlite3"
    restored.parent.mkdir()
    # moves 0.3 s apart: the hand is still on when the backup is taken, a second or so in
    config = make_config(tg, db, action_timeout=0.5, autoplay_delay=0.3)
    async with running_bot(config) as app:
        _alice, _group, table = await hand_with_tuoguan(tg, app)
        table_id = table.id
        code, out, err = await command(fake_env(tg, DB_PATH=str(db)), "backup", str(copy))
        assert (code, err) == (0, ""), err
        assert out.startswith(f"backup: {copy} (") and out.endswith(": 1 tables, 1 hands\n")
        backed_up = stored(copy, table_id)
        # the moves go on meanwhile: the backup is the store as it was at one commit
        assert table.status == "playing"
        await tg.wait_for(lambda: len(stored(db, table_id)) > len(backed_up) or None,
                          timeout=20, what="more moves after the backup")
    assert stored(db, table_id)[:len(backed_up)] == backed_up

    env = fake_env(tg, DB_PATH=str(restored))
    code, out, err = await command(env, "restore", str(copy))
    assert (code, err) == (0, ""), err
    assert out.endswith(": 1 tables, 1 hands\n")
    assert stored(restored, table_id) == backed_up
    code, _, err = await command(env, "restore", str(copy))  # never over a store
    assert code == 2 and "holds a store already" in err

    async with running_bot(make_config(tg, restored, action_timeout=0.5)) as app:
        table = services(app).service.registry.find(table_id)
        assert table is not None and table.current is not None
        assert table.current.hand.log[:len(backed_up)] == backed_up
        await tg.wait_for(lambda: table.status == "between" or None, timeout=60,
                          what="the restored table to play its hand out")
        await services(app).presenter.idle()
    assert len(stored(restored, table_id)) > len(backed_up)


async def test_backup_refuses_an_existing_file_and_what_is_no_store(
        fake_tg: FakeTelegram, tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    env = fake_env(fake_tg, DB_PATH=str(tmp_path / "db.sqlite3"))
    code, _, err = await command(env, "backup", str(taken))
    assert code == 2 and err.startswith(f"paohuzi-bot: backup: {taken} exists already")
    assert taken.read_text() == "keep me"
    code, _, err = await command(env, "backup", str(tmp_path / "new"))
    assert code == 2 and "no such file" in err
    code, _, err = await command({**env, "DB_PATH": str(taken)}, "backup",
                                 str(tmp_path / "new"))
    assert code == 2 and "not a usable SQLite database" in err
    assert not (tmp_path / "new").exists()
