"""Hands of the four14 rule set (see docs/rules/four14.md) dealt from explicit decks."""

from __future__ import annotations

from engine import cards as C
from engine.rules import FOUR14
from engine.state import Hand

# Deal order from the dealer (seat 0): dealer 15 (the last is the 亮张), 下家 14, 对家 14,
# 上家 14, then the stock of 23 from the top.
SIZES = (15, 14, 14, 14, 23)


def deck4(
    dealer: str = "", xia: str = "", dui: str = "", shang: str = "", stock: str = "",
    keep_out: dict[int, str] | None = None, liang: str = "",
) -> list[int]:
    """A full deck with these places' cards first; each place is completed with cards left,
    one of a kind where it can, kinds no place mentions first (no pair, 坎 or win by accident
    unless a test checks for it). ``keep_out`` maps a place index to kinds never added there;
    ``liang`` is the 亮张 (else the dealer's last card, named or added)."""
    parts = [C.parse_cards(t) for t in (dealer, xia, dui, shang, stock)]
    liang_card = C.parse_cards(liang)
    parts[0] += liang_card  # counted out of the pool, moved to the end below
    pool = [C.COPIES - sum(p.count(k) for p in parts) for k in range(C.KINDS)]
    if min(pool) < 0:
        raise ValueError("more than four of a kind")
    spread = [k for n in range(C.COPIES) for k in (*range(0, 20, 2), *range(1, 20, 2)) if pool[k] > n]
    mentioned = {k for p in parts for k in p}
    out: list[int] = []
    for place, (part, size) in enumerate(zip(parts, SIZES, strict=True)):
        if len(part) > size:
            raise ValueError("too many cards in one place")
        banned = set(C.parse_cards((keep_out or {}).get(place, "")))
        held = C.counts(part)
        for _ in range(size - len(part)):
            k = min(spread, key=lambda k: (k in banned, held[k], k in mentioned))
            spread.remove(k)
            held[k] += 1
            part.append(k)
        if place == 0 and liang_card:
            part.remove(liang_card[0])
            part.append(liang_card[0])
        out += part
    return out


def four14(**places) -> Hand:
    return Hand.new(FOUR14, deck=deck4(**places), dealer=0)


# 14 cards that win on 三, 六 or 九 (small): with 九, 一二三 四五六 七八九 壹贰叁 肆伍陆 = 3 + 6 胡息.
WAITS_369 = "一二三四五六七八壹贰叁肆伍陆"
