"""Two bots, two processes (``python -m bot``, two tokens) on one PostgreSQL, one fake Bot API
serving both: a player seated at one bot's table is refused a seat at the other's; one bot
killed (SIGKILL) mid-hand leaves the other playing on, and restarted resumes its hand exactly
where it was; /me under either bot counts the hands played under both; a second process on
a running bot's token is refused.

The players press what a deterministic chooser (``engine.player``) picks for the lowest
awaited seat, read from the database the bots commit to, on the button their DM with that
bot shows; so each hand can be checked against the engine alone playing the same deal with
the same choices (an uninterrupted run).
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import asyncpg
from support.botproc import fake_env, refused_start, start_bot, stop_bot
from support.chooser import reference
from support.fakebot import FakeTelegram
from support.pgtables import Stored, Table, stored

from bot.commands.stats import win_rate
from bot.i18n import t

SEED = 20261201
TOKEN_B = "7000000002:AAFakeTokenForTestsOnly_zyxwvutsrqp"


async def closed(db: asyncpg.Connection, table_id: int) -> None:
    """Wait (10 s at most) until the table is closed in the database."""
    for _ in range(100):
        if await db.fetchval("SELECT status FROM tables WHERE id = $1", table_id) == "closed":
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table_id} was not closed")


def check_finished(state: Stored) -> None:
    """The hand ended exactly as the engine alone plays it with the same choices."""
    ref = reference(state.seed, state.dealer)
    assert state.log == ref.log and state.hand_status == "done"


async def test_two_bots_share_players_and_survive_each_other(
        fake_tg: FakeTelegram, fresh_postgres_url: str, tmp_path: Path) -> None:
    tg_a, tg_b = fake_tg, fake_tg.another_bot(TOKEN_B, "PaohuziSecondBot")
    settings = {"DATABASE_URL": fresh_postgres_url, "BOT_SEED": str(SEED),
                "ACTION_TIMEOUT": "600", "DB_PATH": str(tmp_path / "unused.sqlite3")}
    env_a, env_b = fake_env(tg_a, **settings), fake_env(tg_b, **settings)
    a = await start_bot(tg_a, tmp_path, env_a, log=tmp_path / "a.log")
    b = await start_bot(tg_b, tmp_path, env_b, log=tmp_path / "b.log")
    db = await asyncpg.connect(fresh_postgres_url)
    try:
        assert await refused_start(tmp_path, env_a) == [  # the same token twice
            f"paohuzi-bot: bot {tg_a.bot.id} is served by another running paohuzi-bot on"
            " DATABASE_URL; stop it first (one process per bot token)"]

        alice, bob, carol, grace = (tg_a.user(n) for n in ("Alice", "Bob", "Carol", "Grace"))
        dave, erin = tg_b.user("Dave"), tg_b.user("Erin")
        alice_b = tg_b.same_user(alice)  # one person, who opened both bots' private chats
        for tg, user in ((tg_a, alice), (tg_a, bob), (tg_a, carol), (tg_a, grace),
                         (tg_b, alice_b), (tg_b, dave), (tg_b, erin)):
            tg.start_private(user)
        group_a = tg_a.group("甲群", members=(alice, bob, carol, grace))
        group_b = tg_b.group("乙群", members=(alice_b, dave, erin))

        first_a = Table(tg_a, group_a, [alice, bob, carol])
        await first_a.open(db)
        at_b = Table(tg_b, group_b, [dave, erin])
        await at_b.open(db)
        # seated at A's table: at B's she gets the refusal of a second seat, and nothing changes
        assert await at_b.join(alice_b) == t("zh", "seated_elsewhere")
        assert await db.fetchval("SELECT COUNT(*) FROM seats WHERE table_id = $1", at_b.id) == 2

        await first_a.begin()
        check_finished(await first_a.play_until(db))
        await tg_a.send_text(group_a, alice, "/stop")  # between hands: it closes at once
        await closed(db, first_a.id)

        assert await at_b.join(alice_b) == t("zh", "ok")  # free now
        at_b.players.append(alice_b)
        await at_b.begin()
        second_a = Table(tg_a, group_a, [bob, carol, grace])
        await second_a.open(db)
        await second_a.begin()
        await at_b.play_until(db, lambda h: len(h.log) >= 3)
        before = await second_a.play_until(db, lambda h: len(h.log) >= 6)

        assert await stop_bot(a, signal.SIGKILL) == -signal.SIGKILL
        check_finished(await at_b.play_until(db))  # B plays on without A
        assert (await stored(db, second_a.id)).log == before.log

        a = await start_bot(tg_a, tmp_path, env_a, log=tmp_path / "a.log")
        assert (await stored(db, second_a.id)).log == before.log
        await second_a.dms_current(db)  # its hand exactly where it was
        check_finished(await second_a.play_until(db))

        points, hands, wins = await db.fetchrow(
            "SELECT SUM(r.points), COUNT(*), COUNT(*) FILTER (WHERE r.seat = h.winner)"
            " FROM results r JOIN hands h ON h.id = r.hand_id WHERE r.user_id = $1", alice.id)
        assert hands == 2
        total = t("zh", "me_total", points=points, hands=hands, wins=wins,
                  rate=win_rate(hands, wins))
        for tg, user in ((tg_a, alice), (tg_b, alice_b)):  # either bot counts both hands
            reply = await tg.wait_reply(await tg.send_text(user, user, "/me"), timeout=20)
            assert total in (reply.caption or reply.text or "")
    finally:
        await db.close()
        for proc in (a, b):
            if proc.returncode is None:
                await stop_bot(proc)

