"""Load: many tables playing at once in one bot process, through the fake Bot API (loopback).

    python bench/bench_load.py [--tables 200] [--actions 3000] [--seconds 90]
                               [--delay-ms 0] [--think 0] [--profile bot.prof]
                               [--database-url postgresql://USER@HOST:PORT/DB [--bots 2]]
                               [--webapp-seats K]

The bot runs as ``python -m bot`` (real pacing: GROUP_EDIT_INTERVAL 3.5 s; BOT_SEED set);
this process runs the fake Telegram (tests/support/fakebot) and the simulated users: every time a
hand message arrives or is edited with action buttons, its user presses one of them at once
(seeded random choice); a settlement with 再来一局 is answered by all three at once.
``--think S`` makes them human: each press comes 0.5–1.5 × S seconds after its keyboard shows
(a move every ~3 s at a table is ``--think 3``). ``--delay-ms D`` puts the bot D ms from
Telegram: the fake adds that round trip to every Bot API call (a real server is 50–200 ms).

``--database-url URL`` runs the load twice, the bot on SQLite and then on that PostgreSQL
database (in a schema of its own, dropped afterwards), and prints the two side by side;
``--bots N`` adds a third run: N bot processes (N tokens, ``--tables`` tables each, one fake
Bot API serving every token) on the one PostgreSQL database, whose actions a second should be
about N times one bot's. Each bot runs under ``bench/store_timed_bot.py``, which sums the
time it waits on its store.

``--webapp-seats K`` runs the load twice, all seats by their pictures and then K of each
table's three by the live seat page (``bench/webapp_seats.py``: a WebSocket and POSTed moves),
and prints Bot API calls per action, move -> the other seats' pages updated and the tables one
token carries side by side (targets with page seats: <= 0.5 calls per action, p99 <= 150 ms,
>= 300 tables at human pace).

The human-paced run: ``--tables 60 --think 3 --delay-ms 100 --actions 100000 --seconds 60``;
targets press -> answer p99 <= 300 ms, move -> next buttons p99 <= 2 s, no press unanswered.

Figures, over the play phase (after every table has started):

* CPU ms per action: the bot process's user+system time (its painting process's included,
  bot.present.painter) / accepted actions.
* press latency: from the fake handing a button-press update out in getUpdates to the bot's
  answerCallbackQuery for it (the first call an update gets); p50 / p99. Also, not targets:
  from a move to the next buttons shown at its table (how fast play goes round; a move made
  while another player at the table still has buttons is not counted), and to the
  first call in the presser's chat (his picture catching up: held back, and last in line
  when the bot is at Telegram's ceiling).
* Bot API calls per action (getUpdates excluded), by method, and the floor: every press needs
  its answerCallbackQuery (Telegram clients spin until it comes) and every decision needs one
  edit showing its buttons, so calls per action >= 1 + decisions shown per action.
* group messages-or-edits per minute (max over groups, sliding window, real clock).
* unanswered presses: handed out in the window and not answered 10 s after it ended.
* capacity: tables one bot serves at this pace before Telegram's ~25-30 messages a second
  bind: that budget / (messages-or-edits per action x actions a second per table).
* memory per table: the bot's RSS (its painting process's included) while all tables play
  minus its RSS at start, / tables.
* store time per action: the bot's time waiting on its SQL statements and commits / accepted
  actions (``bench/store_timed_bot.py``).

Targets: p99 <= 100 ms, <= 1.5 calls per action, <= 20 a minute per group,
<= 200 KB per table. ``--profile FILE`` runs the bot under cProfile (stopped with SIGTERM, so
the profile is written) and prints its top functions (with ``--webapp-seats``, of the page
seats' run alone); the profiler slows it, so figures taken with it are not the ones to quote.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]  # the project first

import asyncpg  # noqa: E402
from support.fakebot import FakeChat, FakeTelegram, FakeUser  # noqa: E402
from support.fakebot import methods as fake_methods  # noqa: E402
from support.webapp import free_port  # noqa: E402
from webapp_seats import PageSeats  # noqa: E402

SEED = 5
STAGGER = 5.0  # seconds over which the tables' first presses are spread
CLK_TCK = os.sysconf("SC_CLK_TCK")
GRACE = 10.0  # seconds after the window for the last presses to be answered
BUDGET = (25, 30)  # Telegram's messages a second per bot, give or take
TOKENS = [f"70000000{n:02d}:AAFakeTokenForTestsOnly_load{n:06d}" for n in range(1, 10)]


Query = tuple[int, str]  # (the world of a bot's fake, a callback query id there)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def with_children(pid: int) -> list[int]:
    """The bot's process and its children (the painting process, bot.present.painter)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int(_stat(int(entry.name))[1]) == pid:
                    kids.append(int(entry.name))
    return [pid, *kids]


def cpu_seconds(pid: int) -> float:
    """User and system time of the bot's process (all threads) and of its children."""
    total = 0
    for p in with_children(pid):
        with contextlib.suppress(OSError):
            fields = _stat(p)
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLK_TCK


def rss_bytes(pid: int) -> int:
    """The resident memory of the bot's process and of its children."""
    total = 0
    for p in with_children(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Load:
    """The simulated users and the instrumentation hooked into the fake's method table."""

    def __init__(self, tgs: list[FakeTelegram], actions: int, rng: random.Random,
                 think: float) -> None:
        self.tgs = {id(tg.world): tg for tg in tgs}  # the bots' worlds: one fake server
        self.think = think
        self.target = actions
        self.rng = rng
        self.accepted = 0
        self.accepted_at: Counter[int] = Counter()  # group id -> actions accepted at its table
        self.refused = 0
        self.playing = False
        # queries by (world, query id): each bot's fake numbers its own
        self.handed: dict[Query, float] = {}  # query -> when getUpdates handed it out
        self.answered: dict[Query, float] = {}
        self.first_call: dict[Query, float] = {}  # query -> first bot call in its chat
        self.waiting: dict[int, list[Query]] = {}  # chat id -> queries awaiting a first call
        self.groups: dict[int, list[FakeUser]] = {}
        self.decisions: set[tuple[int, str]] = set()  # (chat, table:version) keyboards shown
        self.table_of: dict[int, int] = {}  # user id -> group id
        self.moved: dict[int, list[float]] = {}  # group id -> moves awaiting the next buttons
        self.deciding: dict[int, set[int]] = {}  # group id -> users with buttons not pressed
        self.round: list[float] = []  # move -> next buttons shown at its table (seconds)
        self.preshown = 0  # decisions on screen when play starts (their calls came before)
        self.tasks: set[asyncio.Task[None]] = set()
        self.pages: PageSeats | None = None  # --webapp-seats: who plays by the page
        self.done = asyncio.Event()
        self._hook()

    def _hook(self) -> None:
        methods = fake_methods.METHODS
        get_updates, answer = methods["getupdates"], methods["answercallbackquery"]
        clock = time.perf_counter

        async def timed_get_updates(world: Any, p: Any) -> list:
            result = await get_updates(world, p)
            now = clock()
            for update in result:
                query = update.get("callback_query")
                key = None if query is None else (id(world), query["id"])
                if key is not None and self.playing and key not in self.handed:
                    self.handed[key] = now
                    self.waiting.setdefault(query["from"]["id"], []).append(key)
            return result

        async def timed_answer(world: Any, p: Any) -> bool:
            self.answered.setdefault((id(world), p.str("callback_query_id") or ""), clock())
            return await answer(world, p)

        methods["getupdates"], methods["answercallbackquery"] = timed_get_updates, timed_answer
        for name in ("sendphoto", "sendmessage", "editmessagemedia", "editmessagecaption",
                     "editmessagetext", "editmessagereplymarkup", "deletemessage"):
            methods[name] = self._watch(methods[name])
        # the fake's photo check decodes every PNG: not the bot's cost, and heavy here
        fake_methods._photo = lambda world, data: world.new_file("photo", b"", width=1,
                                                                   height=1)

    def _watch(self, handler: Any) -> Any:
        async def watched(world: Any, p: Any) -> Any:
            now = time.perf_counter()
            try:
                chat_id = int(p.raw("chat_id"))
            except (TypeError, ValueError):
                chat_id = 0
            for query in self.waiting.pop(chat_id, ()):
                self.first_call[query] = now
            result = await handler(world, p)
            if isinstance(result, dict):
                self._react(self.tgs[id(world)], chat_id, result)
            return result
        return watched

    def start_play(self, seated: Iterable[tuple[FakeTelegram, Any]]) -> None:
        """Play starts at the seated tables (fake Telegram, group): the pages sign in, and
        the keyboard on each picture seat's screen is pressed, the first presses spread over
        ``STAGGER`` seconds (people do not press in the same millisecond); from then on each
        keyboard is pressed the moment it shows."""
        loop = asyncio.get_running_loop()
        if self.pages is not None:
            self.pages.start()
        for fake, group in seated:
            for user in self.groups[group.id]:
                if self.pages is not None and user.id in self.pages.users:
                    continue
                msgs = [m for m in fake.messages(user) if m.media_kind == "photo"]
                if msgs:
                    if any(d.startswith("a:") for row in msgs[-1].keyboard for _, d in row
                           if d):
                        self.preshown += 1  # shown before the window: its call is added
                    loop.call_later(self.rng.uniform(0, STAGGER), self._react, fake, user.id,
                                    msgs[-1].to_json())

    def _react(self, tg: FakeTelegram, chat_id: int, message: dict) -> None:
        """A user sees a keyboard: presses at once (or, on a settlement, all three do)."""
        rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
        data = [b["callback_data"] for row in rows for b in row if "callback_data" in b]
        if chat_id > 0 and self.pages is not None and chat_id in self.pages.users:
            return  # he plays by his page
        if chat_id > 0:
            actions = [d for d in data if d.startswith("a:")]
            deciding = self.deciding.setdefault(self.table_of.get(chat_id, 0), set())
            (deciding.add if actions else deciding.discard)(chat_id)
            if actions and self.playing:
                shown = (chat_id, actions[0].rsplit(":", 1)[0])
                if shown not in self.decisions:
                    self.decisions.add(shown)
                    now = time.perf_counter()
                    moved = self.moved.pop(self.table_of[chat_id], [])
                    self.round += [now - t for t in moved]
                user = tg.world.users[chat_id]
                self._spawn(self._press(tg, chat_id, message["message_id"], user,
                                        self.rng.choice(actions)))
        elif any(d.startswith("g:") for d in data) and self.playing:
            self.moved.pop(chat_id, None)  # the hand is over: no next buttons in it
            again = next(d for d in data if d.startswith("g:"))
            for user in self.groups[chat_id]:
                if self.pages is not None and user.id in self.pages.users:
                    continue  # he presses 再来一局 on his page
                self._spawn(self._press(tg, chat_id, message["message_id"], user, again))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _press(self, tg: FakeTelegram, chat_id: int, message_id: int, user: FakeUser,
                     data: str) -> None:
        if self.accepted >= self.target:
            return
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            if not self.playing:
                return
        if data.startswith("a:"):
            deciding = self.deciding.setdefault(self.table_of[user.id], set())
            deciding.discard(user.id)
            if not deciding:  # else the next buttons wait for another player's think time too
                self.moved.setdefault(self.table_of[user.id], []).append(time.perf_counter())
            if self.pages is not None:
                self.pages.move_made(self.table_of[user.id], user.id)
        try:
            answer = await tg.press(chat_id, message_id, user, data, timeout=120)
        except (LookupError, TimeoutError):
            return
        if data.startswith("a:"):
            if (answer.text or "").startswith("✓"):  # the move, confirmed
                self.accepted += 1
                self.accepted_at[self.table_of[user.id]] += 1
                if self.accepted >= self.target:
                    self.done.set()
            else:
                self.refused += 1


async def seat(tg: FakeTelegram, load: Load, n: int) -> tuple[FakeTelegram, FakeChat]:
    users = [tg.user(f"P{n}-{i}") for i in range(3)]
    for user in users:
        tg.start_private(user)
    group = tg.group(f"G{n}", members=tuple(users))
    load.groups[group.id] = users
    load.table_of.update((user.id, group.id) for user in users)
    lobby = await tg.wait_reply(await tg.send_text(group, users[0], "/new"), timeout=60)
    for user in users[1:]:
        await tg.press_button(lobby, user, lambda text, data: bool(data) and data[0] == "j",
                              timeout=60)
    await tg.press_button(lobby, users[0], lambda text, data: bool(data) and data[0] == "b",
                          timeout=60)
    return tg, group


def snapshot(args: argparse.Namespace, procs: list[asyncio.subprocess.Process]) -> None:
    """Each bot notes its store time so far (``bench/store_timed_bot.py``; not under the
    profiler, which runs the bot alone)."""
    if not args.profile:
        for p in procs:
            p.send_signal(signal.SIGUSR1)


def store_seconds(path: Path) -> float:
    """The store time a bot spent between its first and last snapshot (SIGUSR1)."""
    lines = path.read_text().splitlines() if path.exists() else []
    if len(lines) < 2:
        return float("nan")
    return float(json.loads(lines[-1])["seconds"]) - float(json.loads(lines[0])["seconds"])


async def fresh_schema(url: str, name: str, drop: bool = False) -> str:
    """A URL whose connections see the empty schema ``name`` (dropped with ``drop``)."""
    db = await asyncpg.connect(url)
    try:
        await db.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        if not drop:
            await db.execute(f"CREATE SCHEMA {name}")
    finally:
        await db.close()
    return f"{url}{'&' if '?' in url else '?'}search_path={name}"


async def run(args: argparse.Namespace, database_url: str | None = None,
              bots: int = 1, webapp_seats: int = 0) -> dict[str, float]:
    """One load run: ``bots`` bot processes (``--tables`` tables each) on SQLite, or on the
    PostgreSQL database ``database_url``; prints its figures and returns the main ones."""
    rng = random.Random(SEED)
    saved = dict(fake_methods.METHODS)
    async with FakeTelegram(token=TOKENS[0], delay=args.delay_ms / 1000) as tg:
        tgs = [tg, *(tg.another_bot(TOKENS[k], f"LoadBot{k}") for k in range(1, bots))]
        load = Load(tgs, args.actions * bots, rng, args.think)
        tmp = Path(tempfile.mkdtemp(prefix="bench_load_"))
        port = free_port()
        web = {"WEBAPP_PORT": str(port), "WEBAPP_URL": f"http://127.0.0.1:{port}/app/"} \
            if webapp_seats else {}
        if webapp_seats:
            load.pages = PageSeats(load, webapp_seats, web["WEBAPP_URL"], tg.token, rng)
        logs, procs = [], []
        try:
            for k, fake in enumerate(tgs):
                env = {**os.environ, "BOT_TOKEN": fake.token, "BOT_API_BASE_URL": fake.base_url,
                       "DB_PATH": str(tmp / "db.sqlite3"), "BOT_SEED": str(SEED),
                       "ACTION_TIMEOUT": "600", "PYTHONPATH": str(ROOT), **web}
                if database_url:
                    env["DATABASE_URL"] = database_url
                command = [sys.executable, str(ROOT / "bench" / "store_timed_bot.py"),
                           str(tmp / f"store{k}.jsonl")]
                if args.profile:
                    command = [sys.executable, "-m", "cProfile", "-o", args.profile, "-m", "bot"]
                logs.append(open(tmp / f"bot{k}.log", "wb"))  # noqa: SIM115
                procs.append(await asyncio.create_subprocess_exec(
                    *command, cwd=tmp, env=env, stdout=logs[-1], stderr=logs[-1]))
                await fake.wait_for(lambda f=fake: any(c.method == "getUpdates" for c in f.calls),
                                    timeout=60)
            rss0 = sum(rss_bytes(p.pid) for p in procs)
            t0 = time.perf_counter()
            sem = asyncio.Semaphore(20)

            async def one(fake: FakeTelegram, n: int) -> tuple[FakeTelegram, FakeChat]:
                async with sem:
                    seated = await seat(fake, load, n)
                    if load.pages is not None:
                        await load.pages.open(load.groups[seated[1].id])
                    return seated

            seated = await asyncio.gather(*(one(fake, k * args.tables + n) for k, fake
                                            in enumerate(tgs) for n in range(args.tables)))
            print(f"{len(seated)} tables seated and dealt in {time.perf_counter() - t0:.1f} s")
            # play: every current keyboard is pressed, then each new one as it arrives
            load.playing = True
            calls0 = [len(fake.calls) for fake in tgs]
            cpu0, mine0 = sum(cpu_seconds(p.pid) for p in procs), time.process_time()
            snapshot(args, procs)  # store time so far
            start = time.perf_counter()
            load.start_play(seated)
            rss_peak = 0
            deadline = start + args.seconds
            while not load.done.is_set() and time.perf_counter() < deadline:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(load.done.wait(), 5)
                rss_peak = max(rss_peak, sum(rss_bytes(p.pid) for p in procs))
            load.playing = False
            elapsed = time.perf_counter() - start
            cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu0
            snapshot(args, procs)
            mine = time.process_time() - mine0
            rss_peak = max(rss_peak, sum(rss_bytes(p.pid) for p in procs))
            calls = [c for fake, n in zip(tgs, calls0, strict=True) for c in fake.calls[n:]
                     if c.method != "getUpdates"]
            await asyncio.sleep(GRACE)  # the presses in flight are answered (or not)
            store = sum(store_seconds(tmp / f"store{k}.jsonl") for k in range(bots))
            return report(args, load, seated, elapsed, cpu, mine, calls, rss0, rss_peak, store)
        finally:
            for p in procs:
                with contextlib.suppress(ProcessLookupError):  # a bot that already ended
                    p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    await asyncio.wait_for(p.wait(), 60)
                except TimeoutError:
                    p.kill()
                    await p.wait()
            for task in list(load.tasks):
                task.cancel()
            for log in logs:
                log.close()
            if load.pages is not None:
                await load.pages.close()
            fake_methods.METHODS.update(saved)
            if args.profile:
                print(f"\nbot profile ({args.profile}), top 25 by own time:")
                pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)


async def compare(args: argparse.Namespace) -> None:
    """The runs ``--database-url`` asks for, then their main figures side by side."""
    runs: list[tuple[str, dict[str, float]]] = []
    print("== SQLite, one bot")
    runs.append(("SQLite, 1 bot", await run(args)))
    for bots in sorted({1, args.bots}):
        print(f"\n== PostgreSQL, {bots} bot{'s' if bots > 1 else ''}")
        schema = f"bench_load_{os.getpid()}_{bots}"
        url = await fresh_schema(args.database_url, schema)
        try:
            runs.append((f"PostgreSQL, {bots} bot{'s' if bots > 1 else ''}",
                         await run(args, url, bots)))
        finally:
            await fresh_schema(args.database_url, schema, drop=True)
    print(f"\n{'':18} {'actions/s':>10} {'CPU ms/action':>14} {'press p99 ms':>13}"
          f" {'store ms/action':>16}")
    for label, figures in runs:
        print(f"{label:18} {figures['throughput']:10.1f} {figures['cpu_ms']:14.1f}"
              f" {figures['answer_p99']:13.1f} {figures['store_ms']:16.2f}")
    one = next((f for label, f in runs if label == "PostgreSQL, 1 bot"), None)
    many = runs[-1][1] if args.bots > 1 else None
    if one is not None and many is not None and one["throughput"]:
        print(f"{args.bots} bots / 1 bot on PostgreSQL: {many['throughput'] / one['throughput']:.2f}"
              f" x the actions a second (ideal {args.bots})")


def report(args: argparse.Namespace, load: Load, seated: list[tuple[FakeTelegram, FakeChat]],
           elapsed: float, cpu: float, mine: float, calls: list[Any], rss0: int,
           rss_peak: int, store: float) -> dict[str, float]:
    n = max(load.accepted, 1)
    tables = len(seated)
    answer = [(load.answered[q] - t) * 1000 for q, t in load.handed.items()
              if q in load.answered]
    first = [(load.first_call[q] - t) * 1000 for q, t in load.handed.items()
             if q in load.first_call]
    per_minute = max(fake.max_per_minute(g) for fake, g in seated)
    by_method = Counter(c.method for c in calls)
    print(json.dumps({"tables": tables, "actions": load.accepted,
                      "refused_presses": load.refused, "seconds": round(elapsed, 1)}))
    print(f"throughput       {load.accepted / elapsed:8.1f} actions/s")
    print(f"bot CPU          {cpu * 1000 / n:8.1f} ms per action "
          f"({cpu / elapsed * 100:.0f}% of a core; this process {mine / elapsed * 100:.0f}%)")
    target = 300 if args.delay_ms else 100
    print(f"press -> answer  p50 {pct(answer, .5):7.1f} ms   p99 {pct(answer, .99):7.1f} ms"
          f"   (target p99 <= {target})")
    print(f"unanswered       {len(load.handed) - len(answer):8d} presses of {len(load.handed)} "
          f"(target 0)")
    round_ms = [x * 1000 for x in load.round]
    print(f"move -> next buttons at its table  p50 {pct(round_ms, .5):7.1f} ms   "
          f"p99 {pct(round_ms, .99):7.1f} ms" + ("   (target p99 <= 2000)" if args.think else ""))
    print(f"press -> 1st call in presser's chat  p50 {pct(first, .5):7.1f} ms   "
          f"p99 {pct(first, .99):7.1f} ms")
    total = len(calls) + load.preshown  # the calls that showed the first buttons count too
    print(f"Bot API calls    {total / n:8.2f} per action (target <= 1.5); without "
          f"answerCallbackQuery {(total - by_method['answerCallbackQuery']) / n:.2f}")
    print("                 " + ", ".join(f"{m} {k / n:.2f}" for m, k in by_method.most_common())
          + f", first buttons (before the window) {load.preshown / n:.2f}")
    shown = len(load.decisions) / n
    print(f"decisions shown  {shown:8.2f} per action: the floor is {1 + shown:.2f} calls per "
          "action (an answer per press, an edit per decision)")
    print(f"group pacing     {per_minute:8d} messages-or-edits in a minute, max over groups "
          "(real clock; target <= 20)")
    print(f"store time       {store * 1000 / n:8.2f} ms per action (SQL statements and commits)")
    capacity = print_capacity(tables, load, elapsed,
                              len(calls) + load.preshown - by_method["answerCallbackQuery"])
    print(f"memory           {(rss_peak - rss0) / tables / 1024:8.1f} KB per table "
          f"(RSS {rss0 / 2**20:.0f} -> {rss_peak / 2**20:.0f} MiB; target <= 200)")
    print(f"latency samples  {len(answer)} answers, median of all {statistics.median(answer):.1f}"
          if answer else "no samples")
    pages = [x * 1000 for x in load.pages.updates] if load.pages is not None else []
    if pages:
        print(f"move -> other pages updated  p50 {pct(pages, .5):7.1f} ms   "
              f"p99 {pct(pages, .99):7.1f} ms   (target p99 <= 150; {len(pages)} samples)")
    return {"throughput": load.accepted / elapsed, "cpu_ms": cpu * 1000 / n,
            "answer_p99": pct(answer, .99), "store_ms": store * 1000 / n,
            "calls": total / n, "pages_p99": pct(pages, .99), "capacity": capacity}


def print_capacity(tables: int, load: Load, elapsed: float, messages: int) -> float:
    """Tables per bot at this pace: answers to presses do not count against Telegram's
    messages a second, every message and edit does (returned: the lower figure)."""
    if not load.accepted or not messages:
        return float("nan")
    per_action = messages / load.accepted
    per_table = load.accepted / elapsed / tables  # actions a second at one table
    low, high = (b / (per_action * per_table) for b in BUDGET)
    print(f"capacity         {low:8.0f}-{high:.0f} tables per bot at this pace "
          f"({BUDGET[0]}-{BUDGET[1]} messages/s / ({per_action:.2f} messages-or-edits per "
          f"action x {per_table:.3f} actions/s per table))")
    return low


async def compare_pages(args: argparse.Namespace) -> None:
    """All seats by their pictures, then ``--webapp-seats`` of each table's by the page."""
    print("== every seat by its pictures")
    pictures = await run(args)
    print(f"\n== {args.webapp_seats} seat(s) of each table by the live page")
    pages = await run(args, webapp_seats=args.webapp_seats)
    print(f"\n{'':22} {'calls/action':>13} {'pages p99 ms':>13} {'tables/token':>13}")
    for label, f in (("pictures", pictures), (f"{args.webapp_seats} page seat(s)", pages)):
        print(f"{label:22} {f['calls']:13.2f} {f['pages_p99']:13.1f} {f['capacity']:13.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=3000, help="stop after this many")
    parser.add_argument("--seconds", type=float, default=90, help="play at most this long")
    parser.add_argument("--delay-ms", type=float, default=0,
                        help="network round trip added to every Bot API call (ms)")
    parser.add_argument("--think", type=float, default=0,
                        help="seconds a user takes to press (0.5-1.5 x this); 0: at once")
    parser.add_argument("--profile", help="write the bot's cProfile here and print its top")
    parser.add_argument("--database-url",
                        help="also run on this PostgreSQL database and compare with SQLite")
    parser.add_argument("--bots", type=int, default=1,
                        help="with --database-url: also run this many bots on it")
    parser.add_argument("--webapp-seats", type=int, default=0,
                        help="also run with this many seats a table (1-3) on the live page")
    args = parser.parse_args()
    if not 0 <= args.webapp_seats <= 3:
        parser.error("--webapp-seats is 0..3")
    if args.webapp_seats and args.database_url:
        parser.error("--webapp-seats runs alone (no --database-url)")
    if args.bots > 1 and not args.database_url:
        parser.error("--bots needs --database-url (several bots share one PostgreSQL store)")
    if not 1 <= args.bots <= len(TOKENS):
        parser.error(f"--bots is 1..{len(TOKENS)}")
    if args.webapp_seats and args.profile:  # the page seats' run alone, under the profiler
        asyncio.run(run(args, webapp_seats=args.webapp_seats))
    else:
        asyncio.run(compare(args) if args.database_url
                    else compare_pages(args) if args.webapp_seats else run(args))


if __name__ == "__main__":
    main()
