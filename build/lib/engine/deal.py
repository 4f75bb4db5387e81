"""The deal: who gets which cards of the deck, the 亮张, and the stock.

docs/rules/qq.md, 座位与发牌 · Seats and the deal: cards go out in turn order from the dealer,
the dealer's last card is the 亮张 everyone sees, and a 醒家 (docs/rules/hunan.md) gets nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import analyzer
from engine import cards as C
from engine.rules import RuleSet
from engine.seat import Seat


@dataclass(frozen=True)
class Deal:
    dealt: tuple[tuple[int, ...], ...]  # per seat, in the order dealt (a 醒家's is empty)
    stock: list[int]  # drawn with pop(): the last element is the next card
    set_aside: list[int]  # the deck's last ``rules.set_aside`` cards, never seen
    liangzhang: int  # the dealer's last card, shown to everybody


def deal(rules: RuleSet, deck: Sequence[int], dealer: int, order: tuple[int, ...]) -> Deal:
    """Deal ``deck`` to the seats of ``order`` (play order from the dealer, a 醒家 left out);
    the deck's last ``set_aside`` cards are put aside unseen, and the rest is the stock."""
    pos = 0
    dealt: list[tuple[int, ...]] = [() for _ in range(rules.players)]
    for seat in order:
        size = rules.dealer_cards if seat == dealer else rules.other_cards
        dealt[seat] = tuple(deck[pos : pos + size])
        pos += size
    end = len(deck) - rules.set_aside
    return Deal(
        dealt=tuple(dealt),
        stock=list(deck[pos:end])[::-1],  # pop() takes deck[pos]
        set_aside=list(deck[end:]) if rules.set_aside else [],
        liangzhang=dealt[dealer][-1],
    )


def forced_winner(rules: RuleSet, seats: Sequence[Seat], order: tuple[int, ...]) -> int | None:
    """The first seat in ``order`` whose dealt cards must win at once (必需天胡), if any."""
    return next((s for s in order if analyzer.forced_tianhu(rules, seats[s].hand)), None)


def seats_of(dealt: Deal) -> list[Seat]:
    """Each seat with its dealt cards in hand."""
    return [Seat(C.counts(cards)) for cards in dealt.dealt]
