"""Helpers for rule tests: deal exact hands from an explicit deck order."""

from __future__ import annotations

from engine import cards as C
from engine.rules import QQ
from engine.state import Hand


def deck(
    dealer: str = "",
    xia: str = "",
    shang: str = "",
    stock: str = "",
    keep_out: dict[int, str] | None = None,
) -> list[int]:
    """A full deck: the dealer's cards (the 21st is the 亮张), his 下家's, 上家's, then the stock
    from the top. Each place is completed with the cards left, spread over the kinds;
    ``keep_out`` maps a place (0 dealer, 1 下家, 2 上家, 3 stock) to kinds never added there."""
    parts = [C.parse_cards(t) for t in (dealer, xia, shang, stock)]
    pool = C.counts([])
    for k in range(C.KINDS):
        pool[k] = C.COPIES - sum(p.count(k) for p in parts)
        if pool[k] < 0:
            raise ValueError(f"more than four {C.to_char(k)}")
    spread: list[int] = []
    while any(pool):
        for k in (*range(0, 20, 2), *range(1, 20, 2)):
            if pool[k]:
                pool[k] -= 1
                spread.append(k)
    mentioned = {k for p in parts for k in p}
    sizes = (21, 20, 20, 19)
    out: list[int] = []
    for place, (part, size) in enumerate(zip(parts, sizes, strict=True)):
        banned = set(C.parse_cards((keep_out or {}).get(place, "")))
        if len(part) > size:
            raise ValueError("too many cards in one place")
        # fill one card at a time with a kind this place holds least of, preferring kinds no
        # place mentions, so that no pair, 坎 or 吃 appears by accident
        fill: list[int] = []
        held = C.counts(part)
        for _ in range(size - len(part)):
            k = min(spread, key=lambda k: (k in banned, held[k], k in mentioned))
            spread.remove(k)
            held[k] += 1
            fill.append(k)
        out += part + fill
    return out


def hand(
    dealer: str = "",
    xia: str = "",
    shang: str = "",
    stock: str = "",
    keep_out: dict[int, str] | None = None,
) -> Hand:
    return Hand.new(QQ, deck=deck(dealer, xia, shang, stock, keep_out), dealer=0)


def cards(text: str) -> list[int]:
    return C.parse_cards(text)


def card(text: str) -> int:
    return C.parse_card(text)


def take(h: Hand, seat: int, action: str) -> None:
    """``seat`` plays ``action``; every other seat still waiting on that same claim passes."""
    claim = h._claim
    h.apply(seat, action)
    while claim is not None and h._claim is claim and h.to_act():
        h.apply(h.to_act()[0], "pass")


def pass_all(h: Hand) -> None:
    """Everybody waiting passes, until someone must discard or the hand ends."""
    while h.to_act() and _all_may_pass(h):
        h.apply(h.to_act()[0], "pass")


def _all_may_pass(h: Hand) -> bool:
    return all("pass" in h.legal_actions(s) for s in h.to_act())


def kinds_of(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def advance_until(h: Hand, done, limit: int = 500) -> None:
    """Pass every claim and make the first legal discard until ``done(h)`` holds."""
    for _ in range(limit):
        if done(h) or h.is_terminal():
            return
        seat = h.to_act()[0]
        legal = h.legal_actions(seat)
        h.apply(seat, "pass" if "pass" in legal else legal[0])
    raise AssertionError("condition never reached")


def offered(kind: int):
    """``advance_until`` condition: this card kind is face up waiting for claims."""
    return lambda h: h.public_view().offer is not None and h.public_view().offer.card == kind
