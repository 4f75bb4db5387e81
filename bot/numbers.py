"""Numbers in what users send (a command's words, a deep link's payload, a button's data):
whole numbers in decimal digits of any script (``12``, fullwidth ``１２``), never what
``str.isdigit`` also takes (``²``, ``①``), and never past what the store keeps: a number
users type (a hand's number in its group, a season, a count) is at most :data:`MOST`, an
``INTEGER`` column's largest in PostgreSQL; an id a button or link carries (a table's, a
hand's) at most :data:`MOST_ID`, a ``BIGINT``'s (and SQLite's). A larger one names nothing.
"""

from __future__ import annotations

MOST = 2**31 - 1  # the largest number of an INTEGER column (hand numbers, versions, counts)
MOST_ID = 2**63 - 1  # the largest id (BIGINT in PostgreSQL, SQLite's row ids)


def whole(word: str, most: int = MOST) -> int | None:
    """``word`` as a whole number from 0 to ``most``; None for anything else."""
    if not word.isdecimal() or len(word) > len(str(most)):
        return None
    value = int(word)
    return value if value <= most else None


def positive(word: str, most: int = MOST) -> int | None:
    """``word`` as a whole number from 1 to ``most``; None for anything else."""
    value = whole(word, most)
    return value if value else None
