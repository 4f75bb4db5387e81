"""The card faces of the pictures (:mod:`render.cards`), as PNG files for the page."""

from __future__ import annotations

import io
from functools import cache

from engine import cards as C
from render import cards
from render import theme as T

BACK = "back"


@cache
def png(name: str) -> bytes | None:
    """``0``…``19`` a card kind's face, ``back`` a face-down card; None for any other name."""
    if name == BACK:
        image = cards.back(T.OWN)
    elif name.isdigit() and int(name) < C.KINDS:
        image = cards.face(int(name), T.OWN)
    else:
        return None
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
