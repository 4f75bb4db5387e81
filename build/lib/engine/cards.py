"""Cards (字牌) and their notation.

A card *kind* is an ``int`` in ``0..19``: ``0..9`` are the small cards 一..十 (points 1..10),
``10..19`` the big cards 壹..拾. The deck holds four copies of each kind. Hands are kept as
count vectors (``list[int]`` of length 20) because copies of a kind are interchangeable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

KINDS = 20
COPIES = 4
DECK_SIZE = KINDS * COPIES

SMALL_CHARS = "一二三四五六七八九十"
BIG_CHARS = "壹贰叁肆伍陆柒捌玖拾"
_ALIASES = {"貳": "贰", "叄": "叁", "陸": "陆", "參": "叁", "弍": "贰"}
RED_POINTS = frozenset({2, 7, 10})

_ASCII = re.compile(r"([xXdD])(10|[1-9])")


class CardError(ValueError):
    """A card or hand text that does not parse."""


def point(kind: int) -> int:
    """牌点 1..10, ignoring size."""
    return kind % 10 + 1


def is_big(kind: int) -> bool:
    return kind >= 10


def is_red(kind: int) -> bool:
    return point(kind) in RED_POINTS


def make(point_: int, big: bool) -> int:
    if not 1 <= point_ <= 10:
        raise CardError(f"point out of range: {point_}")
    return point_ - 1 + (10 if big else 0)


def to_char(kind: int) -> str:
    return (BIG_CHARS if is_big(kind) else SMALL_CHARS)[kind % 10]


def to_ascii(kind: int) -> str:
    return f"{'d' if is_big(kind) else 'x'}{point(kind)}"


def parse_cards(text: str) -> list[int]:
    """Parse any mix of Chinese characters and ASCII codes; spaces, commas and + are ignored.

    >>> parse_cards("一二 d3 x10 拾")
    [0, 1, 12, 9, 19]
    """
    kinds: list[int] = []
    i = 0
    while i < len(text):
        ch = _ALIASES.get(text[i], text[i])
        if ch in SMALL_CHARS:
            kinds.append(SMALL_CHARS.index(ch))
            i += 1
        elif ch in BIG_CHARS:
            kinds.append(10 + BIG_CHARS.index(ch))
            i += 1
        elif ch in " \t,，、+":
            i += 1
        else:
            m = _ASCII.match(text, i)
            if not m:
                raise CardError(f"not a card: {text[i:i + 3]!r} in {text!r}")
            kinds.append(make(int(m.group(2)), m.group(1) in "dD"))
            i = m.end()
    return kinds


def parse_card(text: str) -> int:
    kinds = parse_cards(text)
    if len(kinds) != 1:
        raise CardError(f"expected exactly one card, got {text!r}")
    return kinds[0]


def format_cards(kinds: Iterable[int]) -> str:
    return "".join(to_char(k) for k in kinds)


def format_ascii(kinds: Iterable[int]) -> str:
    return " ".join(to_ascii(k) for k in kinds)


def counts(kinds: Iterable[int]) -> list[int]:
    """Count vector of a card list."""
    c = [0] * KINDS
    for k in kinds:
        c[k] += 1
    return c


def expand(count_vec: Iterable[int]) -> list[int]:
    """Card list of a count vector, sorted by kind."""
    return [k for k, n in enumerate(count_vec) for _ in range(n)]


def sort_key(kind: int) -> tuple[int, int]:
    """Players sort by point, small before big."""
    return (point(kind), int(is_big(kind)))


def full_deck() -> list[int]:
    return [k for k in range(KINDS) for _ in range(COPIES)]
