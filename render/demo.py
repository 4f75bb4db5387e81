"""Sample positions from real engine hands, for ``python -m render demo`` and the benchmark.

Hands are played with random legal choices from fixed seeds, so every run shows the same
pictures. Positions are picked to show as much as possible (melds, hidden cards, an offer).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

from engine.rules import QQ
from engine.state import Hand
from engine.views import OutcomeKind, PrivateView, PublicView
from render.hand import render_hand
from render.settlement import render_settlement
from render.table import render_table

NAMES = ("小明", "Alice Wonderland", "老王🀄")
TOTALS = (1234, -560, 88)


def play(seed: int) -> Iterator[Hand]:
    """Yield the hand before the first action and after each one, in a random game."""
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=seed % 3)
    yield h
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
        yield h


def find(seed: int, want: Callable[[Hand], bool], tries: int = 500) -> Hand:
    """The first position (over seeds ``seed``, ``seed+1``, …) for which ``want`` holds."""
    for s in range(seed, seed + tries):
        for h in play(s):
            if want(h):
                return Hand.replay(QQ, seed=s, dealer=s % 3, log=list(h.log))
    raise LookupError("no such position")


def _rich(h: Hand) -> bool:
    """A position worth showing: an offer, hidden melds, several melds on the table."""
    pub = h.public_view()
    melds = [m for seat in pub.seats for m in seat.melds]
    return (
        pub.offer is not None
        and len(melds) >= 5
        and any(None in m.cards for m in melds)
        and any(seat.discards for seat in pub.seats)
    )


def rich_private(seed: int = 7) -> PrivateView:
    h = find(
        seed,
        lambda h: (
            _rich(h)
            and h.to_act() != ()
            and any(not all(m.face_up) for m in h.private_view(h.to_act()[0]).melds)
        ),
    )
    return h.private_view(h.to_act()[0])


def rich_public(seed: int = 7) -> PublicView:
    return find(seed, _rich).public_view()


def ended(seed: int, kind: OutcomeKind) -> PublicView:
    def done(h: Hand) -> bool:
        o = h.outcome
        return (
            o is not None
            and o.kind == kind
            and (kind != OutcomeKind.WIN or (o.win is not None and bool(o.win.mingtang)))
        )

    return find(seed, done).public_view()


def escaped(seed: int = 7) -> PublicView:
    h = find(seed, _rich)
    h.escape(h.to_act()[0])
    return h.public_view()


def write_demo(outdir: Path, seed: int = 7, lang: str = "zh") -> list[Path]:
    """One image of every kind; returns the files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    images = {
        "hand": render_hand(rich_private(seed), NAMES, lang),
        "table": render_table(rich_public(seed), NAMES, lang),
        "settlement_win": render_settlement(ended(seed, OutcomeKind.WIN), NAMES, TOTALS, lang),
        "settlement_draw": render_settlement(ended(seed, OutcomeKind.DRAW), NAMES, TOTALS, lang),
        "settlement_escape": render_settlement(escaped(seed), NAMES, TOTALS, lang),
    }
    written = []
    for name, data in images.items():
        ext = "jpg" if data[:2] == b"\xff\xd8" else "png"
        path = outdir / f"{name}_{lang}.{ext}"
        path.write_bytes(data)
        written.append(path)
    return written
