"""吃 and 比 (docs/rules/qq.md, 行牌 · Play: 吃 and 比): every legal way to eat a card.

A 吃 puts the card out with two hand cards as a 一句话 or 绞. If copies of the eaten kind are
still in hand afterwards, each must go out too, in further groups (比) of three hand cards
containing it. A way that leaves a copy behind is not legal; if there is no legal way, there is
no 吃. 坎 cards can never be used.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine import cards as C

Groups = tuple[tuple[int, ...], ...]


@cache
def shapes_with(card: int) -> tuple[tuple[int, ...], ...]:
    """Every 一句话 / 绞 (as sorted kinds) that contains ``card``."""
    pt, big = C.point(card), C.is_big(card)
    other = C.make(pt, not big)
    found: set[tuple[int, ...]] = set()
    for start in (pt - 2, pt - 1, pt):
        if start >= 1 and start + 2 <= 10:
            found.add(tuple(C.make(p, big) for p in range(start, start + 3)))
    if pt in (2, 7, 10):
        found.add(tuple(C.make(p, big) for p in (2, 7, 10)))
    found.add(tuple(sorted((card, card, other))))
    found.add(tuple(sorted((card, other, other))))
    return tuple(sorted(found))


def _take(avail: list[int], cards: Sequence[int]) -> bool:
    """Remove ``cards`` from ``avail`` if all are there."""
    for k in cards:
        avail[k] -= 1
    if all(avail[k] >= 0 for k in cards):
        return True
    for k in cards:
        avail[k] += 1
    return False


def _bi_ways(avail: list[int], card: int) -> set[Groups]:
    """All ways (as sorted tuples of groups) to put every remaining copy of ``card`` out."""
    if avail[card] == 0:
        return {()}
    ways: set[Groups] = set()
    for shape in shapes_with(card):
        rest = list(avail)
        if _take(rest, shape):
            for more in _bi_ways(rest, card):
                ways.add(tuple(sorted((shape, *more))))
    return ways


def chi_options(hand: Sequence[int], card: int) -> list[Groups]:
    """Legal (吃, 比…) choices for eating ``card``: first group holds the eaten card."""
    return list(_options(card, tuple(hand[k] if hand[k] < 3 else 0 for k in _near(card))))


@cache
def _near(card: int) -> tuple[int, ...]:
    """The kinds any 吃 or 比 of ``card`` can use: the answer depends on these counts only."""
    return tuple(sorted({k for shape in shapes_with(card) for k in shape}))


@cache
def _options(card: int, near_counts: tuple[int, ...]) -> tuple[Groups, ...]:
    avail = [0] * C.KINDS  # 坎 cards are already zeroed: they are locked
    for k, n in zip(_near(card), near_counts, strict=True):
        avail[k] = n
    options: set[Groups] = set()
    for shape in shapes_with(card):
        own = list(shape)
        own.remove(card)
        rest = list(avail)
        if _take(rest, own):
            for bi in _bi_ways(rest, card):
                options.add((shape, *bi))
    return tuple(sorted(options))
