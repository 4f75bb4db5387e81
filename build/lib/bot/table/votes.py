"""The rules of a table's votes: 解散 (end the hand in play with no points) and handing the
seat of a player in 托管 for ``ABSENT_HANDS`` whole hands to a computer player.

A seated human proposes; every other seated human must agree (computer players and seats in
托管 have no say; a 醒家 is seated and human, so he votes). One vote at a time per table. What
a vote decides is the table service's (``TableService.dissolve``,
``TableService.replace_seat``); the vote's message, clock and answers are
:mod:`bot.present.votes`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.table.model import Player, Refusal, Table, TableStatus

DISSOLVE = "dissolve"
REPLACE = "replace"


def check_proposable(table: Table, user_id: int, busy: bool) -> None:
    """Only the seated propose, and only when no vote of the table is open (``busy``)."""
    if table.seat_of(user_id) is None:
        raise Refusal("not_seated")
    if busy:
        raise Refusal("vote_busy")


def dissolved_hand(table: Table) -> int:
    """The hand a 解散 vote is on: the one in play."""
    if table.hand is None or table.current is None:
        raise Refusal("vote_no_hand")
    return table.current.id


def replaced_seat(table: Table, absent: Sequence[int], proposer: int) -> tuple[int, Player]:
    """(seat, player) a replacement vote is on: between hands, the first of the ``absent``
    seats (``TableService.absent_seats``) that is not the proposer's."""
    if table.status != TableStatus.BETWEEN:
        raise Refusal("replace_between")
    seats = [s for s in absent if table.players[s].user_id != proposer]
    if not seats:
        raise Refusal("replace_none")
    return seats[0], table.players[seats[0]]


def voters(table: Table, *besides: int) -> dict[int, str]:
    """Who has a say: the seated humans but ``besides`` and those in 托管 now (played for by
    the computer, away: waiting for them would keep a stuck hand stuck; a dissolved hand
    costs them nothing)."""
    return {p.user_id: p.name for _, p in sorted(table.players.items())
            if not (p.robot or p.autoplay) and p.user_id not in besides}
