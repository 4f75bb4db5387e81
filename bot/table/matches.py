"""A hand's settlement and the match (局数) it counts in: what a finished hand writes, who
deals next, and when a match ends (its last hand, a 逃跑, a 解散, /stop or someone leaving
between hands). Each function writes in the change's transaction and returns (or sets) the
table's new memory; the unit of work (:mod:`bot.table.work`) keeps the two together.
"""

from __future__ import annotations

import dataclasses

from bot.store import Tx
from bot.table import birds
from bot.table.model import HandRecord, Match, MatchStatus, Table, TableStatus
from engine.state import next_dealer
from engine.views import OutcomeKind


async def settle(tx: Tx, table: Table, record: HandRecord, match: Match | None, *,
                 leaver: int | None = None) -> dict[str, object]:
    """Write a finished hand's results; return the table's new columns (``match`` and
    ``ended_match`` too when the hand is one of ``match``: it counts, and the match's last
    hand, or ``leaver``'s 逃跑, ends it)."""
    outcome = record.hand.outcome
    assert outcome is not None
    points = await birds.settle(tx, table.chat_id, record)  # 打鸟: the seats' share
    dissolved = outcome.kind == OutcomeKind.DISSOLVED
    win = outcome.win
    await tx.finish_hand(record.id, table.chat_id, record.users, points, outcome.winner,
                         counted=not dissolved, zimo=win is not None and win.zimo,
                         huxi=None if win is None else win.huxi)
    match_cols = await count(tx, match, tuple(points), leaver, dissolved=dissolved)
    dealer = record.hand.dealer
    if outcome.kind == OutcomeKind.ESCAPE:
        draws = table.draws_in_row
    else:
        dealer, draws = next_dealer(record.hand.rules, dealer, outcome, table.draws_in_row)
    cols: dict[str, object] = {"status": TableStatus.BETWEEN, "dealer": dealer,
                               "draws_in_row": draws}
    if match_cols.get("ended_match") is not None and leaver is None:
        # the match's last hand: back to the lobby, where a new match starts (and draws
        # its first dealer) with 开局, and the opener may change the options
        cols = {"status": TableStatus.LOBBY, "dealer": None, "draws_in_row": 0}
    await tx.update_table(table.id, **cols)
    return cols | match_cols


async def count(tx: Tx, match: Match | None, points: tuple[int, ...], leaver: int | None, *,
                dissolved: bool = False) -> dict[str, object]:
    """A finished hand of a match: the match with it, or ended by it. A hand the seats voted
    to end (解散) ends its match too, as /stop does: they wanted to stop playing."""
    if match is None:
        return {}
    played = dataclasses.replace(match, played=(*match.played, points))
    if leaver is None and not dissolved and len(played.played) < match.hands:
        return {"match": played}
    status = MatchStatus.STOPPED if dissolved else MatchStatus.DONE if leaver is None \
        else MatchStatus.LEFT
    await end(tx, played, status, leaver)
    return {"match": None, "ended_match": match.id}


async def end(tx: Tx, match: Match, status: MatchStatus, leaver: int | None = None) -> None:
    """Store an ended match; one that finished no hand has no 总结算 to post (0)."""
    await tx.update_match(match.id, status=status, leaver=leaver,
                          summary_msg_id=None if match.played else 0)


def set_columns(table: Table, cols: dict[str, object]) -> None:
    """Mirror columns just written (by name) on the table in memory."""
    for name, value in cols.items():
        setattr(table, name, value)
