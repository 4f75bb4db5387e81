"""Claims on a face-up card: who may 胡, 跑, 碰 or 吃 it, and which answer takes it.

A face-up card is the 亮张, a drawn card or a discard (docs/rules/qq.md, 行牌 · Play: forced
跑 and claims on a face-up card; docs/rules/four14.md, 行牌 · Play, for a discard that can be
won on). Every eligible seat is asked at once; the highest claim (胡 > 跑 > 碰 > 吃) takes the
card once every seat with a higher-priority claim has answered. The flow of the hand
(``engine.state``) opens a claim, records the answers and carries out the step decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from engine import actions as A
from engine.analyzer import Source
from engine.chi import Groups, chi_options
from engine.melds import GroupKind
from engine.rules import RuleSet
from engine.seat import Seat
from engine.views import Offer, OfferHow

_chi_action = cache(A.chi)  # the same few thousand 吃 choices recur in every hand


@cache
def chi_used(groups: tuple[tuple[int, ...], ...], card: int) -> tuple[int, ...]:
    """The hand cards a 吃 (with its 比 groups) puts out: all its cards but the eaten one."""
    used = [k for g in groups for k in g]
    used.remove(card)
    return tuple(used)


@dataclass
class Claim:
    """A face-up card waiting for answers."""

    offer: Offer
    options: dict[int, tuple[str, ...]]  # seat -> legal answers (always ending in "pass")
    answers: dict[int, str] = field(default_factory=dict)
    pao_seat: int | None = None
    haidi: bool = False


class Step(NamedTuple):
    """What a claim comes to: ``kind`` is 胡 (``A.HU``), ``"pao"``, ``A.PENG``, ``"chi"`` (the
    seat's answer names the 吃), or ``"to_row"`` (nobody takes it: ``seat`` is its source)."""

    kind: str
    seat: int


def source(offer: Offer, seat: int) -> Source:
    """Who produced the face-up card, as the analyzer reads it for ``seat``'s win: a 碰
    does not take a discard (docs/rules/four14.md, 胡牌 · Winning)."""
    if seat == offer.seat:
        return "self"
    return "discard" if offer.how == OfferHow.DISCARD else "other"


def win_askees(rules: RuleSet, offer: Offer, order: tuple[int, ...]) -> tuple[int, ...]:
    """Who may win on a face-up card, in priority order (``order``: the seats in play order
    from the card's source): on a drawn card everyone, the drawer first, then his 下家
    onwards; on a discard (only where the rules allow it) everyone but the discarder."""
    if offer.how == OfferHow.DRAW:
        return order
    return order[1:] if rules.win_on_discard else ()


def pao_seat(seats: Sequence[Seat], offer: Offer) -> int | None:
    """The one seat forced to 跑 this card, if any: a 坎 or 偎 takes another seat's card, a
    碰 only a drawn one."""
    c, drawn = offer.card, offer.how == OfferHow.DRAW
    for seat, s in enumerate(seats):
        other = seat != offer.seat
        if other and (s.hand[c] == 3 or s.meld_of(c, GroupKind.WEI, GroupKind.CHOUWEI) is not None):
            return seat
        if drawn and s.meld_of(c, GroupKind.PENG) is not None:
            return seat
    return None


def open_claim(
    rules: RuleSet,
    seats: Sequence[Seat],
    offer: Offer,
    order: tuple[int, ...],
    next_seat: int,
    wins: Callable[[int], bool],
    *,
    haidi: bool,
) -> Claim:
    """The claim on ``offer``: every seat's legal answers. ``order`` are the seats in play order
    from the card's source, ``next_seat`` his 下家 and ``wins(seat)`` whether that seat's cards
    win with the card. A forced 跑 leaves no 碰 or 吃."""
    c, src = offer.card, offer.seat
    drawn = offer.how == OfferHow.DRAW
    options: dict[int, list[str]] = {}
    for seat in win_askees(rules, offer, order):
        if seats[seat].may_win_on(c) and wins(seat):
            options.setdefault(seat, []).append(A.HU)
    forced = pao_seat(seats, offer)
    if forced is None:
        for seat in order:
            s = seats[seat]
            if seat != src and c not in s.no_peng and s.hand[c] == 2 and s.may_take_with(
                rules, (c, c)
            ):
                options.setdefault(seat, []).append(A.PENG)
            may_chi = seat in (src, next_seat) if drawn else seat == next_seat
            if may_chi and c not in s.chou:
                combos = [g for g in chi_options(s.hand, c) if s.may_take_with(rules, chi_used(g, c))]
                if combos:
                    options.setdefault(seat, []).extend(_chi_action(g) for g in combos)
    return Claim(
        offer, {s: (*o, A.PASS) for s, o in options.items()}, pao_seat=forced, haidi=haidi
    )


def next_step(claim: Claim, order: tuple[int, ...]) -> Step | None:
    """The claim that takes the card, or None while a seat that could take it before every
    answer given so far has not answered (``order``: play order from the card's source)."""

    def first_taker(is_claim: Callable[[str], bool]) -> tuple[bool, int | None]:
        """(still waiting, seat that took it) over seats offered such a claim, in order."""
        for seat in order:
            if not any(is_claim(o) for o in claim.options.get(seat, ())):
                continue
            answer = claim.answers.get(seat)
            if answer is None:
                return True, None
            if is_claim(answer):
                return False, seat
        return False, None

    waiting, winner = first_taker(lambda a: a == A.HU)
    if waiting:
        return None
    if winner is not None:
        return Step(A.HU, winner)
    if claim.pao_seat is not None:
        return Step("pao", claim.pao_seat)
    for kind, is_claim in ((A.PENG, lambda a: a == A.PENG), ("chi", lambda a: a.startswith("c:"))):
        waiting, taker = first_taker(is_claim)
        if waiting:
            return None
        if taker is not None:
            return Step(kind, taker)
    return Step("to_row", claim.offer.seat)


def take(s: Seat, step: Step, claim: Claim) -> tuple[tuple[int, ...], Groups]:
    """Carry out a 跑, 碰 or 吃 ``step`` on its seat ``s``: the cards its event shows, and for
    a 吃 its groups (the eaten one first, then the 比)."""
    card = claim.offer.card
    if step.kind == "pao":
        s.take_pao(card)
        return (card,) * 4, ()
    if step.kind == A.PENG:
        s.take_peng(card)
        return (card,) * 3, ()
    groups = A.parse(claim.answers[step.seat]).groups
    s.take_chi(groups, chi_used(groups, card))
    return tuple(k for g in groups for k in g), groups


def mark_declines(rules: RuleSet, seats: Sequence[Seat], claim: Claim) -> None:
    """A seat that passed on a 吃/碰 makes the kind 臭; a declined win is 臭胡.

    A seat that claimed and lost to a higher claim, or never answered, is not 臭.
    """
    c = claim.offer.card
    for seat, answer in claim.answers.items():
        s = seats[seat]
        options = claim.options[seat]
        if A.HU in options and answer != A.HU:
            s.chou_hu[c] = s.huxi
        if answer != A.PASS:
            continue
        if A.PENG in options:
            s.declined_peng.add(c)
            s.bar(c, chi=False, both=rules.chou_bars_peng)  # 碰一不碰二
        if any(o.startswith("c:") for o in options):
            s.bar(c, chi=True, both=rules.chou_bars_peng)
