"""Which lobbies /notify's subscribers hear of (the notes themselves: :mod:`bot.present.notify`)."""

from __future__ import annotations

from bot.table.model import Table, TableStatus


def wants_players(table: Table) -> bool:
    """A lobby worth a note: just opened (no hand dealt yet), or lacking exactly one."""
    free = table.rules.players - len(table.players)
    return table.status == TableStatus.LOBBY and free > 0 and (table.current is None or free == 1)
