"""The four14 rule set (六胡抢, seed 002), one test or more per rule of docs/rules/four14.md."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine import cards as C
from engine.rules import FOUR14, get_rule_set, table_rules
from engine.state import Hand

# Deal order from the dealer (seat 0): dealer 15 (the last is the 亮张), 下家 14, 对家 14,
# 上家 14, then the stock of 23 from the top.
SIZES = (15, 14, 14, 14, 23)


def deck4(
    dealer: str = "", xia: str = "", dui: str = "", shang: str = "", stock: str = "",
    keep_out: dict[int, str] | None = None,
) -> list[int]:
    """A full deck with these places' cards first; each place is completed with cards left,
    one of a kind where it can, kinds no place mentions first (no pair, 坎 or win by accident
    unless a test checks for it). ``keep_out`` maps a place index to kinds never added there."""
    parts = [C.parse_cards(t) for t in (dealer, xia, dui, shang, stock)]
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
        out += part
    return out


def four14(**places: str) -> Hand:
    return Hand.new(FOUR14, deck=deck4(**places), dealer=0)


def card(text: str) -> int:
    return C.parse_card(text)


def pass_until(h: Hand, done, limit: int = 500) -> None:
    """Everybody passes every claim and makes the first legal discard until ``done(h)``."""
    for _ in range(limit):
        if done(h) or h.is_terminal():
            return
        seat = h.to_act()[0]
        legal = h.legal_actions(seat)
        h.apply(seat, A.PASS if A.PASS in legal else legal[0])
    raise AssertionError("condition never reached")


# ----- 座位与发牌 · seats and the deal --------------------------------------------------


def test_four14_is_one_key_with_four_seats_all_playing() -> None:
    assert get_rule_set("four14") == FOUR14 == table_rules("four14")
    assert FOUR14.key == "four14" and FOUR14.players == 4 and FOUR14.xing_seat(0) is None
    with pytest.raises(ValueError, match="4 seats, not 3"):
        table_rules("four14", 3)


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_15_others_14_stock_23_and_the_liangzhang_is_the_dealers_last(dealer: int) -> None:
    h = Hand.new(FOUR14, seed=1234 + dealer, dealer=dealer)
    dealt = {e.seat: e.cards for e in h.history if e.kind == "deal"}
    assert [len(dealt[s]) for s in range(4)] == [15 if s == dealer else 14 for s in range(4)]
    assert h.stock_count == 23
    assert h.liangzhang == h.deck[14]  # the dealer is dealt first, the 亮张 last


def test_the_dealer_discards_first_back_to_14() -> None:
    h = four14()
    assert h.to_act() == (0,) and all(a.startswith("d:") for a in h.legal_actions(0))
    h.apply(0, h.legal_actions(0)[0])
    assert sum(h._seats[0].hand) == 14
