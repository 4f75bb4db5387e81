"""A table in memory as it was before a change, to put it back when the change is not stored.

The unit of work (:mod:`bot.table.work`) mirrors each write on the table as it goes; when the
transaction does not commit (the store is down, a row is locked, a bug), the table is put
back exactly as it was, without asking the store: memory then holds only what was stored,
and nothing shows a move the store does not have. The objects the presenter keys by identity
(the table, its players, its hand record) stay the same objects; a hand that took moves is
replayed from its deck up to the moves it had (the engine is deterministic).
"""

from __future__ import annotations

import dataclasses

from bot.table.model import Player, Table
from engine.state import Hand

_OWN = frozenset({"lock", "players", "decisions", "offered", "pressed"})  # kept apart
_FIELDS = tuple(f.name for f in dataclasses.fields(Table) if f.name not in _OWN)


class Snapshot:
    """What :meth:`restore` puts back: every field of the table, its players' fields, and
    the length of its hand's log."""

    def __init__(self, table: Table) -> None:
        self._fields = {name: getattr(table, name) for name in _FIELDS}
        self._players = {seat: (p, dataclasses.astuple(p)) for seat, p in table.players.items()}
        self._decisions = dict(table.decisions)
        self._offered = dict(table.offered)
        self._pressed = dict(table.pressed)
        self._moves = len(table.current.hand.log) if table.current is not None else 0

    def restore(self, table: Table) -> None:
        for name, value in self._fields.items():
            setattr(table, name, value)
        table.players = {}
        for seat, (player, values) in self._players.items():
            for f, value in zip(dataclasses.fields(Player), values, strict=True):
                setattr(player, f.name, value)
            table.players[seat] = player
        table.decisions = dict(self._decisions)
        table.offered = dict(self._offered)
        table.pressed = dict(self._pressed)
        record = table.current
        if record is not None and len(record.hand.log) != self._moves:
            record.hand = rewound(record.hand, self._moves)


def rewound(hand: Hand, moves: int) -> Hand:
    """The hand as it was after its first ``moves`` moves."""
    fresh = Hand(hand.rules, hand.deck, hand.dealer, hand.seed, hand.base)
    for seat, action in hand.log[:moves]:
        fresh.apply_logged(seat, action)
    return fresh
