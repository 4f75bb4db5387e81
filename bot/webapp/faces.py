"""The pictures' card faces (:mod:`render.cards`) as PNG files — one sprite of them all, so the
page's cards come in one request, and each alone — and their font (:mod:`render.fonts`), which
the page loads last, for a phone without Chinese fonts of its own."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from engine import cards as C
from render import cards, fonts
from render import theme as T

BACK, SPRITE = "back", "sprite"
SPRITE_COLOURS = 128


@cache
def png(name: str) -> bytes | None:
    """``0``…``19`` a card kind's face, ``back`` a face-down card, ``sprite`` all of them in
    one row (kind k at column k, the back last); None for any other name."""
    if name == BACK:
        image = cards.back(T.OWN)
    elif name == SPRITE:  # in a palette: a sixth of the bytes, the same to the eye
        image = sprite().quantize(SPRITE_COLOURS, method=Image.Quantize.FASTOCTREE)
    elif name.isascii() and name.isdigit() and int(name) < C.KINDS:
        image = cards.face(int(name), T.OWN)
    else:
        return None
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def sprite() -> Image.Image:
    faces = [cards.face(k, T.OWN) for k in range(C.KINDS)] + [cards.back(T.OWN)]
    w, h = faces[0].size
    out = Image.new("RGBA", (w * len(faces), h), (0, 0, 0, 0))
    for i, face in enumerate(faces):
        out.paste(face, (i * w, 0))
    return out


FONTS = {"regular.otf": fonts.REGULAR}  # the bold subset lacks words of the page's


@cache
def font(name: str) -> bytes | None:
    """``regular.otf``; None for any other name."""
    file = FONTS.get(name)
    return None if file is None else (fonts.FONT_DIR / file).read_bytes()
