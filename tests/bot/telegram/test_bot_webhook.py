"""Webhook mode: ``python -m bot`` with WEBHOOK_URL against the fake Bot API.

The fake records setWebhook; the test plays Telegram (or a reverse proxy in front of the bot)
and POSTs the queued updates to the bot's port, with and without the secret header.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp
from support.botproc import free_port
from support.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parents[3]
PUBLIC_URL = "https://paohuzi.example/tg/hook-7f3a"  # TLS ends at the proxy; the path is served
SECRET = "s3cret_webhook-token"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


async def _post(port: int, update: dict, headers: dict[str, str],
                path: str = "/tg/hook-7f3a") -> int:
    """POST one update to the bot as Telegram does; retried while the server is not up yet."""
    url = f"http://127.0.0.1:{port}{path}"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    async with aiohttp.ClientSession() as session:
        while True:
            try:
                async with session.post(url, json=update, headers=headers) as response:
                    return response.status
            except aiohttp.ClientConnectionError:
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.1)


async def _start_bot(fake_tg: FakeTelegram, tmp_path: Path, port: int) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "WEBHOOK_"))}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=fake_tg.token, BOT_API_BASE_URL=fake_tg.base_url,
               DB_PATH=str(tmp_path / "db.sqlite3"), WEBHOOK_URL=PUBLIC_URL,
               WEBHOOK_SECRET=SECRET, WEBHOOK_PORT=str(port), WEBHOOK_LISTEN="127.0.0.1")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def test_webhook_serves_updates_with_the_secret_only(fake_tg: FakeTelegram,
                                                           tmp_path: Path) -> None:
    port = free_port()
    proc = await _start_bot(fake_tg, tmp_path, port)
    try:
        await fake_tg.wait_for(lambda: fake_tg.world.webhook_url, timeout=30,
                               what="setWebhook")
        assert fake_tg.world.webhook_url == PUBLIC_URL
        assert fake_tg.world.webhook_secret == SECRET
        assert fake_tg.world.allowed_updates == {"message", "callback_query", "inline_query"}

        alice = fake_tg.user("Alice")
        sent = await fake_tg.send_text(alice, alice, "/start")
        [update] = fake_tg.world.updates
        assert await _post(port, update, {}) == 403
        assert await _post(port, update, {SECRET_HEADER: "wrong"}) == 403
        assert await _post(port, update, {SECRET_HEADER: SECRET}, path="/") == 404
        assert await _post(port, update, {SECRET_HEADER: SECRET}, path="/tg/other") == 404
        await asyncio.sleep(0.5)  # a refused update must not be handled, even late
        assert [m for m in fake_tg.messages(alice) if m.message_id > sent.message_id] == []

        assert await _post(port, update, {SECRET_HEADER: SECRET}) == 200
        reply = await fake_tg.wait_reply(sent)
        assert reply.text.startswith("你好,Alice")
        assert not any(c.method == "getUpdates" for c in fake_tg.calls)  # no polling at all
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 0, err.decode()
    log = out.decode() + err.decode()
    assert SECRET not in log and fake_tg.token.split(":")[1] not in log
