"""Stepping through a finished hand's record: every seat's view after its first k actions.

A step is one entry of the record's log (the one ``/export`` gives and ``python -m engine
verify`` checks), passes included: once the hand is over nothing in it is private any more,
so a replay shows every hand and who passed on what. Replaying a hand that has not ended is
refused — its hands are still secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.rules import get_rule_set
from engine.state import Hand
from engine.views import Event, PrivateView


@dataclass(frozen=True)
class ReplayFrame:
    """The hand after ``step`` of its ``total`` actions. ``views[i]`` is seat i's private view
    (its hand, melds and 胡息); ``moved`` the events the step's action caused, for every
    audience (a pass too); empty at step 0, where ``views`` show the table after the deal."""

    views: tuple[PrivateView, ...]
    step: int
    total: int
    moved: tuple[Event, ...]

    @property
    def finished(self) -> bool:
        return self.step == self.total


def replay_views(
    rules_key: str,
    seed: int,
    dealer: int,
    base: int | None,
    actions: Sequence[tuple[int, str]] | Sequence[Sequence[Any]],
    k: int,
) -> ReplayFrame:
    """Replay the record (rules key, seed, dealer, base, log) and return the frame after its
    first ``k`` actions. ``ValueError`` for a ``k`` outside 0..len(actions) or a record whose
    hand has not ended; ``engine.state.IllegalAction`` (a ``ValueError``) for a bad log."""
    if not 0 <= k <= len(actions):
        raise ValueError(f"step {k} is outside 0..{len(actions)}")
    hand = Hand.new(get_rule_set(rules_key), seed=seed, dealer=dealer, base=base)
    frame = _frame(hand, 0, len(actions), []) if k == 0 else None
    for i, (seat, action) in enumerate(actions, 1):
        moved = hand.apply_logged(seat, action)
        if i == k:
            frame = _frame(hand, k, len(actions), moved)
    if not hand.is_terminal():
        raise ValueError("the hand has not ended: its cards are still secret")
    assert frame is not None
    return frame


def _frame(hand: Hand, step: int, total: int, moved: list[Event]) -> ReplayFrame:
    views = tuple(hand.private_view(seat) for seat in range(hand.players))
    return ReplayFrame(views, step, total, tuple(moved))
