"""Telegram's length limits: a message's text at most 4,096 and a caption at most 1,024
UTF-16 code units, counted after its markup is parsed. A longer one is refused whole; the
courier cuts it to fit first.

A cut keeps the start and the end and drops the middle, marked with "…": a reply that echoes
what was typed ("看不懂「…」") loses the echo, not the explanation and the usage that follow
it. It never splits a grapheme (an emoji with its modifiers, a flag, a letter and its accents)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

import regex

MAX_TEXT = 4096
MAX_CAPTION = 1024
CUT = "…"

_GRAPHEME = regex.compile(r"\X")
_TAG = re.compile(r"<[^>]*>")


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` UTF-16 units, else its start and its end with "…"
    between them, cut between graphemes."""
    if utf16_len(text) <= limit:
        return text
    graphemes = _GRAPHEME.findall(text)
    budget = limit - utf16_len(CUT)
    head, used = _take(graphemes, budget // 2)
    tail, _ = _take(reversed(graphemes[len(head):]), budget - used)
    return "".join(head) + CUT + "".join(reversed(tail))


def fit_html(text: str, limit: int) -> tuple[str, bool]:
    """An HTML text (``parse_mode`` HTML) that fits: itself, True while what it shows fits,
    else what it shows cut to fit as plain text, False (the markup does not survive a cut)."""
    shown = html.unescape(_TAG.sub("", text))
    if utf16_len(shown) <= limit:
        return text, True
    return fit(shown, limit), False


def split_lines(text: str, limit: int) -> list[str]:
    """``text`` in parts of at most ``limit`` UTF-16 units, cut between lines (a line too
    long alone is cut by :func:`fit` when sent)."""
    parts: list[str] = []
    for line in text.split("\n"):
        if parts and utf16_len(parts[-1]) + 1 + utf16_len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def _take(graphemes: Iterable[str], budget: int) -> tuple[list[str], int]:
    """The graphemes from the start of ``graphemes`` that fit in ``budget`` units."""
    taken: list[str] = []
    used = 0
    for g in graphemes:
        size = utf16_len(g)
        if used + size > budget:
            break
        taken.append(g)
        used += size
    return taken, used
