"""A hand's points, the one definition every text and picture of its end shows.

A seat's points for the hand are everything it won or paid in it: the play (the win, the
逃跑 penalty), the 醒筹 it paid to the 醒家 (or, as the 醒家, collected) and what it paid to
or got from the birds (打鸟, :mod:`engine.birds`). The parts are named where they apply, so
"−2, of which 醒筹 −1 and birds −1" reads the same in the group and in the private chat.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.birds import payments, settle_birds
from engine.rules import RuleSet
from engine.views import Outcome


@dataclass(frozen=True)
class SeatPoints:
    """One seat's points for the hand: ``total``, and of it the ``xing`` (醒筹 paid, or as the
    醒家 collected) and the ``birds`` part (paid to or got from the birds). ``capped``: 封顶
    cut what this seat paid the winner (``Outcome.uncapped_points`` has the uncut figures)."""

    total: int
    xing: int = 0
    birds: int = 0
    capped: bool = False

    @property
    def play(self) -> int:
        """What is left of the total: the win or the 逃跑 itself."""
        return self.total - self.xing - self.birds


def hand_points(rules: RuleSet, outcome: Outcome, dealer: int,
                birds: int = 0) -> tuple[SeatPoints, ...]:
    """Each seat's points for the settled hand, with ``birds`` settled birds on it (none when
    the rules name no bird seat)."""
    extra = (settle_birds(rules, outcome, dealer, birds)[1]
             if birds and outcome.bird_card is not None else (0,) * len(outcome.points))
    xing = [0] * len(outcome.points)
    if outcome.xing is not None:
        for payer, payee, amount in payments(outcome, dealer):
            if payee == outcome.xing:
                xing[payer] -= amount
                xing[payee] += amount
    return tuple(SeatPoints(p + e, x, e, seat in outcome.capped)
                 for seat, (p, x, e) in enumerate(zip(outcome.points, xing, extra, strict=True)))


def signed(points: int) -> str:
    """Points as every text and picture writes them: ``+3``, ``-2``, and ``0`` unsigned."""
    return f"{points:+,}" if points else "0"
