"""The table service without Telegram: three people, a clock the test moves, and an observer
that checks write-ahead (every applied move is committed before it is told).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from bot.table import DEFAULT_RULES, HandRecord, Person, Refusal, Table, TableService
from engine import player
from engine.rules import RuleSet

PEOPLE = [Person(10 + i, n, "zh") for i, n in enumerate(("A", "B", "C"))]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Counting:
    """An observer that only counts the changes it is told of."""

    def __init__(self) -> None:
        self.changes = 0

    def changed(self, table: Table) -> None:
        self.changes += 1

    def settled(self, table: Table, record: HandRecord) -> None:
        pass

    def closed(self, table: Table) -> None:
        pass

    def unseated(self, table: Table, names: tuple[str, ...]) -> None:
        pass

    def match_over(self, table: Table, match_id: int) -> None:
        pass


class Observer:
    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.changes = 0
        self.settled_hands: list[HandRecord] = []
        self.closed_tables: list[Table] = []

    def _logged(self) -> int:
        with sqlite3.connect(self.db_path) as db:
            return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]

    def changed(self, table: Table) -> None:
        self.changes += 1
        if table.current is not None:  # write-ahead: whatever is applied is committed
            done = sum(len(r.hand.log) for r in self.settled_hands if r is not table.current)
            assert self._logged() == done + len(table.current.hand.log)

    def settled(self, table: Table, record: HandRecord) -> None:
        self.settled_hands.append(record)

    def closed(self, table: Table) -> None:
        self.closed_tables.append(table)


async def seated(service: TableService, people: Sequence[Person] = PEOPLE,
                 rules: RuleSet = DEFAULT_RULES) -> Table:
    """A table of ``rules`` in a group, opened by the first of ``people``, the others
    joined, and its first hand dealt."""
    table = await service.open(-100, people[0], rules)
    for p in people[1:]:
        await service.join(table.id, p)
    await service.begin(table.id, people[0].user_id)
    return table


def mover(table: Table) -> int:
    """A seat that has a decision now."""
    return next(s for s, d in table.decisions.items() if d.legal)


async def play_as_computer(service: TableService, table: Table, people: Sequence[Person],
                           rng: random.Random, now: list[float] | None = None) -> None:
    """A seat with a decision, not in 托管, plays as the computer would (engine.player):
    hands grow toward 听 as a player's do. When only seats in 托管 are to move, the clock
    ``now`` (the service's) passes their pause and their move is played."""
    assert table.current is not None
    hand = table.current.hand
    deciding = [s for s, d in table.decisions.items()
                if d.legal and not table.players[s].autoplay]
    rng.shuffle(deciding)
    for seat in deciding:
        d = table.decisions[seat]
        public = [e for e in hand.history if e.visible_to is None]
        action = player.choose(hand.private_view(seat), public, rng)
        try:
            await service.act(table.id, people[seat].user_id, d.version, d.legal.index(action))
            return
        except Refusal:
            continue
    if not deciding and now is not None:
        now[0] += 2
        await service.play_due(table.id)
        return
    raise AssertionError("no seat could play")
