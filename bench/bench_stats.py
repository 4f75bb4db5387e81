"""The store queries behind /me, /rank, /history and a restart, as the history grows, on each
backend.

    python bench/bench_stats.py [--sizes 10000,100000,1000000] [--players 30] [--groups 20]
                                [--runs 20] [--database-url postgresql://USER@HOST:PORT/DB]

Fills a fresh store with finished qq hands of ``--groups`` groups (3 of ``--players`` users
each; logs of real engine hands, each played to its end by random choices and reused in
turn; every group plays tables of ``TABLE_HANDS`` hands, its last table open), growing it to
each of ``--sizes`` in turn with bulk inserts (COPY on PostgreSQL), and at each size prints
the median time of the following (and, last, each figure's growth from the smallest size to the
largest, marked where it is more than ``FLAT``):

- /me: a player's scores over all groups and in one, and his best hand (``Store.scores``,
  ``Store.best_hand``); /me's card: his last ``bot.commands.stats.CARD_HANDS`` hands
  (``Store.user_hands``);
- /rank: a group's top ten and their sparklines (``Store.ranking``, ``Store.recent_points``),
  and the same over all groups (/rank all);
- /history: a group's last ``bot.commands.stats.HISTORY`` hands (``Store.finished_hands``);
- restart: what ``TableService.load`` and the start-up reads (open tables, their seats, last
  hands and matches, unposted settlements and matches, open votes);
- a deal's next hand number (``Store.next_hand_no``);
- /season: a group's current season board (``Store.season_ranking``, ``Store.season_recent``)
  over its last ``SEASON_HANDS`` hands (an older season closed before them), and /stats of
  that season, of a week and of a day (``Store.club_stats``: its last ``WEEK_HANDS`` and
  ``DAY_HANDS`` hands by finish time). A season's figures are summed from its hands, so these cost what the span holds,
  not what the history does.

SQLite always (a file in a temporary directory); PostgreSQL with ``--database-url`` (or
``TEST_DATABASE_URL``), in a schema of its own that is dropped at the end; ANALYZE runs after
each fill there, as autovacuum would. Then, once, the CPU side of /me's card and of /replay
(``bot.commands.stats.player_card`` replaying the hands, ``bot.present.replays.picture``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg  # noqa: E402

from bot.commands import stats  # noqa: E402
from bot.present import replays  # noqa: E402
from bot.store import PlayedHand, Score, Span, Store, open_store  # noqa: E402
from engine.rules import QQ  # noqa: E402
from engine.simulate import play_random  # noqa: E402
from engine.state import Hand  # noqa: E402

DISTINCT = 200  # distinct engine hands, reused in turn
TABLE_HANDS = 50  # hands a table plays before it closes and the group opens another
CHUNK = 20_000  # hands per bulk insert
STAMP = "2026-01-01 00:00:00"
START = datetime(2026, 1, 1, tzinfo=UTC)  # the first hand's end; each next one a minute on
SEASON_HANDS = 400  # hands of the measured group's current season (of its 500 at 10^4)
DAY_HANDS = 50  # hands of the measured group's day (/stats)
WEEK_HANDS = 300  # and of its week (/stats week)
HAND_COLUMNS = ("id", "table_id", "chat_id", "no", "rule_set", "seed", "dealer", "status",
                "group_msg_id", "settle_msg_id", "started_at", "ended_at", "winner", "zimo",
                "huxi")


class Filler:
    """Grows a store hand by hand in bulk, as a bot would have written it."""

    def __init__(self, store: Store, players: int, groups: int, rng: random.Random) -> None:
        self.store, self.players, self.groups, self.rng = store, players, groups, rng
        self.hands = [play_random(Hand.new(QQ, seed=rng.getrandbits(63), dealer=i % 3), rng)
                      for i in range(DISTINCT)]
        self.count = 0
        self.tables: dict[tuple[int, int], int] = {}  # (group, its table no) -> table id

    async def start(self) -> None:
        await self.store.load("users", ("user_id", "name", "lang"),
                              [(u, f"P{u}", "zh") for u in range(1, self.players + 1)])

    async def grow(self, size: int) -> None:
        while self.count < size:
            end = min(size, self.count + CHUNK)
            await self._chunk(self.count, end)
            self.count = end
        await self._seasons(size)
        async with self.store.transaction() as tx:  # each group's last table is open
            await tx.exec("UPDATE tables SET status = 'closed'")
            await tx.exec("UPDATE tables SET status = 'between' WHERE id IN"
                          " (SELECT MAX(id) FROM tables GROUP BY chat_id)")
            await tx.exec("DELETE FROM scores")
            await tx.exec(
                "INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins)"
                " SELECT t.chat_id, 'qq', r.user_id, SUM(r.points), COUNT(*),"
                " SUM(CASE WHEN r.seat = h.winner THEN 1 ELSE 0 END) FROM results r"
                " JOIN hands h ON h.id = r.hand_id JOIN tables t ON t.id = h.table_id"
                " WHERE t.chat_id < 0 GROUP BY t.chat_id, r.user_id")

    async def _seasons(self, size: int) -> None:
        """Group -1's current season: its last ``SEASON_HANDS`` hands, after a closed one."""
        last = size // self.groups - SEASON_HANDS
        async with self.store.transaction() as tx:
            await tx.exec("DELETE FROM seasons")
            await tx.exec("INSERT INTO seasons (chat_id, no, first_no, last_no, closed_by,"
                          " closed_at) VALUES (-1, 1, 1, ?, 1, ?)", last, STAMP)
            await tx.exec("INSERT INTO seasons (chat_id, no, first_no) VALUES (-1, 2, ?)",
                          last + 1)

    async def _chunk(self, start: int, end: int) -> None:
        tables, hands, actions, results = [], [], [], []
        for i in range(start, end):
            group, k = i % self.groups, i // self.groups
            key = (group, k // TABLE_HANDS)
            if key not in self.tables:
                self.tables[key] = len(self.tables) + 1
                tables.append((self.tables[key], -1 - group, 1, "closed", 1, "qq", STAMP))
            hand = self.hands[i % DISTINCT]
            assert hand.outcome is not None
            hand_id = i + 1
            win = hand.outcome.win
            hands.append((hand_id, self.tables[key], -1 - group, k + 1, "qq", str(hand.seed), hand.dealer,
                          "done", hand_id, hand_id, STAMP, ended(i), hand.outcome.winner,
                          int(win is not None and win.zimo), None if win is None else win.huxi))
            actions.extend((hand_id, seq, seat, action, 0, STAMP)
                           for seq, (seat, action) in enumerate(hand.log))
            users = self.rng.sample(range(1, self.players + 1), 3)
            results.extend((hand_id, seat, users[seat], p)
                           for seat, p in enumerate(hand.outcome.points))
        await self.store.load("tables", ("id", "chat_id", "opener_id", "status", "base",
                                         "rules", "created_at"), tables)
        await self.store.load("hands", HAND_COLUMNS, hands)
        await self.store.load("actions", ("hand_id", "seq", "seat", "action", "auto", "at"),
                              actions)
        await self.store.load("results", ("hand_id", "seat", "user_id", "points"), results)


def ended(i: int) -> str:
    """The i-th hand's finish time (a minute after the one before, over all groups)."""
    return (START + timedelta(minutes=i)).strftime("%Y-%m-%d %H:%M:%S")


async def median_ms(runs: int, work: Callable[[], Awaitable[object]]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def restart(store: Store) -> None:
    """The reads of a bot's start: every open table of the bot (the fill's are bot 0's)
    rebuilt, then what was left unposted at its tables."""
    for row in await store.open_tables(0):
        await store.running_match(row.id)
        await store.seats(row.id)
        last = await store.last_hand(row.id)
        if last is not None:
            await store.match_place(last.id)
    await store.unposted_hands(0)
    await store.unposted_matches(0)
    await store.open_votes(0)


async def me(store: Store, user: int, chat: int) -> None:
    await store.scores(user)
    await store.scores(user, chat)
    await store.best_hand(user, "qq")


async def rank(store: Store, chat: int | None) -> None:
    rows = await store.ranking(chat, stats.TOP)
    await store.recent_points([r.user_id for r in rows], "qq", chat, stats.RECENT)


async def season(store: Store, chat: int) -> None:
    current = await store.season(chat)
    assert current is not None
    span = Span.of(current)
    rows = await store.season_ranking(chat, span, "qq", stats.TOP)
    await store.season_recent(chat, span, "qq", [r.user_id for r in rows], stats.RECENT)


async def club_season(store: Store, chat: int) -> None:
    current = await store.season(chat)
    assert current is not None
    await store.club_stats(chat, Span.of(current), "qq")


COLUMNS = ("hands", "fill s", "/me", "/me card", "/rank", "/rank all", "/history", "restart",
           "next no", "/season", "/stats day", "/stats week", "/stats ssn")
FLAT = 2.0  # the most a figure may grow from the smallest size to the largest


async def measure(store: Store, runs: int, size: int, groups: int) -> list[float]:
    user = (await store.ranking(-1, 1))[0].user_id
    day = Span(since=ended(size - DAY_HANDS * groups))
    week = Span(since=ended(size - WEEK_HANDS * groups))
    return [
        await median_ms(runs, lambda: me(store, user, -1)),
        await median_ms(runs, lambda: store.user_hands(user, "qq", stats.CARD_HANDS)),
        await median_ms(runs, lambda: rank(store, -1)),
        await median_ms(runs, lambda: rank(store, None)),
        await median_ms(runs, lambda: store.finished_hands(-1, stats.HISTORY)),
        await median_ms(runs, lambda: restart(store)),
        await median_ms(runs, lambda: store.next_hand_no(-1)),
        await median_ms(runs, lambda: season(store, -1)),
        await median_ms(runs, lambda: store.club_stats(-1, day, "qq")),
        await median_ms(runs, lambda: store.club_stats(-1, week, "qq")),
        await median_ms(runs, lambda: club_season(store, -1)),
    ]


def growth(first: list[float], last: list[float]) -> str:
    """The last size's figures over the first's, each marked when it grew more than FLAT."""
    ratios = [b / a if a > 0 else float("inf") for a, b in zip(first, last, strict=True)]
    cells = [f"{r:>8.2f}{'!' if r > FLAT else ' '}" for r in ratios]
    verdict = "flat" if max(ratios) <= FLAT else f"NOT flat (! grew over {FLAT:g}x)"
    return " ".join([f"{'growth':>9}", f"{'':>9}"] + cells) + f"  {verdict}"


async def backend(name: str, url: str, sizes: list[int], args: argparse.Namespace,
                  analyze: bool) -> None:
    store = await open_store(url)
    try:
        filler = Filler(store, args.players, args.groups, random.Random(1))
        await filler.start()
        print(f"\n{name}: median ms ({args.players} players, {args.groups} groups, tables of "
              f"{TABLE_HANDS} hands)")
        print(" ".join(f"{c:>9}" for c in COLUMNS))
        rows = []
        for size in sizes:
            started = time.perf_counter()
            await filler.grow(size)
            if analyze:
                async with store.transaction() as tx:
                    await tx.exec("ANALYZE")
            filled = time.perf_counter() - started
            rows.append(await measure(store, args.runs, size, args.groups))
            print(" ".join([f"{size:>9}", f"{filled:>9.1f}"] + [f"{f:>9.2f}" for f in rows[-1]]),
                  flush=True)
        if len(rows) > 1:
            print(growth(rows[0], rows[-1]))
    finally:
        await store.close()


async def cpu_side(user: int, total: Score, hands: list[PlayedHand], runs: int) -> None:
    async def card() -> object:
        return stats.player_card("P", user, total, hands)

    async def cold_card() -> object:
        stats._wins.clear()
        return await card()
    print(f"\nplayer_card from {len(hands)} hands: replayed "
          f"{await median_ms(max(3, runs // 10), cold_card):.1f} ms, "
          f"then (remembered) {await median_ms(runs, card):.2f} ms")

    async def step() -> object:
        return replays.picture(hands[-1], len(hands[-1].log) // 2, "zh")
    print(f"replay step (replay + render) of a {len(hands[-1].log)}-action hand: "
          f"{await median_ms(runs, step):.1f} ms")


def _schema_url(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _admin(url: str, sql: str) -> None:
    db = await asyncpg.connect(url)
    try:
        await db.execute(sql)
    finally:
        await db.close()


def _sizes(text: str) -> Iterator[int]:
    return (int(s) for s in text.split(","))


async def main(args: argparse.Namespace) -> None:
    sizes = sorted(_sizes(args.sizes))
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite://{tmp}/bench.sqlite3"
        await backend("SQLite", url, sizes, args, analyze=False)
        store = await open_store(url)
        user = (await store.ranking(-1, 1))[0].user_id
        hands = await store.user_hands(user, "qq", stats.CARD_HANDS)
        total = (await store.scores(user))["qq"]
        await store.close()
    pg = args.database_url or os.environ.get("TEST_DATABASE_URL")
    if pg:
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        await _admin(pg, f"CREATE SCHEMA {schema}")
        try:
            await backend("PostgreSQL", _schema_url(pg, schema), sizes, args, analyze=True)
        finally:
            await _admin(pg, f"DROP SCHEMA {schema} CASCADE")
    else:
        print("\nPostgreSQL: not measured (give --database-url or TEST_DATABASE_URL)")
    await cpu_side(user, total, hands, args.runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--database-url", default=None)
    asyncio.run(main(parser.parse_args()))
