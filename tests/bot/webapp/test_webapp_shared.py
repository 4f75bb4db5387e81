"""One live seat server for two bots on one PostgreSQL store (``python -m bot webapp``), each
bot a process of its own (``python -m bot`` with WEBAPP_URL and no WEBAPP_PORT), one fake Bot
API serving both: a page of each bot's table is sent its seat's view, sees a move made on its
page reach the other seats' pages (the bot's change announced, the server reloading the table
from the store), and each page's press is applied by its table's own bot; an open page holds
its seat's private picture back until it closes. Init data is checked for the right bot:
another bot's user is not seated here (403), a token the server does not serve is refused
(401). The notification connections lost (their backends killed), every process connects
again and the pages go on."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import aiohttp
import asyncpg
from prometheus_client.parser import text_string_to_metric_families
from support.botproc import ROOT, fake_env, start_bot, stop_bot
from support.chooser import choice
from support.fakebot import FakeTelegram
from support.pgtables import Table, stored
from support.webapp import edits_to, free_port, init_data

from bot.i18n import t
from engine import actions as A

SEED = 20261202
TOKEN_B = "7000000002:AAFakeTokenForTestsOnly_zyxwvutsrqp"
UNSERVED = "7000000003:AAFakeTokenForTestsOnly_unserved00"


async def start_webapp(env: dict[str, str], base: str, log: Path) -> asyncio.subprocess.Process:
    """``python -m bot webapp``, once its page answers."""
    with open(log, "ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "webapp", cwd=log.parent, env=env, stdout=out,
            stderr=out)
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            try:
                async with http.get(base) as r:
                    if r.status == 200:
                        return proc
            except aiohttp.ClientError:
                pass
            assert proc.returncode is None, log.read_text()
            await asyncio.sleep(0.1)
    proc.kill()
    raise AssertionError("the shared live seat server did not start: " + log.read_text())


async def next_view(ws: aiohttp.ClientWebSocketResponse, different_from: dict | None = None,
                    timeout: float = 20.0) -> dict:
    """The next view the page is sent (one unlike ``different_from``)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await ws.receive()
            assert msg.type == aiohttp.WSMsgType.TEXT, (msg, ws.close_code)
            view = json.loads(msg.data)
            if different_from is None or view != different_from:
                return view


async def next_version(ws: aiohttp.ClientWebSocketResponse, view: dict,
                       timeout: float = 20.0) -> dict:
    """The next view the page is sent of another decision than ``view``'s (views of the same
    one may come between: the clock's seconds, a mark)."""
    async with asyncio.timeout(timeout):
        while (new := await next_view(ws, view))["version"] == view["version"]:
            view = new
        return new


async def play_one_move(http: aiohttp.ClientSession, base: str, db: asyncpg.Connection,
                        table: Table) -> None:
    """The seat to act moves on its page; another seat's page sees it; the store has it."""
    token = table.tg.token
    await table.dms_current(db)  # every seat's picture sent first
    state = await stored(db, table.id)
    seat, action = choice(state.hand)
    mover, watcher = table.players[seat], table.players[(seat + 1) % 3]
    third = table.players[(seat + 2) % 3]  # plays by the pictures
    async with http.ws_connect(base + "ws") as mine, http.ws_connect(base + "ws") as theirs:
        await mine.send_str(init_data(token, mover.id, mover.first_name))
        await theirs.send_str(init_data(token, watcher.id, watcher.first_name))
        view, seen = await next_view(mine), await next_view(theirs)
        held, others = edits_to(table.tg, watcher), edits_to(table.tg, third)
        assert view["table"] == table.id and view["seat"] == seat
        assert view["my_hand"] == list(state.hand.private_view(seat).hand)
        labels = [m["label"] for m in view["moves"]]
        assert sorted(labels) == sorted(A.label(a, "zh") for a in state.hand.legal_actions(seat))
        press = {"version": view["version"], "index": labels.index(A.label(action, "zh"))}
        async with http.post(base + "api/move", json=press, headers={
                "Authorization": "tma " + init_data(token, mover.id, mover.first_name)}) as r:
            assert r.status == 200, await r.text()
            answer = (await r.json())["text"]
        assert answer in (t("zh", "played", move=A.label(action, "zh")),
                          t("zh", "claim_pending", move=A.label(action, "zh")))
        assert (await stored(db, table.id)).log == [*state.log, (seat, action)]
        after = await next_view(theirs, seen)  # pushed across processes
        assert (after["offer"], after["seats"]) != (seen["offer"], seen["seats"])
        again = await next_version(mine, view)  # his own page: his decision is gone
        assert again["version"] != view["version"]
        # the same press again is told what became of it; a press of a keyboard never shown
        # is refused by the bot with its words: nothing changes
        async with http.post(base + "api/move", json=press, headers={
                "Authorization": "tma " + init_data(token, mover.id, mover.first_name)}) as r:
            assert r.status == 200
        async with http.post(base + "api/move", json={"version": 10**6, "index": 0}, headers={
                "Authorization": "tma " + init_data(token, watcher.id)}) as r:
            assert r.status == 409 and (await r.json())["text"]
        assert (await stored(db, table.id)).log == [*state.log, (seat, action)]
        # the bot was told the pages are open: the third seat's picture follows the move,
        # the watcher's waits
        await table.tg.wait_for(lambda: edits_to(table.tg, third) > others, timeout=20,
                                what="the third seat's picture")
        assert edits_to(table.tg, watcher) == held
    # the pages closed: the watcher's picture is brought up to date
    await table.tg.wait_for(lambda: edits_to(table.tg, watcher) > held, timeout=20,
                            what="the watcher's picture to catch up")


SIGNALS = "application_name = 'paohuzi-bot signals'"


async def lose_signals(db: asyncpg.Connection, processes: int = 3) -> None:
    """Kill the notification connections' backends, then wait until each process has its
    own again, listening (its last statement a LISTEN)."""
    killed = await db.fetchval(f"SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity"
                               f" WHERE {SIGNALS}")
    assert killed == processes
    async with asyncio.timeout(20):
        while await db.fetchval(f"SELECT COUNT(*) FROM pg_stat_activity WHERE {SIGNALS} AND"
                                " state = 'idle' AND query LIKE 'LISTEN%'") < processes:
            await asyncio.sleep(0.05)


async def test_one_server_for_two_bots(fake_tg: FakeTelegram, fresh_postgres_url: str,
                                       tmp_path: Path) -> None:
    tg_a, tg_b = fake_tg, fake_tg.another_bot(TOKEN_B, "PaohuziSecondBot")
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    settings = {"DATABASE_URL": fresh_postgres_url, "BOT_SEED": str(SEED),
                "ACTION_TIMEOUT": "600", "DB_PATH": str(tmp_path / "unused.sqlite3"),
                "WEBAPP_URL": base}
    a = await start_bot(tg_a, tmp_path, fake_env(tg_a, **settings), log=tmp_path / "a.log")
    b = await start_bot(tg_b, tmp_path, fake_env(tg_b, **settings), log=tmp_path / "b.log")
    metrics_port = free_port()
    web_env = {**fake_env(tg_a, **settings), "WEBAPP_PORT": str(port),
               "WEBAPP_TOKENS": f"{tg_a.token},{tg_b.token}", "PYTHONPATH": str(ROOT),
               "METRICS_PORT": str(metrics_port)}
    del web_env["BOT_TOKEN"]
    web = await start_webapp(web_env, base, tmp_path / "web.log")
    db = await asyncpg.connect(fresh_postgres_url)
    try:
        tables = []
        for tg, group_name, names in ((tg_a, "甲群", ("Alice", "Bob", "Carol")),
                                      (tg_b, "乙群", ("Dave", "Erin", "Frank"))):
            users = [tg.user(n) for n in names]
            for user in users:
                tg.start_private(user)
            table = Table(tg, tg.group(group_name, members=users), users)
            await table.open(db)
            await table.begin()
            tables.append(table)
        async with aiohttp.ClientSession() as http:
            await play_one_move(http, base, db, tables[0])
            await lose_signals(db)  # every process connects again and listens again
            await play_one_move(http, base, db, tables[1])

            async def seat_status(token: str, user_id: int) -> int:
                async with http.get(base + "api/seat", headers={
                        "Authorization": "tma " + init_data(token, user_id)}) as r:
                    return r.status

            alice, dave = tables[0].players[0], tables[1].players[0]
            assert await seat_status(tg_a.token, alice.id) == 200
            assert await seat_status(tg_b.token, alice.id) == 403  # seated at A's, not B's
            assert await seat_status(tg_b.token, dave.id) == 200
            assert await seat_status(UNSERVED, dave.id) == 401

            # its own health and metrics (METRICS_PORT): both bots' tables, the store's calls
            async with http.get(f"http://127.0.0.1:{metrics_port}/healthz") as r:
                assert (r.status, await r.text()) == (200, "ok\n")
            async with http.get(f"http://127.0.0.1:{metrics_port}/metrics") as r:
                found = {s.name: s for f in text_string_to_metric_families(await r.text())
                         for s in f.samples if s.labels.get("state") in (None, "playing")}
            assert found["paohuzi_tables"].value == 2
            assert found["paohuzi_store_call_seconds_count"].value > 0
            assert found["paohuzi_live_pages_open"].value == 0  # play_one_move's are closed
    finally:
        await db.close()
        web.terminate()
        await asyncio.wait_for(web.wait(), 30)
        for proc in (a, b):
            if proc.returncode is None:
                await stop_bot(proc)
