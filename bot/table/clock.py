"""The table's clock: when a decision times out, when a computer player or a seat in 托管
plays, when the wait for 再来一局 ends and when a full lobby deals, each a pure function of
the table, the bot's :class:`Pace` and (for what is due) the time now.

Decisions carry the clock time they were first awaited. The database keeps when: each move
is stored with its time, and so is a seat's clock started afresh (托管 switched off) and a
hand's end, so that after a restart every deadline is where it was (:func:`restore`): a
decision that had 586 s left has 586 s left, less the time the bot was down. Only the
memory-only ``full_since`` starts again from load time. Whoever runs the timers
(:mod:`bot.present.timers`) asks :func:`due_at` after every committed change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from bot.table.model import SLOW, SLOW_TIMEOUT, Table, TableStatus

EPSILON = 1e-3  # a timer firing this early still counts as on time
# seconds a person's decision has at least after a restart: time to see his buttons again
# (the bot was down: he could not press), not 托管 the moment the bot is back
RESTART_GRACE = 20.0


@dataclass(frozen=True, kw_only=True)
class Pace:
    """The bot's times, in seconds (named: a field added between two others must not take
    the place of the next one)."""

    action_timeout: float  # a human's decision at a table with the bot's default timer
    autoplay_delay: float  # the pause before a seat in 托管 plays, or a computer discards
    ready_timeout: float = 120.0  # between hands, before those who did not press 再来一局 go
    # the pauses before a computer player discards when one human plays alone with computer
    # players (each no more than ``autoplay_delay``): his private picture shows each computer
    # move at his chat's one edit a second (bot.present.pacing's ``dm_interval``). Counted
    # from his last move (his own, or his answer to a card): the first computer discard goes
    # at once (his chat is free, his own edit held for it, bot.present.pacing.hand_hold: both
    # show in one edit); the next ``alone_paced`` each wait ``alone_delay`` (an edit each:
    # waiting less would not bring his buttons sooner, they would wait for the edit); any
    # later one goes at once, listed in his next edit's caption
    # (bot.present.screens.seat.moves_line): however long a chain of computer discards, he
    # waits at most ``alone_paced`` pauses for his next buttons
    alone_delay: float = 1.0
    alone_first_delay: float = 0.0
    alone_paced: int = 2
    full_start_delay: float = 10.0  # a full lobby's wait before it deals


def timeout(table: Table, pace: Pace) -> float:
    """Seconds a human's decision waits before 托管 at this table (its timer)."""
    if table.timer is None:
        return pace.action_timeout
    return SLOW_TIMEOUT if table.timer == SLOW else float(table.timer)


def deadline(table: Table, seat: int, pace: Pace) -> float:
    """When the seat's open decision times out (or a 托管/computer seat plays). A computer
    player's discard waits ``autoplay_delay`` (with one human at the table, the pause its place
    since his last move gives it: :func:`alone_pause`), time for the people at the table to
    see the move before; its answer to an offered card (过, 吃, 碰, 胡) is no move to watch
    for, and takes no pause: the table goes on at once."""
    player, decision = table.players[seat], table.decisions[seat]
    if player.robot and not any(a.startswith("d:") for a in decision.legal):
        return decision.since
    if player.robot and sum(not p.robot for p in table.players.values()) == 1:
        return decision.since + min(pace.autoplay_delay, alone_pause(table, pace))
    limit = pace.autoplay_delay if player.autoplay or player.robot else timeout(table, pace)
    return decision.since + limit


def alone_pause(table: Table, pace: Pace) -> float:
    """The pause before a computer's discard at a table of one human: ``alone_first_delay``
    for the first since his last move, ``alone_delay`` for each of the next ``alone_paced``,
    none after them (see :class:`Pace`)."""
    before = _computer_discards_since_human(table)
    if before == 0:
        return pace.alone_first_delay
    return pace.alone_delay if before <= pace.alone_paced else 0.0


def _computer_discards_since_human(table: Table) -> int:
    """How many discards the computer players made in this hand since the human's last move
    (his own, or his answer to a card; since the deal if he has made none)."""
    hand = table.hand
    count = 0
    for seat, action in reversed(hand.log if hand is not None else ()):
        player = table.players.get(seat)
        if player is None or not player.robot:
            break
        count += action.startswith("d:")
    return count


def start_delay(table: Table, pace: Pace) -> float:
    """A full lobby's wait before it deals: time for someone who joined to change his mind.
    A human sitting only with computer players filled the table himself, and no other human
    could still leave: it deals at once, unless a match just ended there (a standing
    table's players, ready at once by the club's 自动准备, see its 总结算 first)."""
    humans = sum(not p.robot for p in table.players.values())
    after_match = table.current is not None and table.current.match_place is not None \
        and table.match is None
    return pace.full_start_delay if humans > 1 or after_match else 0.0


def restore(table: Table, *, now: float, wall: float,
            clock_from: Mapping[int, float | None], pace: Pace | None = None) -> None:
    """A table read from the store (its decisions and its wait for 再来一局 first awaited
    ``now``, the clock's time) given back the times they were first awaited, from the
    times the store kept (epoch seconds; ``wall``: the epoch seconds now): its hand's
    ``awaited_at`` and ``ended_at``, and each seat's clock started afresh since
    (``clock_from``). Time the bot was down counts, as it would have had it run, but a
    person's decision, and the wait for 再来一局, keep ``RESTART_GRACE`` seconds at least
    (with ``pace``): nobody is played for or unseated the moment the bot is back."""
    record = table.current

    def since(at: float) -> float:
        return now - max(0.0, wall - at)

    def with_grace(first: float, limit: float) -> float:
        return max(first, now + min(RESTART_GRACE, limit) - limit)
    if table.status == TableStatus.BETWEEN and record is not None \
            and record.ended_at is not None:
        table.between_since = since(record.ended_at)
        if pace is not None:
            table.between_since = with_grace(table.between_since, pace.ready_timeout)
    if record is None or record.awaited_at is None or table.hand is not record.hand:
        return
    for seat, decision in list(table.decisions.items()):
        if not decision.legal:
            continue
        at = max(record.awaited_at, clock_from.get(seat) or record.awaited_at)
        first = since(at)
        player = table.players.get(seat)
        if pace is not None and player is not None and not (player.robot or player.autoplay):
            first = with_grace(first, timeout(table, pace))
        restored = dataclasses.replace(decision, since=first)
        table.decisions[seat] = restored
        if table.offered.get((seat, decision.version)) is decision:
            table.offered[seat, decision.version] = restored


def due_at(table: Table, pace: Pace) -> float | None:
    """Clock time at which some awaited seat is to be played for, or, between hands, at which
    those who did not press 再来一局 are unseated, or a full lobby deals; None if nothing is
    due. A table whose last change was not stored is due when it is to be tried again
    (:mod:`bot.table.work`)."""
    if table.unsynced and table.retry_at is not None:
        return table.retry_at
    if table.status == TableStatus.BETWEEN and table.between_since is not None:
        return table.between_since + pace.ready_timeout
    if table.status == TableStatus.LOBBY and table.full_since is not None:
        return table.full_since + start_delay(table, pace)
    if table.status == TableStatus.LOBBY and table.between_since is not None:
        return table.between_since + pace.ready_timeout  # a standing table after a match
    hand = table.hand
    if hand is None:
        return None
    return min((deadline(table, s, pace) for s in hand.to_act()), default=None)


def is_due(table: Table, pace: Pace, now: float) -> bool:
    """Is something due at ``now``?"""
    due = due_at(table, pace)
    return due is not None and due <= now + EPSILON


def due_seat(table: Table, pace: Pace, now: float) -> int | None:
    """The first awaited seat (in the hand's order) whose time is up at ``now``."""
    hand = table.hand
    if hand is None:
        return None
    return next((s for s in hand.to_act() if deadline(table, s, pace) <= now + EPSILON), None)
