"""The store queries behind /rank's and /me's pictures, on a database of many hands.

    python bench/bench_stats.py [--hands 20000] [--players 30] [--runs 50]

Fills a fresh database with ``--hands`` finished qq hands of one group (3 of ``--players``
users each; logs of real engine hands, each played to its end by random choices and reused
in turn), then prints the median time of: the leaderboard's ten sparklines
(``Store.recent_points``, one query), /me's last ``bot.stats.CARD_HANDS`` hands
(``Store.user_hands``, three queries) and replaying them into the player card
(``bot.stats.player_card``: the first time, and again with their wins remembered), and a replay step (``bot.present.replays.picture``, replay and render).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import stats  # noqa: E402
from bot.present import replays  # noqa: E402
from bot.store import Store  # noqa: E402
from engine.rules import QQ  # noqa: E402
from engine.simulate import play_random  # noqa: E402
from engine.state import Hand  # noqa: E402

DISTINCT = 200  # distinct engine hands, reused in turn


def _hands(rng: random.Random) -> list[Hand]:
    return [play_random(Hand.new(QQ, seed=rng.getrandbits(63), dealer=i % 3), rng)
            for i in range(DISTINCT)]


async def fill(store: Store, hands: int, players: int, rng: random.Random) -> None:
    engine_hands = _hands(rng)
    async with store.transaction() as tx:
        for u in range(1, players + 1):
            await tx.upsert_user(u, f"P{u}", None, "zh")
        table_id = await tx.create_table(-1, 1, 1)
        for no in range(1, hands + 1):
            hand = engine_hands[no % DISTINCT]
            assert hand.outcome is not None
            users = rng.sample(range(1, players + 1), 3)
            hand_id = await tx.create_hand(table_id, no, "qq", hand.seed or 0, hand.dealer)
            for seq, (seat, action) in enumerate(hand.log):
                await tx.append_action(hand_id, seq, seat, action)
            await tx.finish_hand(hand_id, -1, users, hand.outcome.points, hand.outcome.winner)


async def median_ms(runs: int, work: Callable[[], Awaitable[object]]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def main(hands: int, players: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        started = time.perf_counter()
        await fill(store, hands, players, random.Random(1))
        print(f"filled {hands} hands in {time.perf_counter() - started:.1f} s")
        top = [r.user_id for r in await store.ranking(-1, stats.TOP)]
        print(f"recent_points, 10 players x {stats.RECENT} hands: "
              f"{await median_ms(runs, lambda: store.recent_points(top, 'qq', -1)):.1f} ms "
              f"(all groups: {await median_ms(runs, lambda: store.recent_points(top, 'qq')):.1f}"
              " ms)")
        mine = await store.user_hands(top[0], "qq", stats.CARD_HANDS)
        load = await median_ms(runs, lambda: store.user_hands(top[0], "qq", stats.CARD_HANDS))
        print(f"user_hands, last {len(mine)}: {load:.1f} ms")
        total = (await store.scores(top[0]))["qq"]

        async def card() -> object:
            return stats.player_card("P", top[0], total, mine)

        async def cold_card() -> object:
            stats._wins.clear()
            return await card()
        print(f"player_card from {len(mine)} hands: replayed "
              f"{await median_ms(max(3, runs // 10), cold_card):.1f} ms, "
              f"then (remembered) {await median_ms(runs, card):.2f} ms")
        found = await store.played_hand(mine[-1].id)
        assert found is not None
        played = found[1]

        async def step() -> object:
            return replays.picture(played, len(played.log) // 2, "zh")
        print(f"replay step (replay + render) of a {len(played.log)}-action hand: "
              f"{await median_ms(runs, step):.1f} ms")
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(main(args.hands, args.players, args.runs))
