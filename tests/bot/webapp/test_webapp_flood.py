"""The live seat under a stranger's flood, in a real browser: the bot (``python -m bot``) at
systemd's default of 1,024 open files, 1,100 WebSockets from another address that never
sign in (each opened again when closed: tests/support/flood.py), and a seated player's page
still opens, live, and his moves still show; the bot's log stays quiet (a counted WARNING
now and then, no traceback). Its figures (how fast the page opens) are bench
bench/bench_webapp_flood.py's."""

import asyncio
import signal
from contextlib import ExitStack

from support.botproc import fake_env, start_bot, stop_bot
from support.e2e import hand_message
from support.flood import Flood, open_page
from support.play import seat_three
from support.webapp import Page, chromium, free_port, init_data, page_url


async def test_a_seated_page_opens_under_a_flood_of_silent_sockets(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    log = tmp_path / "bot.log"
    env = fake_env(tg, DB_PATH=str(tmp_path / "db.sqlite3"), BOT_SEED="7",
                   ACTION_TIMEOUT="600", FULL_START_DELAY="0",
                   WEBAPP_PORT=str(port), WEBAPP_URL=base)
    proc = await start_bot(tg, tmp_path, env, log=log, open_files=1024)
    flood = Flood(base + "ws", size=1100)
    with ExitStack() as stack:
        try:
            driver = await asyncio.to_thread(stack.enter_context, chromium())
            users, _, _ = await seat_three(tg)
            alice = users[0]
            await tg.wait_for(lambda: hand_message(tg, alice), timeout=30, what="the deal")
            data = init_data(tg.token, alice.id, "Alice")
            await flood.start()
            await asyncio.sleep(3)  # the flood at its full size
            page = await asyncio.to_thread(Page, driver, page_url(base, data))
            await asyncio.to_thread(page.wait, lambda p: p.state() == "live", 15)
            assert (await asyncio.to_thread(page.view))["my_hand"]
            for _ in range(3):  # and again, while the flood goes on
                await open_page(base, data, timeout=15)
            assert flood.refused + flood.failed >= 1000  # turned away, not let wait
            assert flood.most_held <= 64
            assert proc.returncode is None
        finally:
            await flood.stop()
            await stop_bot(proc, signal.SIGKILL)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "Too many open files" not in text
    warnings = [line for line in text.splitlines() if "WARNING" in line]
    assert any("live seat: sockets refused" in line or "closed at the door" in line
               for line in warnings)
    assert len(warnings) < 20, warnings
