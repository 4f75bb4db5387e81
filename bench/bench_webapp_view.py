"""What building one seat's page view costs on the event loop, now (``bot.webapp.view``'s face
of the seat model, ``bot.present.screens.seat.seat_model``) and at ``--before`` (a git
revision's view.py, which computed the seat's 听 for each pushed view): every seat's view at
every step of ``--hands`` qq hands that ``engine.player`` plays through the table service, as
the pushes after each change build them. Each side plays the same hands from cold caches (the
analyzer's own memo included), one after the other. Prints, for each side, the views, the
times 听's analyzer part was computed for them (before: once a view; now: once a decision of
the seat, ``engine.ting.shape``), the mean CPU time per view (this thread's: less swayed than the
clock by a loaded machine), and now the mean of the views that
computed it and of those that did not (docs/live-seat.md).

    .venv/bin/python bench/bench_webapp_view.py [--hands 6] [--before 2192518]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from webapp_table import ROOT

from bot.present.screens import seat as seat_screen
from bot.store import Store
from bot.table import HandRecord, Person, Refusal, Table, TableService, TableStatus
from bot.webapp import view as now
from engine import player
from engine import ting as engine_ting
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
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class Counting:
    def __getattr__(self, name):  # the table observer, told nothing here
        return lambda *args, **kwargs: None


View = Callable[[TableService, Table, HandRecord, int], object]


async def play(tmp: Path, hands: int, build: View) -> list[float]:
    """Each view's build time, in order, over ``hands`` hands played the same way."""
    engine_ting._winning_kinds.cache_clear()
    seat_screen._shapes.clear()
    store = await Store.open(tmp / f"db{time.monotonic_ns()}.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    service = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5,
                           seed=1, rng=random.Random(1))
    table = await service.open(-100, PEOPLE[0], table_rules("qq", 3))
    for p in PEOPLE[1:]:
        await service.join(table.id, p)
    await service.begin(table.id, PEOPLE[0].user_id)
    spent = []
    for hand in range(hands):
        if hand:
            for p in PEOPLE:
                await service.again(table.id, p.user_id)
        rng = random.Random(hand)
        while table.status == TableStatus.PLAYING:
            record = table.current
            assert record is not None
            for seat in range(3):
                t0 = time.thread_time()
                build(service, table, record, seat)
                spent.append(time.thread_time() - t0)
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
    return spent


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--before", default="2192518")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = old_module(args.before, Path(tmp))
        computed: list[int] = []  # per view: the 听 computations it made
        ting, shape = before.compute_ting, engine_ting.shape

        def counted(f):
            def run(*a):
                computed[-1] += 1
                return f(*a)
            return run
        before.compute_ting = counted(ting)

        def old(service, table, record, seat):
            computed.append(0)
            before.seat_ting.cache_clear()  # each pushed view's is new
            before.seat_view(table, record, seat, "zh", trustee=frozenset(),
                             clocks=before.clocks(service, table, record, seat))

        def new(service, table, record, seat):
            computed.append(0)
            now.seat_view(seat_screen.seat_model(
                table, record, seat, "zh", trustee=frozenset(),
                clocks=seat_screen.clocks(service, table, record, seat)))

        spent_before = await play(Path(tmp), args.hands, old)
        computed_before, computed[:] = sum(computed), []
        engine_ting.shape = counted(shape)
        spent_now = await play(Path(tmp), args.hands, new)
    views = len(spent_now)
    fresh = [s for s, n in zip(spent_now, computed, strict=True) if n]
    kept = [s for s, n in zip(spent_now, computed, strict=True) if not n]
    ms = 1000
    print(f"{views} views; 听 computed: before ({args.before}) {computed_before} times, "
          f"now {sum(computed)} times")
    print(f"per view: before {sum(spent_before) / views * ms:.2f} ms, "
          f"now {sum(spent_now) / views * ms:.2f} ms "
          f"({len(fresh)} views computing a decision's 听: {sum(fresh) / len(fresh) * ms:.2f} ms; "
          f"the {len(kept)} others: {sum(kept) / len(kept) * ms:.2f} ms)")


if __name__ == "__main__":
    asyncio.run(main())
