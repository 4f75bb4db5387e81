"""托管: what the bot plays for a seat that did not act in time (a simple, safe player)."""

from __future__ import annotations

from engine import actions as A
from engine import cards as C
from engine.views import PrivateView


def _isolation(kind: int, hand: tuple[int, ...]) -> int:
    """How many same-size neighbours (±1, ±2 points) the card has in hand: 0 is a lone card."""
    p, big = C.point(kind), C.is_big(kind)
    return sum(
        1 for k in hand
        if k != kind and C.is_big(k) == big and 0 < abs(C.point(k) - p) <= 2
    )


def choose(view: PrivateView) -> str:
    """Take a win if offered; otherwise pass optional claims; discard a lone, high card."""
    legal = view.legal
    if not legal:
        raise ValueError("no decision is awaited from this seat")
    if A.HU in legal:
        return A.HU
    discards = [a for a in legal if a.startswith("d:")]
    if discards:
        def badness(action: str) -> tuple[int, int, int]:
            kind = A.parse(action).card
            assert kind is not None
            return (view.hand.count(kind), _isolation(kind, view.hand), -C.point(kind))
        return min(discards, key=badness)
    if A.PASS in legal:
        return A.PASS
    return legal[0]
