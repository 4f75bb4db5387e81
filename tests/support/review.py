"""Random hands for the 复盘's tests (engine.review): played mostly by the computer player
with some random moves, the hand before each log entry, and the deck positions a seat cannot
see."""

from __future__ import annotations

import copy
import random

from engine import player
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand
from engine.views import Event

RULES = tuple(map(get_rule_set, (
    "qq", "hunan/4", "hunan/3", "hunan/2/min21", "hunan/2/setaside", "four14",
)))

def public(h: Hand) -> list[Event]:
    return [e for e in h.history if e.visible_to is None]


def mixed_action(h: Hand, seat: int, rng: random.Random) -> str:
    """Mostly the computer player (hands get near wins), sometimes a random legal action
    (wins get declined, 听 broken, costly moves made)."""
    legal = h.legal_actions(seat)
    if rng.random() < 0.35:
        return rng.choice(legal)
    return player.choose(h.private_view(seat), public(h))


def played(rules: RuleSet, seed: int) -> Hand:
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        h.apply(seat, mixed_action(h, seat, rng))
    return h


def steps_before(h: Hand) -> list[Hand]:
    """The hand before each entry of its log (copies)."""
    fresh = Hand.new(h.rules, seed=h.seed, deck=None if h.seed is not None else h.deck,
                     dealer=h.dealer, base=h.base)
    out = []
    for seat, action in h.log:
        out.append(copy.deepcopy(fresh))
        fresh.apply_logged(seat, action)
    return out


def hidden_positions(h: Hand, seat: int) -> list[int]:
    """Deck positions whose cards ``seat`` has not seen by now: the others' dealt cards but the
    亮张, the stock not yet drawn and the cards set aside (whether a dealt card is still hidden
    is checked after the swap)."""
    r, xing = h.rules, h.public_view().xing
    order = [t for d in range(r.players) if (t := (h.dealer + d) % r.players) != xing]
    pos, out = 0, []
    for s in order:
        size = r.dealer_cards if s == h.dealer else r.other_cards
        if s != seat:
            out += [p for p in range(pos, pos + size) if not (s == h.dealer and p == pos + size - 1)]
        pos += size
    stock_end = len(h.deck) - r.set_aside
    drawn = stock_end - pos - h.stock_count
    return out + list(range(pos + drawn, len(h.deck)))


def same_for(seat: int, a: Hand, b: Hand) -> bool:
    return a.private_view(seat) == b.private_view(seat) and public(a) == public(b)


def continued(h: Hand, seat: int, rng: random.Random) -> Hand:
    """The hand played on to its end: ``seat``'s action now random, the rest by the player."""
    h = copy.deepcopy(h)
    h.apply(seat, rng.choice(h.legal_actions(seat)))
    while not h.is_terminal():
        s = h.to_act()[0]
        h.apply(s, player.choose(h.private_view(s), public(h)))
    return h
