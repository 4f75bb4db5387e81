"""The live seat's server under a stranger's flood: the real bot (``python -m bot``, its open
files limited as systemd's default, 1,024) with a hand dealt, its page server on loopback.

1. ``--size`` WebSockets from 127.0.0.2 that never sign in, each opened again a second after
   the server closes or refuses it (tests/support/flood.py); meanwhile a seated player's page
   is opened again and again (the page, its socket, its first view): how long it takes.
2. ``--big`` sockets at once each sending a 4 MiB first message, over and over; meanwhile the
   seated player's ``api/seat``: how long it takes.
3. The bot's log: tracebacks, "Too many open files", WARNINGs.

Run it on any checkout (``--bot-root``: the bot's code, e.g. an older commit unpacked with
``git archive``) to compare:

    .venv/bin/python bench/bench_webapp_flood.py
    .venv/bin/python bench/bench_webapp_flood.py --bot-root /tmp/before
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the project before tests/bot

import aiohttp  # noqa: E402
from support.botproc import fake_env, free_port, start_bot, stop_bot  # noqa: E402
from support.e2e import hand_message  # noqa: E402
from support.fakebot import FakeTelegram  # noqa: E402
from support.flood import FloodProcess, open_page  # noqa: E402
from support.play import seat_three  # noqa: E402
from support.webapp import init_data  # noqa: E402


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"median {statistics.median(values) * 1000:.0f} ms, "
            f"max {max(values) * 1000:.0f} ms (n={len(values)})")


async def _api_times(base: str, auth: str, seconds: float) -> list[float]:
    times = []
    async with aiohttp.ClientSession() as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.monotonic()
            async with http.get(base + "api/seat", headers={"Authorization": auth}) as r:
                await r.read()
                if r.status == 200:
                    times.append(time.monotonic() - start)
            await asyncio.sleep(0.2)
    return times


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    with tempfile.TemporaryDirectory(prefix="flood-") as tmp:
        log = Path(tmp) / "bot.log"
        async with FakeTelegram() as tg:
            env = fake_env(tg, DB_PATH=str(Path(tmp) / "db.sqlite3"), BOT_SEED="7",
                           ACTION_TIMEOUT="600", FULL_START_DELAY="0",
                           WEBAPP_PORT=str(port), WEBAPP_URL=base)
            env["PYTHONPATH"] = str(Path(args.bot_root).resolve())
            proc = await start_bot(tg, Path(tmp), env, log=log, open_files=args.open_files)
            try:
                users, _, _ = await seat_three(tg)
                alice = users[0]
                await tg.wait_for(lambda: hand_message(tg, alice), timeout=30, what="the deal")
                data = init_data(tg.token, alice.id, "Alice")
                quiet = [await open_page(base, data) for _ in range(3)]
                print(f"page opens, no flood: {_ms(quiet)}")

                flood = FloodProcess(base + "ws", size=args.size)
                await flood.start()
                await asyncio.sleep(3)
                opens, failures = [], 0
                end = time.monotonic() + args.seconds
                while time.monotonic() < end:
                    try:
                        opens.append(await open_page(base, data, timeout=args.page_timeout))
                    except (TimeoutError, aiohttp.ClientError, OSError, AssertionError) as e:
                        failures += 1
                        print(f"  a page did not open: {type(e).__name__} {e}")
                    await asyncio.sleep(1)
                figures = await flood.stop()
                print(f"page opens under {args.size} silent sockets: {_ms(opens)}, "
                      f"{failures} did not open within {args.page_timeout:.0f} s")
                print(f"  the flood: {figures}")

                auth = "tma " + data
                print(f"api/seat, no flood: {_ms(await _api_times(base, auth, 3))}")
                big = FloodProcess(base + "ws", size=args.big, big=True)
                await big.start()
                await asyncio.sleep(1)
                times = await _api_times(base, auth, args.seconds)
                figures = await big.stop()
                print(f"api/seat under {args.big} sockets sending 4 MiB: {_ms(times)}")
                print(f"  {figures}")
                alive = proc.returncode is None
            finally:
                await stop_bot(proc)
        text = log.read_text(errors="replace")
        print(f"bot alive through it: {alive}; its log: {text.count('Traceback')} tracebacks, "
              f"{text.count('Too many open files')} 'Too many open files', "
              f"{text.count('WARNING')} WARNINGs, {len(text.splitlines())} lines")
        lines = text.splitlines()
        for line in [ln for ln in lines if "WARNING" in ln][:8]:
            print("  " + line[:160])
        if "Traceback" in text:  # the first, for whoever is to quiet it
            at = next(i for i, ln in enumerate(lines) if "Traceback" in ln)
            print("the first traceback:")
            for line in lines[max(0, at - 1):at + 16]:
                print("  " + line[:160])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1100, help="silent sockets")
    parser.add_argument("--big", type=int, default=40, help="sockets sending 4 MiB at once")
    parser.add_argument("--open-files", type=int, default=1024, help="the bot's RLIMIT_NOFILE")
    parser.add_argument("--seconds", type=float, default=12.0, help="each phase")
    parser.add_argument("--page-timeout", type=float, default=20.0)
    parser.add_argument("--bot-root", default=str(ROOT), help="the bot's code to run")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
