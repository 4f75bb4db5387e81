"""打鸟 (hunan, 4 seats; docs/rules/hunan.md): onlookers who bet on a seat named by a card.

At the end of a hand the stock's last card (``Outcome.bird_card``) names a seat by its point:
一壹五伍九玖 the dealer, 二贰六陆十拾 his 下家, 三叁七柒 the 醒家, 四肆八捌 his 上家. Every bird
then shares that seat's result (共输赢): it repeats each payment the seat made or received, with
the same counterpart, so the table stays zero-sum with the birds counted in.
"""

from __future__ import annotations

from engine import cards as C
from engine.rules import RuleSet
from engine.views import Outcome, OutcomeKind

Payment = tuple[int, int, int]  # (payer, payee, amount)


def bird_seat(rules: RuleSet, dealer: int, card: int) -> int:
    """The seat a bird follows: points 1 5 9 the dealer, 2 6 10 下家, 3 7 醒家, 4 8 上家."""
    if not rules.birds:
        raise ValueError(f"rules {rules.key!r} have no 打鸟")
    steps_from_dealer = (C.point(card) - 1) % 4  # 0 dealer, 1 下家, 2 醒家 (opposite), 3 上家
    return (dealer + steps_from_dealer) % rules.players


def payments(outcome: Outcome, dealer: int) -> list[Payment]:
    """Who paid whom in a settled hand.

    A win: each loser pays the winner ``-win.loser_points`` and the 醒家 the rest of his loss
    (his 醒筹). A 荒牌: the dealer pays the 醒家. A 逃跑: the leaver pays each seat that gains.
    """
    points = outcome.points
    if outcome.kind == OutcomeKind.WIN:
        assert outcome.winner is not None and outcome.win is not None
        loss = -outcome.win.loser_points
        paid: list[Payment] = []
        for seat, p in enumerate(points):
            if p < 0:
                paid.append((seat, outcome.winner, loss))
                if -p > loss and outcome.xing is not None:
                    paid.append((seat, outcome.xing, -p - loss))
        return paid
    if outcome.kind == OutcomeKind.DISSOLVED:  # 解散: nobody pays
        return []
    payer = dealer if outcome.kind == OutcomeKind.DRAW else outcome.escaper
    assert payer is not None
    return [(payer, seat, p) for seat, p in enumerate(points) if p > 0]


def settle_birds(
    rules: RuleSet, outcome: Outcome, dealer: int, birds: int
) -> tuple[int, tuple[int, ...]]:
    """(what each bird wins or loses, what the seats get or pay for all ``birds`` together).

    Each bird repeats its seat's payments: paid by (or paying) the same counterparts, so one
    bird's points equal its seat's and the seats' share plus all birds' sum to zero.
    """
    if outcome.bird_card is None:
        raise ValueError("this hand names no bird seat (no 打鸟 in its rules)")
    seat = bird_seat(rules, dealer, outcome.bird_card)
    bird = 0
    seats = [0] * rules.players
    for payer, payee, amount in payments(outcome, dealer):
        if payee == seat:
            bird += amount
            seats[payer] -= amount * birds
        elif payer == seat:
            bird -= amount
            seats[payee] += amount * birds
    return bird, tuple(seats)
