"""听牌: the cards that would let a seat win, as that seat can know them (docs/rules/qq.md,
决定 · Decisions: 听).

Computed from the seat's :class:`PrivateView` only, so it can never tell a seat anything about
cards it may not see. A kind is a wait when the analyzer finds a win with it on one of the
engine's real paths (``engine.state``):

* the seat draws it himself (``source="self"``): onto a 坎 or 偎 it makes a 提, onto a pair a
  偎, onto a 碰 a 跑, and the seat may then win (自摸, docs/rules/qq.md, 决定 · Decisions 3); otherwise it is turned
  up and he may win on it;
* another seat draws it (``source="other"``): a 坎, 偎 or 碰 of it becomes a 跑 (破跑胡), a
  pair may make a 碰-scored triple or stay free;
* another seat discards it, only when the rule set lets a discard be won on
  (``source="discard"``): read as another's draw, except that a 碰 does not 跑 it, so it adds
  only kinds of the seat's own 碰, where the card stays a loose card.

A kind the seat may not win on now (臭胡) is no wait. ``unseen`` is 4 minus the copies this
seat has seen: its own hand and melds, every face-up table card (a 提, 臭偎, 跑 or 碰 shows its
kind, so all its cards count), every discard row, and the card on offer. The 亮张 counts only
while it is on offer: afterwards it is a hidden card in the dealer's hand like any other. In
``by_discard`` the discarded card still counts as seen: it will lie face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import actions as A
from engine import analyzer
from engine import cards as C
from engine.chi import shapes_with
from engine.melds import Group, GroupKind
from engine.rules import RuleSet
from engine.views import MeldView, OfferHow, PrivateView, Ting, Wait

_Melds = tuple[Group, ...]


def ting(rules: RuleSet, view: PrivateView) -> Ting:
    """The seat's waits now, and when it must discard, the waits after each discard."""
    return counted(shape(rules, view), view)


@dataclass(frozen=True)
class Shape:
    """:class:`Ting` without the copies unseen: the winning kinds now, or after each discard
    that leaves the hand 听. A function of the seat's own cards, its 臭胡 kinds and its legal
    discards only (:func:`shape_key`), so it holds for the whole of a decision while the
    table's cards (the counts) move; the analyzer's work is all here."""

    waits: tuple[int, ...] = ()
    by_discard: tuple[tuple[int, tuple[int, ...]], ...] = ()


def shape_key(view: PrivateView) -> tuple[object, ...]:
    """What :func:`shape` reads of the view: equal keys, equal shapes."""
    return (view.hand, view.melds, view.no_win, _discards(view))


def shape(rules: RuleSet, view: PrivateView) -> Shape:
    """The winning kinds of :func:`ting`, without their counts."""
    discards = _discards(view)
    hand, melds = tuple(C.counts(view.hand)), tuple(_own_group(m) for m in view.melds)
    if not discards:
        return Shape(waits=_winning_kinds(rules, hand, melds, view.no_win))
    by_discard = []
    for d in discards:
        after = list(hand)
        after[d] -= 1
        kinds = _winning_kinds(rules, tuple(after), melds, view.no_win)
        if kinds:
            by_discard.append((d, kinds))
    return Shape(by_discard=tuple(by_discard))


def counted(found: Shape, view: PrivateView) -> Ting:
    """The :class:`Ting` of a shape, with the copies of each kind this view has not seen."""
    unseen = _unseen(view)
    return Ting(waits=tuple(Wait(k, unseen[k]) for k in found.waits),
                by_discard=tuple((d, tuple(Wait(k, unseen[k]) for k in kinds))
                                 for d, kinds in found.by_discard))


def _discards(view: PrivateView) -> tuple[int, ...]:
    return tuple(A.parse(a).card for a in view.legal if a.startswith("d:"))  # type: ignore[misc]


def waits_now(rules: RuleSet, view: PrivateView) -> tuple[Wait, ...]:
    """:attr:`Ting.waits` alone: none while the seat must discard (its hand is a card over),
    without the waits after each discard, which cost the analyzer a question per discard."""
    if any(a.startswith("d:") for a in view.legal):
        return ()
    hand, melds, unseen = _holding(view)
    return _waits(rules, hand, melds, view.no_win, unseen)


def _holding(view: PrivateView) -> tuple[tuple[int, ...], _Melds, tuple[int, ...]]:
    """The seat's hand as counts by kind, its melds as groups, and the copies of each kind
    it has not seen."""
    return tuple(C.counts(view.hand)), tuple(_own_group(m) for m in view.melds), _unseen(view)


def _own_group(m: MeldView) -> Group:
    """The owner sees every card of his own melds."""
    assert all(k is not None for k in m.cards), "ting needs the owner's own view"
    return Group(m.kind, tuple(m.cards))  # type: ignore[arg-type]


def _waits(
    rules: RuleSet, hand: tuple[int, ...], melds: _Melds, no_win: tuple[int, ...],
    unseen: tuple[int, ...],
) -> tuple[Wait, ...]:
    return tuple(Wait(k, unseen[k]) for k in _winning_kinds(rules, hand, melds, no_win))


@lru_cache(maxsize=32768)
def _winning_kinds(
    rules: RuleSet, hand: tuple[int, ...], melds: _Melds, no_win: tuple[int, ...]
) -> tuple[int, ...]:
    """Kinds that win for these cards (memoised: the bot asks on every decision)."""
    own = list(hand)
    for g in melds:
        for k in g.cards:
            own[k] += 1
    matched = {g.cards[0] for g in melds if g.kind != GroupKind.CHI}
    pengs = {g.cards[0] for g in melds if g.kind == GroupKind.PENG} if rules.win_on_discard else set()
    free = [n if n < 3 else 0 for n in hand]
    found = []
    for k in range(C.KINDS):
        if k in no_win or own[k] >= C.COPIES or not (hand[k] or k in matched or _fits(free, k)):
            continue
        # Only a card meeting a pair, 坎 or table set is read differently by source.
        if analyzer.can_win(rules, hand, melds, k, "self") or (
            (hand[k] >= 2 or k in matched) and analyzer.can_win(rules, hand, melds, k, "other")
        ) or (k in pengs and analyzer.can_win(rules, hand, melds, k, "discard")):
            found.append(k)
    return tuple(found)


def _fits(free: list[int], card: int) -> bool:
    """Whether ``card`` can join two free hand cards in a 一句话 or 绞.

    In a win every card is in a group; a card the seat holds none of and has no set of can
    only be in such a group, so kinds failing this are skipped without asking the analyzer.
    """
    for shape in shapes_with(card):
        rest = list(shape)
        rest.remove(card)
        if free[rest[0]] >= 1 + (rest[0] == rest[1]) and free[rest[1]] >= 1:
            return True
    return False


def _unseen(view: PrivateView) -> tuple[int, ...]:
    seen = C.counts(view.hand)
    for m in view.melds:
        for k in m.cards:
            seen[k] += 1  # type: ignore[index]
    public = view.public
    for seat in public.seats:
        for k in seat.discards:
            seen[k] += 1
        if seat.seat == view.seat:
            continue
        for m in seat.melds:
            for k in _revealed(m):
                seen[k] += 1
    offer = public.offer
    if offer is not None and not (offer.how == OfferHow.LIANG and offer.seat == view.seat):
        seen[offer.card] += 1
    return tuple(max(0, C.COPIES - n) for n in seen)


def _revealed(m: MeldView) -> list[int]:
    """The cards of another seat's meld this seat can name: one face-up card names a set."""
    shown = [k for k in m.cards if k is not None]
    if m.kind == GroupKind.CHI or len(shown) == len(m.cards):
        return shown
    return [shown[0]] * len(m.cards) if shown else []
