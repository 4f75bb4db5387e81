"""What one seat knows about the cards it cannot see, from its view and the public record.

Only a seat's :class:`~engine.views.PrivateView` and the public events (``visible_to is None``)
go in. Two facts of the rules make the record informative (docs/rules/qq.md, 行牌 · Play): cards
enter a hand only at the deal, so a seat that could not 碰 or 吃 a kind once never can later;
and a seat that could and passed has made the kind 臭 (qq.md, 臭: passing has consequences). Either way, when an offered card
ends in a discard row, no seat that was eligible can 碰 or 吃 that kind any more. Who passed
is private (qq.md, 决定 11), so the record never says which of the two it was. Nobody may 吃/碰 a kind
he discarded (6.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

from engine import cards as C
from engine.chi import shapes_with
from engine.views import Event, OfferHow, PrivateView

_ENDS = frozenset({"to_row", "chi", "peng", "pao", "hu"})


@dataclass(frozen=True)
class Knowledge:
    """One seat's reading of the table.

    ``unseen[k]``: copies of kind ``k`` this seat has not seen (in other hands, the stock or a
    face-down 偎). ``pool``: how many unseen cards there are. ``hand_sizes[s]``: cards in seat
    ``s``'s hand. ``no_peng[s]`` / ``no_chi[s]``: kinds seat ``s`` can no longer 碰 / 吃.
    """

    seat: int
    unseen: tuple[int, ...]
    pool: int
    hand_sizes: tuple[int, ...]
    no_peng: tuple[frozenset[int], ...]
    no_chi: tuple[frozenset[int], ...]
    xing: int | None = None  # the 醒家 this hand (no cards, skipped in turn order)

    def xiajia(self, seat: int) -> int:
        """The seat that plays after ``seat`` (a 醒家 is skipped)."""
        return xiajia_of(seat, len(self.hand_sizes), self.xing)

    def holds_at_least(self, seat: int, kind: int, m: int) -> float:
        """Chance that ``seat``'s hand holds at least ``m`` copies of ``kind`` (hypergeometric)."""
        return _at_least(self.pool, self.unseen[kind], self.hand_sizes[seat], m)

    def peng_risk(self, kind: int) -> float:
        """Chance that some other seat could 碰 (or 跑) a ``kind`` this seat discards."""
        safe = 1.0
        for s in self._others():
            if kind not in self.no_peng[s]:
                safe *= 1.0 - self.holds_at_least(s, kind, 2)
        return 1.0 - safe

    def chi_risk(self, kind: int) -> float:
        """Chance that this seat's 下家 could 吃 a ``kind`` this seat discards (rough: shapes
        are treated as independent)."""
        xia = self.xiajia(self.seat)
        if kind in self.no_chi[xia]:
            return 0.0
        safe = 1.0
        for shape in shapes_with(kind):
            rest = list(shape)
            rest.remove(kind)
            a, b = rest
            if a == b:
                p = self.holds_at_least(xia, a, 2)
            else:
                p = self.holds_at_least(xia, a, 1) * self.holds_at_least(xia, b, 1)
            safe *= 1.0 - p
        return 1.0 - safe

    def _others(self) -> list[int]:
        return [s for s in range(len(self.hand_sizes)) if s != self.seat]


@cache
def _at_least(pool: int, good: int, draws: int, m: int) -> float:
    if pool <= 0 or draws <= 0 or good < m:
        return 0.0
    draws = min(draws, pool)
    total = comb(pool, draws)
    below = sum(comb(good, i) * comb(pool - good, draws - i) for i in range(m))
    return max(0.0, 1.0 - below / total)


def seen_counts(view: PrivateView) -> list[int]:
    """Copies of each kind this seat can place: own hand and melds, every face-up card."""
    seen = C.counts(view.hand)
    for m in view.melds:
        for k in m.cards:
            if k is not None:
                seen[k] += 1
    for sv in view.public.seats:
        if sv.seat != view.seat:
            for m in sv.melds:
                shown = [k for k in m.cards if k is not None]
                if len(shown) == len(m.cards):
                    for k in shown:
                        seen[k] += 1
                elif shown:  # a 提 or 臭偎 shows one card: all its cards are that kind
                    seen[shown[0]] += len(m.cards)
        for k in sv.discards:
            seen[k] += 1
    offer = view.public.offer
    if offer is not None and not (offer.how == OfferHow.LIANG and offer.seat == view.seat):
        seen[offer.card] += 1
    return [min(n, C.COPIES) for n in seen]


def xiajia_of(seat: int, players: int, xing: int | None) -> int:
    """The seat after ``seat`` in play (下家), the 醒家 sitting out."""
    nxt = (seat + 1) % players
    return (nxt + 1) % players if nxt == xing else nxt


def read(view: PrivateView, public_events: Sequence[Event]) -> Knowledge:
    """Build this seat's :class:`Knowledge`."""
    players, xing = len(view.public.seats), view.public.xing
    seen = seen_counts(view)
    unseen = tuple(C.COPIES - n for n in seen)
    no_peng: list[set[int]] = [set() for _ in range(players)]
    no_chi: list[set[int]] = [set() for _ in range(players)]
    chou: list[set[int]] = [set() for _ in range(players)]
    offer: tuple[int, int, str] | None = None  # (card, source seat, how)
    for e in public_events:
        if e.visible_to is not None:
            continue
        if e.kind in ("draw", "discard") and e.cards:
            offer = (e.cards[0], e.seat, e.kind)  # type: ignore[assignment]
            if e.kind == "discard":
                chou[e.seat].add(e.cards[0])  # type: ignore[index]
            else:  # a drawer holding a pair would have 偎-ed it
                no_peng[e.seat].add(e.cards[0])  # type: ignore[index]
        elif e.kind in _ENDS and offer is not None:
            card, src, how = offer
            if e.kind in ("to_row", "chi"):
                taker = e.seat if e.kind == "chi" else None
                xia = xiajia_of(src, players, xing)
                chi_seats = {src, xia} if how == "draw" else {xia}
                for s in range(players):
                    if s == taker:
                        continue
                    if s != src and not (e.kind == "chi" and s in chi_seats):
                        no_peng[s].add(card)
                    if e.kind == "to_row" and s in chi_seats:
                        no_chi[s].add(card)
            offer = None
    for s in range(players):
        no_peng[s] |= chou[s]
        no_chi[s] |= chou[s]
    return Knowledge(
        seat=view.seat,
        unseen=unseen,
        pool=sum(unseen),
        hand_sizes=tuple(sv.hand_count for sv in view.public.seats),
        no_peng=tuple(frozenset(x) for x in no_peng),
        no_chi=tuple(frozenset(x) for x in no_chi),
        xing=xing,
    )
