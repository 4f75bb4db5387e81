"""A 群杯 of many players in one bot process (the bot in this process, as the end-to-end
tests run it, against the fake Bot API on loopback): 27 players by default, 9 tables a round
in 9 forum topics the bot creates, every human seat played by 托管 once its short decision
timer runs out, the computer players at ``--autoplay`` seconds a move. Telegram's limits are
paced ``--scale`` times faster than Telegram's (the tests' pacing), so one forum's 20
messages a minute do not stretch the run.

    python bench/bench_cup.py [--players 27] [--rounds 2] [--hands 1] [--autoplay 0.2]

``--autoplay 3`` plays at about human pace (a move every 3 s at each table); the default
runs the same cup quicker, and the figures below do not depend on it.

Prints, for each round after the first, the time from the previous round's last hand
(its settlement committed) to the last of the round's tables dealt (every table is dealt
when it opens), and the Bot API calls (getUpdates excluded) per action played, by method.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]
sys.path.append(str(ROOT / "tests"))

from support.e2e import SCALE, make_config, running_bot, services  # noqa: E402
from support.fakebot import FakeTelegram  # noqa: E402

from bot.table import cup_tables  # noqa: E402
from bot.table.cups import Cup  # noqa: E402


async def run(args: argparse.Namespace) -> None:
    settled: dict[int, float] = {}  # table id -> its last settlement
    dealt: dict[int, float] = {}  # table id -> opened and dealt
    opener = cup_tables.open_seated

    async def timed_open(*a: object, **k: object):  # type: ignore[no-untyped-def]
        table = await opener(*a, **k)  # type: ignore[arg-type]
        dealt[table.id] = time.perf_counter()
        return table

    cup_tables.open_seated = timed_open  # type: ignore[assignment]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db.sqlite3"
        async with FakeTelegram(clock=lambda: (time.monotonic() - started) * SCALE) as tg:
            users = [tg.user(f"P{k:02}", language_code="zh-hans") for k in range(args.players)]
            for user in users:
                tg.start_private(user)
            forum = tg.forum("杯", members=tuple(users))
            forum.members[tg.bot.id] = "administrator"
            config = make_config(tg, db, action_timeout=0.5, autoplay_delay=args.autoplay,
                                 full_start_delay=0.0)
            async with running_bot(config) as app:
                hub = services(app).hub
                told = hub.settled

                def timed_settled(table, record):  # type: ignore[no-untyped-def]
                    settled[table.id] = time.perf_counter()
                    told(table, record)

                hub.settled = timed_settled  # type: ignore[method-assign]
                await tg.send_text(forum, users[0], f"/cup {args.rounds}轮 {args.hands}局")
                card = await tg.wait_for(lambda: next(
                    (m for m in tg.messages(forum) if (m.text or "").startswith("🏅")), None),
                    timeout=30)
                for user in users[1:]:
                    await tg.press_button(card, user, "报名")
                calls_before = len(tg.calls)
                t0 = time.perf_counter()
                await tg.send_text(forum, users[0], "/cup start")
                await tg.wait_for(lambda: any((m.text or "").startswith("🏆")
                                              for m in tg.messages(forum)),
                                  timeout=args.rounds * args.hands * 600)
                elapsed = time.perf_counter() - t0
                calls = Counter(c.method for c in tg.calls[calls_before:]
                                if c.method != "getUpdates")
        with sqlite3.connect(db) as conn:
            actions = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            cup = Cup.loads(conn.execute("SELECT state FROM cups").fetchone()[0])
    print(f"{args.players} players, {len(cup.tables[0])} tables a round, {cup.rounds} rounds of"
          f" {cup.hands} hand(s): {elapsed:.1f} s, {actions} actions")
    for k in range(1, len(cup.tables)):
        last_hand = max(settled[t.table_id] for t in cup.tables[k - 1] if t.table_id)
        deals = max(dealt[t.table_id] for t in cup.tables[k] if t.table_id)
        print(f"round {k + 1}: last hand of round {k} -> all {len(cup.tables[k])} tables "
              f"dealt: {(deals - last_hand) * 1000:.0f} ms")
    total = sum(calls.values())
    print(f"Bot API calls: {total} = {total / actions:.2f} per action; "
          + ", ".join(f"{m} {n / actions:.2f}" for m, n in calls.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=27)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--autoplay", type=float, default=0.2)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
