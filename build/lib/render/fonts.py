"""The bundled font subsets, and making arbitrary text (player names) safe to draw.

Only ``render/fonts/`` is read: no system font is needed. Text the subsets cannot draw is
cleaned by :func:`clean` (emoji dropped, unknown letters become ``?``) and cut to a measured
width between grapheme clusters by :func:`fit` (ending in ``…``), so a name can neither break
rendering nor leave its box.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path

import regex
from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "NotoSansSC-Regular-subset.otf"
BOLD = "NotoSansSC-Bold-subset.otf"
COVERAGE = "coverage.json"
ELLIPSIS = "…"
MISSING = "?"

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    # BASIC layout: deterministic (no raqm/bidi dependence) and fast; names in scripts that
    # need shaping are replaced by '?' anyway, since the subsets do not cover them.
    path = FONT_DIR / (BOLD if bold else REGULAR)
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=2)
def coverage(bold: bool = False) -> frozenset[str]:
    """Characters the subset really holds (written by ``scripts/make_font.py``)."""
    data = json.loads((FONT_DIR / COVERAGE).read_text(encoding="utf-8"))
    return frozenset(data["bold" if bold else "regular"])


def clean(text: str, bold: bool = False) -> str:
    """``text`` reduced to what the font can draw, on one line.

    Control and format characters (zero-width joiners, direction marks, variation selectors)
    are dropped; line breaks become spaces; an accented letter the font lacks falls back to
    its base letter; symbols the font lacks (emoji and their modifiers, flags) are dropped,
    as decoration of a name; each run of other characters the font lacks (a word in an
    uncovered script) becomes a single ``?``. Never empty.
    """
    have = coverage(bold)
    out: list[str] = []
    replaced = False  # the last output character is a '?' standing for missing ones
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if ch.isspace():
            ch = " "
        elif cat[0] == "C" or (cat[0] in "MS" and ch not in have):
            continue
        elif ch not in have:
            ch = unicodedata.normalize("NFD", ch)[0]  # an accented letter: its base letter
        if ch in have:
            if not (ch == " " and out and out[-1] == " "):
                out.append(ch)
            replaced = False
        elif not replaced:
            out.append(MISSING)
            replaced = True
    return "".join(out).strip() or MISSING


def fit(text: str, fnt: Font, max_width: float) -> str:
    """The longest prefix of ``text`` that fits ``max_width``, ending in ``…`` when cut. The
    cut falls between grapheme clusters (``\\X``): an emoji sequence or a letter with its
    marks is kept whole or left out, never split."""
    if fnt.getlength(text) <= max_width:
        return text
    ends = [0] + [m.end() for m in regex.finditer(r"\X", text)]  # where a cut may fall

    def cut(n: int) -> str:  # the first n clusters, and '…'
        return text[: ends[n]].rstrip() + ELLIPSIS

    lo, hi = 0, len(ends) - 1  # cut(lo) fits; cut(hi) does not (or hi is the whole text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(cut(mid)) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return cut(lo) if fnt.getlength(cut(lo)) <= max_width else ""


def name(raw: str, fnt: Font, max_width: float) -> str:
    """A player name ready to draw with the Regular font: cleaned, then fitted."""
    return fit(clean(raw), fnt, max_width)
