"""A 群杯 of many players in one bot process (the bot in this process, as the end-to-end
tests run it, against the fake Bot API on loopback): 27 players by default, 9 tables a round
in 9 forum topics the bot creates, every human seat played by 托管 once its short decision
timer runs out, a move every ``--autoplay`` seconds at each table: human pace by default.
The fake enforces Telegram's limits (one forum's 20 messages a minute for all its topics, a
private chat's one a second) with a round trip of ``--delay-ms``, and the bot paces itself
as in production; the refusals the fake counted are printed.

    python bench/bench_cup.py [--players 27] [--rounds 2] [--hands 1] [--autoplay 3]
                              [--delay-ms 100] [--quick]

``--quick`` runs the same cup in a minute or two instead: a move every 0.2 s, and Telegram's
limits and the bot's pacing ``SCALE`` times faster (the tests' pacing), with no round trip.

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

from support.e2e import FAST_PACING, SCALE, make_config, running_bot, scaled_clock, services  # noqa: E402
from support.fakebot import FakeTelegram, RateLimits  # noqa: E402

from bot.present.pacing import Pacing  # noqa: E402
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
    fake = dict(clock=scaled_clock(SCALE)) if args.quick else \
        dict(rate_limits=RateLimits(), delay=args.delay_ms / 1000)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db.sqlite3"
        async with FakeTelegram(**fake) as tg:  # type: ignore[arg-type]
            users = [tg.user(f"P{k:02}", language_code="zh-hans") for k in range(args.players)]
            for user in users:
                tg.start_private(user)
            forum = tg.forum("杯", members=tuple(users))
            forum.members[tg.bot.id] = "administrator"
            config = make_config(tg, db, action_timeout=0.5, full_start_delay=0.0,
                                 autoplay_delay=0.2 if args.quick else args.autoplay,
                                 pacing=FAST_PACING if args.quick else Pacing())
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
                refused = len(tg.rejections) if not args.quick else 0
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
    if not args.quick:
        print(f"429 refusals by the fake: {refused}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=27)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--autoplay", type=float, default=3.0)
    parser.add_argument("--delay-ms", type=float, default=100.0)
    parser.add_argument("--quick", action="store_true")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
