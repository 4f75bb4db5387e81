"""The scale drill: several bot tokens on one PostgreSQL, many tables each, at human pace.

    python bench/bench_scale.py [--bots 4] [--tables 200] [--picture-tables 20]
                                [--webapp-seats 3] [--think 3]
                                [--delay-ms 100] [--seconds 240] [--live own|shared]
                                [--database-url postgresql://USER@HOST:PORT/DB]

What one machine carries as a whole: ``--bots`` bot processes (``python -m bot``, one token
each, ``bench/store_timed_bot.py``) on one PostgreSQL database, each with ``--tables``
three-seat tables, all through one fake Bot API (tests/support/fakebot, ``--delay-ms`` from
the bots) and the simulated players of ``bench/bench_load.py``: at ``--picture-tables`` of a
token's tables every seat plays by its pictures, at the others ``--webapp-seats`` seats play
on the live seat page (``bench/webapp_seats.py``) and the rest by pictures, each press
0.5–1.5 × ``--think`` seconds after its buttons show. (Telegram's ~30 messages a second a
bot are what bind: a table of pictures costs about ten times the Bot API calls of a table of
pages, and one picture seat at a table of pages costs about as much as all three.) ``--live own``
(the default): each bot serves its own pages (``WEBAPP_PORT``); ``--live shared``: one
``python -m bot webapp`` serves every bot's pages. Without ``--database-url`` a throwaway
PostgreSQL server is started (tests/support/postgres.py) and removed at the end. The run
stops by itself: seating, then ``--seconds`` of play, then a short grace.

Printed per token and in all, over the play phase:

* actions/s: moves the bots accepted (by picture or page);
* Bot API calls/s per token (getUpdates excluded), its busiest second, and 429s, against
  Telegram's ~30 messages a second a bot (answers to presses included here: they are calls,
  though Telegram does not count them against the 30);
* CPU ms per action: each bot's process (its painting process included); PostgreSQL's
  processes and the shared page server over all actions; the machine's other load (this
  harness, the fake Telegram and everything else running) said apart;
* PostgreSQL transactions/s: ``pg_stat_database.xact_commit`` of the database, delta;
* move -> the table's other page seats updated, p50 / p99;
* press -> answer p99 (picture seats) and unanswered presses.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]  # the project first

import asyncpg  # noqa: E402
from bench_load import (  # noqa: E402
    GRACE,
    SEED,
    TOKENS,
    Load,
    cpu_seconds,
    fresh_schema,
    pct,
    seat,
)
from support.fakebot import FakeChat, FakeTelegram  # noqa: E402
from support.fakebot import methods as fake_methods  # noqa: E402
from support.fakebot.ratelimit import max_in_window  # noqa: E402
from support.webapp import free_port  # noqa: E402
from webapp_seats import PageSeats  # noqa: E402

TELEGRAM_PER_SECOND = 30  # messages a second Telegram allows a bot
CLK_TCK = os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, every core (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / CLK_TCK, sum(fields[:8]) / CLK_TCK


def postgres_pids(port: int) -> list[int]:
    """The PostgreSQL server's processes: the postmaster listening on ``port`` and its
    children (backends, writer, WAL writer…)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
            if cmd and cmd[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(cmd):
                found.append(int(entry.name))
    return found


def pg_cpu(port: int) -> float:
    """CPU seconds of the server's postmaster and its live children (a backend that ended
    is counted in the postmaster's cutime: /proc's fields 13-14)."""
    total = 0
    for pid in postgres_pids(port):
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(stat[11]) + int(stat[12]) + int(stat[13]) + int(stat[14])
            for kid in Path("/proc").iterdir():
                if kid.name.isdigit():
                    with contextlib.suppress(OSError, IndexError):
                        ks = (kid / "stat").read_text().rsplit(")", 1)[1].split()
                        if int(ks[1]) == pid:
                            total += int(ks[11]) + int(ks[12])
    return total / CLK_TCK


async def commits(url: str) -> int:
    db = await asyncpg.connect(url)
    try:
        return int(await db.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"))
    finally:
        await db.close()


def throwaway_postgres() -> Any:
    """A PostgreSQL server of the installed binaries (tests/support/postgres.py)."""
    from support.postgres import Server, _binaries
    bindir = _binaries()
    if bindir is None:
        raise SystemExit("no PostgreSQL binaries in /usr/lib/postgresql/*/bin: pass "
                         "--database-url")
    return Server(bindir)


async def start(command: list[str], env: dict[str, str], log: Path,
                cwd: Path) -> asyncio.subprocess.Process:
    with log.open("wb") as out:
        return await asyncio.create_subprocess_exec(*command, cwd=cwd, env=env, stdout=out,
                                                    stderr=out)


async def drill(args: argparse.Namespace, url: str, port: int) -> None:
    rng = random.Random(SEED)
    saved = dict(fake_methods.METHODS)
    tmp = Path(tempfile.mkdtemp(prefix="bench_scale_"))
    procs: list[asyncio.subprocess.Process] = []
    server: asyncio.subprocess.Process | None = None
    async with FakeTelegram(token=TOKENS[0], delay=args.delay_ms / 1000) as tg:
        tgs = [tg, *(tg.another_bot(TOKENS[k], f"ScaleBot{k}") for k in range(1, args.bots))]
        load = Load(tgs, 10**9, rng, args.think)
        ports = [free_port() for _ in tgs] if args.live == "own" else [free_port()]
        bases = [f"http://127.0.0.1:{p}/app/" for p in ports]
        if args.webapp_seats:
            load.pages = PageSeats(load, args.webapp_seats, bases[0], tg.token, rng)
        group_bot: dict[int, int] = {}
        try:
            base_env = {**os.environ, "BOT_SEED": str(SEED), "ACTION_TIMEOUT": "600",
                        "PYTHONPATH": str(ROOT), "DATABASE_URL": url}
            for k, fake in enumerate(tgs):
                env = {**base_env, "BOT_TOKEN": fake.token, "BOT_API_BASE_URL": fake.base_url,
                       "WEBAPP_URL": bases[0 if args.live == "shared" else k]}
                if args.live == "own":
                    env["WEBAPP_PORT"] = str(ports[k])
                procs.append(await start(
                    [sys.executable, str(ROOT / "bench" / "store_timed_bot.py"),
                     str(tmp / f"store{k}.jsonl")], env, tmp / f"bot{k}.log", tmp))
                await fake.wait_for(lambda f=fake: any(c.method == "getUpdates" for c in f.calls),
                                    timeout=120)
            if args.live == "shared":
                env = {**base_env, "WEBAPP_URL": bases[0], "WEBAPP_PORT": str(ports[0]),
                       "WEBAPP_TOKENS": ",".join(f.token for f in tgs)}
                server = await start([sys.executable, "-m", "bot", "webapp"], env,
                                     tmp / "webapp.log", tmp)
                await wait_listening(ports[0])
            t0 = time.perf_counter()
            sem = asyncio.Semaphore(20)

            async def one(k: int, n: int) -> tuple[FakeTelegram, FakeChat] | None:
                async with sem:
                    try:
                        fake, group = await seat(tgs[k], load, n)
                    except (TimeoutError, LookupError) as error:  # a loaded machine: said
                        print(f"table {n} of token {k + 1} not seated: {error!r:.200}")
                        return None
                    group_bot[group.id] = k
                    if load.pages is not None and n % args.tables >= args.picture_tables:
                        await load.pages.open(load.groups[group.id],
                                              bases[k if args.live == "own" else 0], fake.token)
                    return fake, group

            seated = [t for t in await asyncio.gather(*(one(k, k * args.tables + n)
                                                        for k in range(args.bots)
                                                        for n in range(args.tables)))
                      if t is not None]
            print(f"{len(seated)} tables ({args.bots} tokens x {args.tables}) seated and dealt "
                  f"in {time.perf_counter() - t0:.0f} s", flush=True)
            # play
            load.playing = True
            calls0 = [len(f.calls) for f in tgs]
            errors0 = [len(f.world.errors) for f in tgs]
            cpu0 = [cpu_seconds(p.pid) for p in procs]
            server_cpu0 = cpu_seconds(server.pid) if server else 0.0
            pg0, xact0, (busy0, all0) = pg_cpu(port), await commits(url), machine_busy()
            mine0, load0 = time.process_time(), os.getloadavg()
            for p in procs:
                p.send_signal(signal.SIGUSR1)
            started = time.perf_counter()
            load.start_play(seated)
            await asyncio.sleep(args.seconds)
            load.playing = False
            elapsed = time.perf_counter() - started
            cpu = [cpu_seconds(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
            server_cpu = (cpu_seconds(server.pid) - server_cpu0) if server else 0.0
            pg = pg_cpu(port) - pg0
            xacts = await commits(url) - xact0
            busy1, all1 = machine_busy()
            mine = time.process_time() - mine0
            load1 = os.getloadavg()
            calls = [[c for c in f.calls[n:] if c.method != "getUpdates"]
                     for f, n in zip(tgs, calls0, strict=True)]
            refused = [sum(e.code == 429 for e in f.world.errors[n:])
                       for f, n in zip(tgs, errors0, strict=True)]
            await asyncio.sleep(args.grace)
            report(args, load, group_bot, elapsed, calls, refused, cpu, server_cpu, pg, xacts,
                   (busy1 - busy0, all1 - all0), mine, (load0, load1))
            print(f"logs: {tmp}")
        finally:
            for p in [*procs, *([server] if server else [])]:
                with contextlib.suppress(ProcessLookupError):
                    p.send_signal(signal.SIGTERM)
            for p in [*procs, *([server] if server else [])]:
                try:
                    await asyncio.wait_for(p.wait(), 60)
                except TimeoutError:
                    p.kill()
                    await p.wait()
            for task in list(load.tasks):
                task.cancel()
            if load.pages is not None:
                await load.pages.close()
            fake_methods.METHODS.update(saved)


async def wait_listening(port: int, timeout: float = 60) -> None:
    deadline = time.perf_counter() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if time.perf_counter() > deadline:
                raise
            await asyncio.sleep(0.2)
            continue
        writer.close()
        return


def report(args: argparse.Namespace, load: Load, group_bot: dict[int, int], elapsed: float,
           calls: list[list[Any]], refused: list[int], cpu: list[float], server_cpu: float,
           pg: float, xacts: int, machine: tuple[float, float], mine: float,
           loadavg: tuple[tuple[float, ...], tuple[float, ...]]) -> None:
    actions = Counter()
    for group, n in load.accepted_at.items():
        actions[group_bot[group]] += n
    pages: dict[int, list[float]] = {}
    for group, dt in zip(load.pages.update_groups if load.pages else [],
                         load.pages.updates if load.pages else [], strict=True):
        pages.setdefault(group_bot[group], []).append(dt * 1000)
    answer = [(load.answered[q] - t) * 1000 for q, t in load.handed.items()
              if q in load.answered]
    total = sum(actions.values())
    seats = (f"{min(args.picture_tables, args.tables)} by pictures, the others "
             f"{args.webapp_seats} page + {3 - args.webapp_seats} picture seat(s)")
    print(f"\n{args.bots} tokens x {args.tables} tables ({seats}), think {args.think} s, "
          f"Bot API {args.delay_ms:.0f} ms away, live pages: {args.live}; "
          f"{elapsed:.0f} s of play")
    print(f"{'token':>6} {'actions/s':>10} {'calls/s':>8} {'busiest s':>10} {'429s':>5}"
          f" {'CPU ms/action':>14} {'pages p50':>10} {'pages p99':>10}")
    for k in range(args.bots):
        n = max(actions[k], 1)
        per_second = max_in_window(sorted(c.time for c in calls[k]), 1.0)
        mine_pages = pages.get(k, [])
        print(f"{k + 1:>6} {actions[k] / elapsed:10.1f} {len(calls[k]) / elapsed:8.1f}"
              f" {per_second:10d} {refused[k]:5d} {cpu[k] * 1000 / n:14.1f}"
              f" {pct(mine_pages, .5):10.1f} {pct(mine_pages, .99):10.1f}")
    every = [x for v in pages.values() for x in v]
    n = max(total, 1)
    print(f"{'all':>6} {total / elapsed:10.1f} {sum(map(len, calls)) / elapsed:8.1f}"
          f" {'':>10} {sum(refused):5d} {sum(cpu) * 1000 / n:14.1f}"
          f" {pct(every, .5):10.1f} {pct(every, .99):10.1f}")
    print(f"Bot API calls/s per token against Telegram's {TELEGRAM_PER_SECOND}/s: "
          + ", ".join(f"{len(c) / elapsed / TELEGRAM_PER_SECOND:.0%}" for c in calls)
          + f"; {sum(map(len, calls)) / n:.2f} calls per action")
    print(f"PostgreSQL       {xacts / elapsed:8.1f} transactions/s (xact_commit), "
          f"{xacts / n:.2f} per action; its CPU {pg * 1000 / n:.1f} ms per action "
          f"({pg / elapsed:.0%} of a core)")
    if args.live == "shared":
        print(f"page server      {server_cpu * 1000 / n:8.1f} ms CPU per action "
              f"({server_cpu / elapsed:.0%} of a core)")
    ours = sum(cpu) + pg + server_cpu
    print(f"CPU in all       {ours * 1000 / n:8.1f} ms per action: bots "
          f"{sum(cpu) / elapsed:.0%} of a core, PostgreSQL {pg / elapsed:.0%}"
          + (f", page server {server_cpu / elapsed:.0%}" if args.live == "shared" else ""))
    busy, whole = machine
    cores = os.cpu_count() or 1
    used = busy / whole * cores * elapsed  # CPU seconds the machine's cores were busy
    print(f"machine          {busy / whole:.0%} busy over {cores} cores; this harness (fake "
          f"Telegram, players) {mine / elapsed:.0%} of a core; everything else "
          f"{max(used - ours - mine, 0) / elapsed:.0%} of a core; load average "
          f"{loadavg[0][0]:.1f} -> {loadavg[1][0]:.1f}")
    print(f"press -> answer  p50 {pct(answer, .5):7.1f} ms   p99 {pct(answer, .99):7.1f} ms "
          f"(picture seats); unanswered {len(load.handed) - len(answer)} of {len(load.handed)}")
    print(f"refused presses  {load.refused} (stale buttons or versions)"
          + (f"; page opens and presses tried again {load.pages.retried}" if load.pages else ""))


async def main_async(args: argparse.Namespace) -> None:
    server = None
    try:
        if args.database_url:
            url, port = args.database_url, int(args.database_url.rsplit(":", 1)[1].split("/")[0])
        else:
            server = await asyncio.to_thread(throwaway_postgres)
            url, port = server.url, server.port
        schema = f"bench_scale_{os.getpid()}"
        try:
            await drill(args, await fresh_schema(url, schema), port)
        finally:
            await fresh_schema(url, schema, drop=True)
    finally:
        if server is not None:
            server.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--tables", type=int, default=200, help="tables a token")
    parser.add_argument("--webapp-seats", type=int, default=3,
                        help="seats a table (0-3) on the live page; the others by pictures")
    parser.add_argument("--picture-tables", type=int, default=20,
                        help="tables a token whose seats all play by pictures")
    parser.add_argument("--think", type=float, default=3.0,
                        help="seconds a player takes to press (0.5-1.5 x this)")
    parser.add_argument("--delay-ms", type=float, default=100,
                        help="round trip added to every Bot API call (ms)")
    parser.add_argument("--seconds", type=float, default=240, help="seconds of play")
    parser.add_argument("--grace", type=float, default=GRACE,
                        help="seconds after play for the presses in flight to be answered")
    parser.add_argument("--live", choices=("own", "shared"), default="own",
                        help="each bot serves its pages, or one `python -m bot webapp` for all")
    parser.add_argument("--database-url",
                        help="a PostgreSQL database to use (default: a throwaway server)")
    args = parser.parse_args()
    if not 1 <= args.bots <= len(TOKENS):
        parser.error(f"--bots is 1..{len(TOKENS)}")
    if not 0 <= args.webapp_seats <= 3:
        parser.error("--webapp-seats is 0..3")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
