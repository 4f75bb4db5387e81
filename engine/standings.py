"""Places on a board (/rank, /season, /stats, the skill boards, a cup's standings).

Competition ranking ("1, 2, 2, 4"): rows already ordered best first share a place when
their keys are equal, and a place is 1 + the number of rows strictly ahead, so that nobody
gets the bronze after two tied for second. A key holds the score and any documented
tie-break (a cup's 节分, points and Buchholz): rows the key does not part are tied, whatever
order they are listed in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """A row's place from 1, and whether another row shares it."""

    no: int
    tied: bool = False

    def __str__(self) -> str:
        """The place as a picture shows it: ``2`` or, shared, ``2=``."""
        return f"{self.no}=" if self.tied else str(self.no)


def places(keys: Sequence[object]) -> list[Place]:
    """The places of rows whose keys are ``keys``, best first (equal keys side by side)."""
    nos: list[int] = []
    for i, key in enumerate(keys):
        nos.append(nos[-1] if i and key == keys[i - 1] else i + 1)
    held = Counter(nos)
    return [Place(no, held[no] > 1) for no in nos]
