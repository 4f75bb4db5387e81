"""Positions of random hands played by the engine, and twins of a position that differ only
in a card one seat may see.
"""

from __future__ import annotations

import copy
import random

from engine import cards as C
from engine.rules import QQ, RuleSet
from engine.state import Hand


def positions(seed: int, rules: RuleSet = QQ) -> list[Hand]:
    """Every position of a random hand (copies), the finished one excluded."""
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    out = []
    while not h.is_terminal():
        out.append(copy.deepcopy(h))
        s = rng.choice(h.to_act())
        h.apply(s, rng.choice(h.legal_actions(s)))
    return out


def swap_hidden_card(h: Hand, owner: int) -> Hand | None:
    """A copy of ``h`` in which one card of ``owner``'s hand and one card of the stock of
    another kind trade places: a difference only ``owner`` may see. None if impossible."""
    other = copy.deepcopy(h)
    hand = other._seats[owner].hand  # noqa: SLF001 - the test builds a hidden difference
    stock = other._stock  # noqa: SLF001
    for a in range(C.KINDS):
        if hand[a] in (1, 2):  # not a 坎: the trade keeps the hand's shape
            for j, b in enumerate(stock):
                if b != a and hand[b] in (0, 1):
                    hand[a] -= 1
                    hand[b] += 1
                    stock[j] = a
                    return other
    return None
