"""The pictures' card faces (:mod:`render.cards`) as PNG files, and their fonts
(:mod:`render.fonts`), for the page: it needs no font of the phone's for Chinese."""

from __future__ import annotations

import io
from functools import cache

from engine import cards as C
from render import cards, fonts
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


FONTS = {"regular.otf": fonts.REGULAR}  # the bold subset lacks words of the page's


@cache
def font(name: str) -> bytes | None:
    """``regular.otf``; None for any other name."""
    file = FONTS.get(name)
    return None if file is None else (fonts.FONT_DIR / file).read_bytes()
