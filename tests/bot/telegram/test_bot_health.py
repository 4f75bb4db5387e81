"""``/healthz`` and ``/metrics`` (METRICS_PORT, bot.metrics) of the running bot: 200 while
updates arrive and the store answers, 503 with the reason within 30 s of losing the Bot API
(the fake one stopped) or the store (its file locked by another process past the busy
timeout, as in tests/bot/store/test_bot_outage_sqlite.py), and back to 200 when the store is; the
metrics as Prometheus' own parser reads them."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from support.botproc import ROOT, fake_env, free_port
from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.outage import hand_with_tuoguan
from support.webapp import init_data

from bot.config import WebAppConfig
from bot.i18n import t
from bot.metrics import OK, outcome
from bot.store import sqlite as sqlite_store

WITHIN = 30.0  # seconds /healthz may take to say 503


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def until_status(port: int, status: int, within: float = WITHIN) -> str:
    """/healthz's body once it answers ``status``, which it must within ``within`` s."""
    deadline = time.monotonic() + within
    while True:
        got, body = await get(port, "/healthz")
        if got == status:
            return body
        assert time.monotonic() < deadline, (got, body)
        await asyncio.sleep(0.5)


async def healthcheck(port: int) -> tuple[int, str]:
    """``python -m bot healthcheck`` (a container's): its exit status and what it printed."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "healthcheck", cwd=ROOT / "tests",
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT),
             "METRICS_PORT": str(port)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


Samples = dict[str, list[tuple[dict[str, str], float]]]


def samples(text: str) -> tuple[set[str], Samples]:
    """The metrics as Prometheus' parser reads them: the families' names, and the samples by
    name (``paohuzi_updates_total``, ``paohuzi_store_call_seconds_count``…) with labels."""
    families, found = set(), {}
    for family in text_string_to_metric_families(text):
        families.add(family.name)
        for sample in family.samples:
            found.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return families, found


def value(found: Samples, name: str, **labels: str) -> float:
    """The sum of the samples ``name`` with those labels (0 if none)."""
    return sum(v for labs, v in found.get(name, [])
               if all(labs.get(k) == want for k, want in labels.items()))


async def metrics(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200
    return samples(text)[1]


async def test_healthz_says_503_when_the_bot_api_goes_away(tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    port = free_port()
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", metrics_port=port)):
        assert await get(port, "/healthz") == (200, "ok\n")
        assert await healthcheck(port) == (0, "ok\n")
        await tg.stop()  # connections to it refused from now on
        body = await until_status(port, 503)
        assert body.startswith("updates: the Bot API has not answered getUpdates for"), body
        code, out = await healthcheck(port)
        assert code == 1 and out.startswith("updates: the Bot API has not answered"), out
        found = await metrics(port)
        assert value(found, "paohuzi_bot_api_calls_total", method="getUpdates", outcome="error") > 0


async def test_healthz_says_503_while_the_store_is_away_and_200_once_it_is_back(
        tg: FakeTelegram, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 500)
    db, port = tmp_path / "db.sqlite3", free_port()
    async with running_bot(make_config(tg, db, action_timeout=0.5, metrics_port=port)) as app:
        alice, _group, table = await hand_with_tuoguan(tg, app)
        assert await get(port, "/healthz") == (200, "ok\n")
        other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        await asyncio.to_thread(other.execute, "BEGIN EXCLUSIVE")
        try:
            answer = await tg.press_button(hand_message(tg, alice), alice, "取消托管", timeout=20)
            assert answer.text == t("zh", "store_unavailable")
            body = await until_status(port, 503)
            assert body.startswith("store: unavailable (OperationalError: database is locked"), body
            found = await metrics(port)
            assert value(found, "paohuzi_store_failures_total", kind="unavailable") > 0
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert await until_status(port, 200) == "ok\n"  # the next timed move commits
        await tg.wait_for(lambda: table.status == "between" or None, timeout=60,
                          what="the hand played to its end")
        await services(app).presenter.idle()


FAMILIES = {"paohuzi_bot_api_calls", "paohuzi_bot_api_call_seconds", "paohuzi_updates",
            "paohuzi_tables", "paohuzi_hands_finished", "paohuzi_store_call_seconds",
            "paohuzi_store_failures", "paohuzi_painter_queue", "paohuzi_live_pages_open"}


async def test_metrics_tell_calls_updates_tables_hands_store_painter_and_pages(
        tg: FakeTelegram, tmp_path: Path) -> None:
    port, page_port = free_port(), free_port()
    page = WebAppConfig(url=f"http://127.0.0.1:{page_port}/live/", port=page_port)
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.5, metrics_port=port,
                         webapp=page)
    async with running_bot(config) as app, aiohttp.ClientSession() as http:
        alice, _group, table = await hand_with_tuoguan(tg, app)
        async with http.ws_connect(page.url + "ws") as ws:
            await ws.send_str(init_data(tg.token, alice.id))
            await ws.receive()  # her seat's view: the page is open
            status, text = await get(port, "/metrics")
            assert status == 200
            families, found = samples(text)
            assert value(found, "paohuzi_live_pages_open") == 1
        assert families >= FAMILIES, FAMILIES - families
        assert value(found, "paohuzi_tables", state="playing") == 1
        assert value(found, "paohuzi_tables", state="lobby") == 0  # every state is told
        assert value(found, "paohuzi_bot_api_calls_total", method="sendPhoto", outcome=OK) > 0
        assert value(found, "paohuzi_bot_api_call_seconds_count", method="getUpdates") > 0
        assert value(found, "paohuzi_updates_total") >= 3  # /new, /addbot, 加电脑
        assert value(found, "paohuzi_store_call_seconds_count") > 0
        assert value(found, "paohuzi_painter_queue") >= 0
        assert "process_cpu_seconds_total" in found  # the client's own, for free

        before = value(found, "paohuzi_hands_finished_total")
        await tg.wait_for(lambda: table.status == "between" or None, timeout=60,
                          what="the hand played to its end")
        await services(app).presenter.idle()
        _, found = samples((await get(port, "/metrics"))[1])
        assert value(found, "paohuzi_hands_finished_total") == before + 1
        assert value(found, "paohuzi_tables", state="between") == 1
        assert value(found, "paohuzi_live_pages_open") == 0


def test_a_call_s_outcome_is_ok_429_or_error() -> None:
    assert [outcome(s) for s in (200, 429, 400, 403, 502, None)] == \
        ["ok", "429", "error", "error", "error", "error"]


async def test_with_a_webhook_healthz_follows_getwebhookinfo(fake_tg: FakeTelegram,
                                                             tmp_path: Path) -> None:
    """A webhook is quiet while nobody plays: the bot asks getWebhookInfo every 10 s. A
    delivery Telegram reports failed is 503 until an update arrives again; the Bot API gone,
    503 within 30 s."""
    port, hook_port = free_port(), free_port()
    env = fake_env(fake_tg, DB_PATH=str(tmp_path / "db.sqlite3"), METRICS_PORT=str(port),
                   WEBHOOK_URL="https://paohuzi.example/tg/hook", WEBHOOK_SECRET="s3cret",
                   WEBHOOK_PORT=str(hook_port), WEBHOOK_LISTEN="127.0.0.1")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        await fake_tg.wait_for(lambda: fake_tg.world.webhook_url, timeout=30, what="setWebhook")
        assert await until_status(port, 200) == "ok\n"
        fake_tg.world.webhook_error = (int(time.time()), "Connection refused")
        body = await until_status(port, 503)  # asked every WEBHOOK_CHECK s
        assert body == "updates: Telegram could not deliver to the webhook (Connection refused)\n"
        alice = fake_tg.user("Alice")
        await fake_tg.send_text(alice, alice, "/start")
        [update] = fake_tg.world.updates
        async with aiohttp.ClientSession() as http, http.post(
                f"http://127.0.0.1:{hook_port}/tg/hook", json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"}) as r:
            assert r.status == 200
        assert await get(port, "/healthz") == (200, "ok\n")  # delivered since
        await fake_tg.stop()
        body = await until_status(port, 503)
        assert body.startswith("updates: the Bot API has not answered getWebhookInfo for"), body
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 30)
