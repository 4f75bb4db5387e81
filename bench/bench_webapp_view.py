"""What building one seat's page view costs (``bot.webapp.view.seat_view``), now and at
``--before`` (a git revision's view.py): every seat's view at every step of ``--hands`` qq
hands that ``engine.player`` plays through the table service, 听 computed afresh for each
(as a push after a change does). Prints the mean per view (docs/live-seat.md).

    .venv/bin/python bench/bench_webapp_view.py [--hands 6] [--before 2c0e6ab]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import subprocess
import tempfile
import time
from pathlib import Path

from webapp_table import ROOT

from bot.store import Store
from bot.table import Person, Refusal, TableService, TableStatus
from bot.webapp import view as now
from engine import player
from engine.rules import table_rules

PEOPLE = [Person(10 + i, n, "zh") for i, n in enumerate("ABC")]


def old_module(rev: str, tmp: Path):
    source = subprocess.run(["git", "show", f"{rev}:bot/webapp/view.py"], cwd=ROOT,
                            check=True, capture_output=True).stdout
    path = tmp / "view_before.py"
    path.write_bytes(source)
    spec = importlib.util.spec_from_file_location("view_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Counting:
    def __getattr__(self, name):  # the table observer, told nothing here
        return lambda *args, **kwargs: None


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--before", default="2c0e6ab")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = old_module(args.before, Path(tmp))
        store = await Store.open(Path(tmp) / "db.sqlite3")
        for p in PEOPLE:
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        service = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5,
                               seed=1, rng=random.Random(1))
        table = await service.open(-100, PEOPLE[0], table_rules("qq", 3))
        for p in PEOPLE[1:]:
            await service.join(table.id, p)
        await service.begin(table.id, PEOPLE[0].user_id)
        spent, views = {"before": 0.0, "now": 0.0}, 0
        for hand in range(args.hands):
            if hand:
                for p in PEOPLE:
                    await service.again(table.id, p.user_id)
            rng = random.Random(hand)
            while table.status == TableStatus.PLAYING:
                record = table.current
                for seat in range(3):
                    t0 = time.perf_counter()
                    before.seat_view(table, record, seat, "zh", trustee=frozenset(),
                                     seconds_left=None)
                    t1 = time.perf_counter()
                    now.seat_ting.cache_clear()
                    now.seat_view(table, record, seat, "zh", trustee=frozenset(),
                                  clocks=now.clocks(service, table, record, seat))
                    t2 = time.perf_counter()
                    spent["before"] += t1 - t0
                    spent["now"] += t2 - t1
                    views += 1
                for seat, d in list(table.decisions.items()):
                    if not d.legal:
                        continue
                    public = [e for e in record.hand.history if e.visible_to is None]
                    action = player.choose(record.hand.private_view(seat), public, rng)
                    try:
                        await service.act(table.id, PEOPLE[seat].user_id, d.version,
                                          d.legal.index(action))
                        break
                    except Refusal:
                        continue
        await store.close()
    print(f"{views} views: before ({args.before}) {spent['before'] / views * 1000:.2f} ms, "
          f"now {spent['now'] / views * 1000:.2f} ms a view")


if __name__ == "__main__":
    asyncio.run(main())
