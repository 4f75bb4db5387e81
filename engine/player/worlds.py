"""Worlds a searching player imagines: the hidden cards dealt out in ways its view allows.

Only the seat's :class:`~engine.views.PrivateView` and the public events go in. A world puts
every card this seat has not seen (:func:`engine.player.info.seen_counts`) somewhere: in the
other seats' hands (their sizes are public), in their face-down 偎 and in the stock. The hard
facts of the rules hold in every world (docs/rules/qq.md, 行牌 · Play): cards enter a hand only
at the deal, so a seat holds no 坎 of a kind ever turned face up (it would have 跑-ed or 提-ed
it) and at most one of a kind it drew face up (a pair would have been 偎-ed); the 亮张 stays in
the dealer's hand until he is seen to use one of its kind.

The others' choices weigh each world (an importance weight, never a hard rule: a player may
pass a 碰): a seat that let a card it could have 碰-ed go by rarely held the pair, one that
could have 吃-ed it less often held the cards, and one that discarded a kind rarely kept
another of it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine import actions as A
from engine import cards as C
from engine.chi import chi_options
from engine.melds import Group, GroupKind
from engine.player.info import seen_counts, xiajia_of
from engine.rules import RuleSet, get_rule_set
from engine.seat import Seat
from engine.state import Hand, imagined
from engine.views import Event, OfferHow, PrivateView

PASSED_PENG = 0.25  # weight of a world where a seat let a card go by holding its pair
PASSED_CHI = 0.6  # ... where the 吃-eligible seat let it go holding a 吃 of it
KEPT_DISCARDED = 0.5  # ... where a seat still holds a kind it discarded
_FACE_UP = ("draw", "discard")
_OUT_OF_HAND = frozenset({"discard", "chi", "peng", "pao", "ti", "chouwei"})


def seed_of(view: PrivateView, public_events: Sequence[Event]) -> int:
    """A seed that is a function of the decision's inputs alone: the same view and record
    always imagine the same worlds, whatever ran before."""
    text = repr((view, [e for e in public_events if e.visible_to is None]))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class Clues:
    """What the public record says about each seat's hidden hand (lists indexed by seat)."""

    offered: frozenset[int]  # kinds turned face up (drawn or discarded) and taken or let go
    never_up: frozenset[int]  # kinds never turned face up, nor on offer now
    drew: tuple[frozenset[int], ...]  # kinds a seat drew face up: it holds at most one
    passed_peng: tuple[frozenset[int], ...]  # kinds a seat let go by though it could 碰
    passed_chi: tuple[frozenset[int], ...]  # kinds a 吃-eligible seat let go by
    discarded: tuple[frozenset[int], ...]
    dealer_kept_liang: bool  # the dealer has shown no card of the 亮张's kind since


def clues(view: PrivateView, public_events: Sequence[Event]) -> Clues:
    players, xing = len(view.public.seats), view.public.xing
    dealer, liang = view.public.dealer, view.public.liangzhang
    offered: set[int] = set()
    drew: list[set[int]] = [set() for _ in range(players)]
    peng: list[set[int]] = [set() for _ in range(players)]
    chi: list[set[int]] = [set() for _ in range(players)]
    discarded: list[set[int]] = [set() for _ in range(players)]
    kept = True
    offer: tuple[int, int, str] | None = None
    for e in public_events:
        if e.visible_to is not None or e.seat is None:
            continue
        if e.seat == dealer and e.kind in _OUT_OF_HAND and liang in e.cards:
            kept = False
        if e.kind in _FACE_UP and e.cards:
            card = e.cards[0]
            offered.add(card)
            offer = (card, e.seat, e.kind)
            (drew if e.kind == "draw" else discarded)[e.seat].add(card)
        elif e.kind in ("to_row", "chi") and offer is not None:
            card, src, how = offer
            xia = xiajia_of(src, players, xing)
            for s in range(players):
                if s in (src, xing, e.seat if e.kind == "chi" else None):
                    continue
                peng[s].add(card)
                if e.kind == "to_row" and s == xia:
                    chi[s].add(card)
            if e.kind == "to_row" and how == "draw":
                chi[src].add(card)
            offer = None
        elif e.kind in ("peng", "pao", "hu"):
            offer = None
    never_up = frozenset(k for k in range(C.KINDS) if k not in offered)
    if offer is not None:  # still on offer: a 坎 of it may yet 跑 it (after a 胡 answer)
        offered.discard(offer[0])
    return Clues(frozenset(offered), never_up, _frozen(drew), _frozen(peng), _frozen(chi),
                 _frozen(discarded), kept)


def _frozen(sets: list[set[int]]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(s) for s in sets)


@dataclass
class World:
    """One imagined deal of the hidden cards, and how much the others' choices favour it.
    :meth:`hand` builds a fresh playable :class:`~engine.state.Hand` at the decision."""

    rules: RuleSet
    view: PrivateView
    hands: list[list[int]]  # per seat, count vectors (this seat's own as it is)
    melds: list[tuple[Group, ...]]
    stock: list[int]  # pop() draws the next
    set_aside: list[int]
    bars: list[tuple[frozenset[int], frozenset[int]]]  # per seat (may not 吃, may not 碰)
    weight: float = 1.0
    started: list[bool] = field(default_factory=list)

    def hand(self) -> Hand:
        v, pub = self.view, self.view.public
        seats = []
        for s in range(len(pub.seats)):
            seat = Seat(list(self.hands[s]), list(self.melds[s]), list(pub.seats[s].discards),
                        set(self.bars[s][0]), set(self.bars[s][1]), started=self.started[s])
            seats.append(seat)
        me = seats[v.seat]
        me.chou_hu = {k: me.huxi for k in v.no_win}
        offer = pub.offer
        selfwin = None
        if offer is None and v.legal == (A.HU, A.PASS):
            selfwin = v.highlight
        return imagined(self.rules, dealer=pub.dealer, seats=seats, stock=list(self.stock),
                        liangzhang=pub.liangzhang, actor=v.seat, offer=offer,
                        selfwin_card=selfwin, set_aside=list(self.set_aside))


def sample(view: PrivateView, public_events: Sequence[Event],
           rng: random.Random) -> Iterator[World]:
    """Worlds consistent with the view, each with its weight, one after another."""
    rules = get_rule_set(view.public.rule_set)
    base = _Base(rules, view, clues(view, public_events))
    while True:
        yield base.world(rng)


class _Base:
    """What every world of one decision shares: the known melds, bars and the pool."""

    def __init__(self, rules: RuleSet, view: PrivateView, cl: Clues) -> None:
        self.rules, self.view, self.cl = rules, view, cl
        pub = view.public
        self.players = len(pub.seats)
        self.others = [s for s in range(self.players) if s not in (view.seat, pub.xing)]
        self.unseen = [C.COPIES - n for n in seen_counts(view)]
        self.melds: list[list[Group | None]] = []  # None: a face-down 偎 of unknown kind
        for sv in pub.seats:
            if sv.seat == view.seat:
                self.melds.append([Group(m.kind, tuple(m.cards)) for m in view.melds])  # type: ignore[arg-type]
                continue
            row: list[Group | None] = []
            for m in sv.melds:
                shown = [k for k in m.cards if k is not None]
                if len(shown) == len(m.cards):
                    row.append(Group(m.kind, tuple(shown)))
                else:  # a 提 or 臭偎 shows one card of its kind, a 偎 none
                    row.append(Group(m.kind, (shown[0],) * len(m.cards)) if shown else None)
            self.melds.append(row)
        self.bars = self._bars()
        self.started = [bool(sv.discards or sv.melds) for sv in pub.seats]

    def _bars(self) -> list[tuple[frozenset[int], frozenset[int]]]:
        v = self.view
        cl = self.cl
        out = []
        for s in range(self.players):
            if s == v.seat:
                chou = set(v.chou)
                offer = v.public.offer
                if offer is not None:  # what the view offers now is not barred
                    if A.PENG in v.legal:
                        chou.discard(offer.card)
                    no_chi = chou - ({offer.card} if any(a.startswith("c:") for a in v.legal)
                                     else set())
                    out.append((frozenset(no_chi), frozenset(chou)))
                    continue
                out.append((frozenset(chou), frozenset(chou)))
            else:
                out.append((cl.discarded[s] | cl.passed_chi[s],
                            cl.discarded[s] | cl.passed_peng[s] | cl.drew[s]))
        return out

    def world(self, rng: random.Random) -> World:
        pool = [k for k in range(C.KINDS) for _ in range(self.unseen[k])]
        rng.shuffle(pool)
        left = [0] * C.KINDS
        for k in pool:
            left[k] += 1
        pub, cl = self.view.public, self.cl
        melds: list[tuple[Group, ...]] = []
        for row in self.melds:
            out = []
            for g in row:
                if g is None:
                    k = _wei_kind(left, cl.never_up, rng)
                    left[k] -= 3
                    g = Group(GroupKind.WEI, (k,) * 3)
                out.append(g)
            melds.append(tuple(out))
        hands = [[0] * C.KINDS for _ in range(self.players)]
        hands[self.view.seat] = C.counts(self.view.hand)
        for s in self.others:
            need = pub.seats[s].hand_count
            if s == pub.dealer and need:
                liang = pub.liangzhang
                if pub.offer is not None and pub.offer.how == OfferHow.LIANG:
                    hands[s][liang] += 1  # on offer, so counted as seen
                    need -= 1
                elif cl.dealer_kept_liang and left[liang]:
                    hands[s][liang] += 1
                    left[liang] -= 1
                    need -= 1
            self._fill(hands[s], need, left, pool, s)
        rest = []
        for k in pool:
            if left[k]:
                left[k] -= 1
                rest.append(k)
        aside = rest[: self.rules.set_aside]
        stock = rest[self.rules.set_aside:]
        weight = 1.0
        for s in self.others:
            weight *= self._likelihood(s, hands[s])
        return World(self.rules, self.view, hands, melds, stock, aside, self.bars, weight,
                     self.started)

    def _fill(self, hand: list[int], need: int, left: list[int], pool: list[int], s: int) -> None:
        """Deal ``need`` cards of the shuffled ``pool`` still ``left`` into ``hand``, skipping
        any the rules say this seat cannot hold; when too few fit, the rule gives way."""
        cap = [1 if k in self.cl.drew[s] else 2 if k in self.cl.offered else 3
               for k in range(C.KINDS)]
        for strict in (True, False):
            for k in pool:
                if not need:
                    return
                if left[k] and (hand[k] < cap[k] if strict else hand[k] < 3):
                    hand[k] += 1
                    left[k] -= 1
                    need -= 1

    def _likelihood(self, s: int, hand: list[int]) -> float:
        cl, w = self.cl, 1.0
        for k in cl.passed_peng[s]:
            if hand[k] == 2 and k not in cl.discarded[s]:
                w *= PASSED_PENG
        for k in cl.passed_chi[s]:
            if k not in cl.discarded[s] and chi_options(hand, k):
                w *= PASSED_CHI
        for k in cl.discarded[s]:
            if hand[k]:
                w *= KEPT_DISCARDED
        return w


def _wei_kind(left: list[int], never_up: frozenset[int], rng: random.Random) -> int:
    """A face-down 偎's kind: three copies unseen, and (when possible) never turned face up
    (it would have been 跑-ed)."""
    for ok in (lambda k: left[k] >= 3 and k in never_up, lambda k: left[k] >= 3):
        kinds = [k for k in range(C.KINDS) if ok(k)]
        if kinds:
            return rng.choice(kinds)
    raise ValueError("no kind left for a face-down 偎")
