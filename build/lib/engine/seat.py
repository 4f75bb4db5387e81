"""One seat during a hand: its hand, table area, discard row and what it is barred from.

The flow of the hand (``engine.state``) decides when a seat takes a card; the methods here say
what taking it does to the seat's cards. The rules the bars follow are those of
docs/rules/qq.md, 行牌 · Play (臭, the discard rule, 吃 and 比).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine import cards as C
from engine.melds import FOUR_KINDS, Group, GroupKind
from engine.rules import RuleSet
from engine.views import MeldView, PrivateView, PublicView, SeatView

# Which cards of a table meld everyone sees (True) — the rest are face down.
FACE_UP = {
    GroupKind.CHI: (True, True, True),
    GroupKind.PENG: (True, True, True),
    GroupKind.PAO: (True, True, True, True),
    GroupKind.WEI: (False, False, False),
    GroupKind.CHOUWEI: (True, False, False),
    GroupKind.TI: (True, False, False, False),
}

_KAN_HUXI = tuple(Group(GroupKind.KAN, (k,) * 3).huxi for k in range(C.KINDS))


@dataclass
class Seat:
    hand: list[int]  # count vector; a count of 3 is a 坎
    melds: list[Group] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    chou: set[int] = field(default_factory=set)  # may not 吃 (臭牌, own discards)
    no_peng: set[int] = field(default_factory=set)  # may not 碰
    declined_peng: set[int] = field(default_factory=set)  # 忍碰: a later 偎 is 臭偎
    chou_hu: dict[int, int] = field(default_factory=dict)  # kind -> 当前胡息 when a win was declined
    started: bool = False  # has drawn, taken or discarded: his dealt cards are no longer untouched

    @property
    def huxi(self) -> int:
        """当前胡息: the 胡息 of the table area."""
        return sum(g.huxi for g in self.melds)

    @property
    def ti_pao(self) -> int:
        return sum(1 for g in self.melds if g.kind in FOUR_KINDS)

    @property
    def card_total(self) -> int:
        return sum(self.hand) + sum(len(g.cards) for g in self.melds)

    def meld_of(self, kind: int, *group_kinds: GroupKind) -> int | None:
        for i, g in enumerate(self.melds):
            if g.cards[0] == kind and g.kind in group_kinds:
                return i
        return None

    def may_win_on(self, kind: int) -> bool:
        """臭胡: a declined win on this kind bars it while 当前胡息 is unchanged."""
        return self.chou_hu.get(kind) != self.huxi

    def bar(self, card: int, *, chi: bool, both: bool) -> None:
        """Make ``card`` 臭 for this seat: for 吃 (``chi``) or else for 碰; ``both`` when the
        rules make every 臭 bar both (RuleSet.chou_bars_peng)."""
        if chi or both:
            self.chou.add(card)
        if not chi or both:
            self.no_peng.add(card)

    def discardable(self) -> list[int]:
        return [k for k, n in enumerate(self.hand) if 0 < n < 3]

    def must_discard(self, rules: RuleSet) -> bool:
        """The discard rule: hand + table over the threshold, and a card that is no 坎 card
        (docs/rules/qq.md, 决定 · Decisions 4: with only 坎 cards he discards nothing)."""
        return self.card_total > rules.discard_threshold(self.ti_pao) and bool(self.discardable())

    def may_take_with(self, rules: RuleSet, used: tuple[int, ...]) -> bool:
        """A 吃/碰 putting out these hand cards (plus the offered one) is allowed only if, when
        the discard rule then obliges a discard, some card other than a 坎 card is left
        (docs/rules/qq.md, 决定 · Decisions 9)."""
        if self.card_total + 1 <= rules.discard_threshold(self.ti_pao):
            return True
        after = list(self.hand)
        for k in used:
            after[k] -= 1
        return any(0 < n < 3 for n in after)

    # ----- taking cards -----------------------------------------------------------------

    def ti_dealt(self) -> list[int]:
        """Put every dealt 4-of-a-kind on the table as a 提; the kinds, lowest first."""
        kinds = [k for k in range(C.KINDS) if self.hand[k] == 4]
        for k in kinds:
            self.hand[k] = 0
            self.melds.append(Group(GroupKind.TI, (k,) * 4))
        return kinds

    def take_draw(self, card: int) -> str | None:
        """His own draw onto a 坎 or 偎 is a 提, onto a pair a 偎 (臭偎 after a declined 碰):
        the kind of that take, or None when the card is turned up for claims."""
        wei = self.meld_of(card, GroupKind.WEI, GroupKind.CHOUWEI)
        if self.hand[card] == 3 or wei is not None:
            if wei is not None:
                self.melds[wei] = Group(GroupKind.TI, (card,) * 4)
            else:
                self.hand[card] = 0
                self.melds.append(Group(GroupKind.TI, (card,) * 4))
            return "ti"
        if self.hand[card] == 2:
            self.hand[card] = 0
            kind = GroupKind.CHOUWEI if card in self.declined_peng else GroupKind.WEI
            self.melds.append(Group(kind, (card,) * 3))
            return kind.value
        return None

    def take_pao(self, card: int) -> None:
        """跑: the card completes his 坎, 偎 or 碰 of its kind."""
        i = self.meld_of(card, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PENG)
        if i is not None:
            self.melds[i] = Group(GroupKind.PAO, (card,) * 4)
        else:
            self.hand[card] = 0
            self.melds.append(Group(GroupKind.PAO, (card,) * 4))

    def take_peng(self, card: int) -> None:
        self.hand[card] -= 2
        self.melds.append(Group(GroupKind.PENG, (card,) * 3))

    def take_chi(self, groups: tuple[tuple[int, ...], ...], used: tuple[int, ...]) -> None:
        """吃 (with its 比 groups): ``used`` are the hand cards it puts out."""
        for k in used:
            self.hand[k] -= 1
        for g in groups:
            self.melds.append(Group(GroupKind.CHI, g))

    # ----- what others and the seat see ---------------------------------------------------

    def meld_views(self, owner_view: bool) -> tuple[MeldView, ...]:
        return tuple(_meld_view(g, owner_view) for g in self.melds)

    def public(self, seat: int) -> SeatView:
        return SeatView(
            seat=seat,
            hand_count=sum(self.hand),
            melds=self.meld_views(False),
            discards=tuple(self.discards),
            shown_huxi=sum(g.huxi for g in self.melds if g.kind != GroupKind.WEI),
        )

    def private(
        self, seat: int, public: PublicView, legal: tuple[str, ...], highlight: int | None
    ) -> PrivateView:
        """What the seat itself sees: the public view, its own cards and its legal actions."""
        return PrivateView(
            seat=seat,
            public=public,
            hand=tuple(sorted(C.expand(self.hand), key=C.sort_key)),
            kans=tuple(k for k in range(C.KINDS) if self.hand[k] == 3),
            melds=self.meld_views(True),
            huxi=self.huxi + sum(_KAN_HUXI[k] for k in range(C.KINDS) if self.hand[k] == 3),
            chou=tuple(sorted(self.chou | self.no_peng)),
            legal=legal,
            highlight=highlight,
            no_win=tuple(sorted(k for k in self.chou_hu if not self.may_win_on(k))),
        )


def census(seats: Sequence[Seat], elsewhere: Iterable[int]) -> list[int]:
    """How many of each kind the seats hold (hand, table, discard row) plus ``elsewhere``."""
    total = [0] * C.KINDS
    for s in seats:
        for k in range(C.KINDS):
            total[k] += s.hand[k]
        for k in (*(k for g in s.melds for k in g.cards), *s.discards):
            total[k] += 1
    for k in elsewhere:
        total[k] += 1
    return total


def _meld_view(g: Group, owner_view: bool) -> MeldView:
    up = FACE_UP[g.kind]
    cards = tuple(k if (owner_view or u) else None for k, u in zip(g.cards, up, strict=True))
    return MeldView(g.kind, cards, up)
