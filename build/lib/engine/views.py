"""What a viewer may see: frozen, hidden-free snapshots handed to ``render/`` and ``bot/``.

Views are functions of (state, viewer). The public view holds nothing a spectator may not see;
a private view adds exactly one seat's own hand, its own face-down cards and its legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.melds import Group, GroupKind


@dataclass(frozen=True)
class MeldView:
    """A table meld. ``cards[i]`` is ``None`` when that card is face down to this viewer.

    ``face_up[i]`` says whether everyone sees card ``i``; in the owner's private view the
    cards are all known, and ``face_up`` tells which of them the others cannot see.
    """

    kind: GroupKind
    cards: tuple[int | None, ...]
    face_up: tuple[bool, ...]


@dataclass(frozen=True)
class SeatView:
    """One seat as everybody sees it."""

    seat: int
    hand_count: int
    melds: tuple[MeldView, ...]
    discards: tuple[int, ...]  # the seat's 出牌区, oldest first
    shown_huxi: int  # 胡息 of this seat's melds as far as they are face up


class OfferHow(StrEnum):
    LIANG = "liang"  # the dealer's 亮张 at the start
    DRAW = "draw"  # turned face up from the stock
    DISCARD = "discard"


@dataclass(frozen=True)
class Offer:
    """The face-up card now waiting for claims, who produced it and how."""

    card: int
    seat: int
    how: OfferHow


@dataclass(frozen=True)
class Event:
    """Something that happened. ``visible_to`` is ``None`` for everyone, else one seat.

    ``kind`` is one of: ``deal liang tianhu ti wei chouwei draw discard chi peng pao pass hu
    to_row huangzhuang escape dissolve``. A ``pass`` is seen only by the seat that passed: that it was
    asked at all is private (docs/rules/qq.md, 决定 · Decisions 11). ``cards`` are the cards this event shows its audience
    (empty when they are face down to it). For ``chi`` they are all groups put out,
    concatenated, and ``groups`` keeps them apart.
    """

    kind: str
    seat: int | None
    cards: tuple[int, ...] = ()
    visible_to: int | None = None
    groups: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Win:
    """A winning arrangement with its score (one analyzer result), explaining itself."""

    groups: tuple[Group, ...]
    huxi: int
    mingtang: tuple[tuple[str, int], ...]  # (名堂, 番), in rule-table order
    fan: int
    di: int  # 底数 x (自摸 bonus included)
    zimo: bool
    haidi: bool
    tianhu: bool
    base: int  # 房间底分 d
    winner_points: int  # + 2·x·f·d
    loser_points: int  # − x·f·d, paid by each loser
    dihu: bool = False  # 地胡 (four14): a non-dealer wins before he has drawn, taken or discarded
    # 封顶 (house rule): what each loser would have paid without the cap; None when it did not
    # apply (loser_points is then the whole loss)
    uncapped_loser_points: int | None = None

    @property
    def capped(self) -> bool:
        """Whether 封顶 cut this win's payments."""
        return self.uncapped_loser_points is not None


class OutcomeKind(StrEnum):
    WIN = "win"
    DRAW = "draw"  # 荒庄
    ESCAPE = "escape"  # 逃跑
    DISSOLVED = "dissolved"  # 解散: ended by the seats' vote, no points


@dataclass(frozen=True)
class Outcome:
    kind: OutcomeKind
    points: tuple[int, ...]  # per seat, sums to zero
    winner: int | None = None
    win: Win | None = None
    escaper: int | None = None
    xing: int | None = None  # the hand's 醒家 (hunan, 4 seats): his points are 醒筹
    bird_card: int | None = None  # the last stock card, which names the seat birds follow
    fed_by: int | None = None  # the seat whose discard was won on (four14), else None
    # 封顶 (house rule): the seats whose payment to the winner was capped, and every seat's
    # points as they would have been without the cap (None when it did not apply)
    capped: tuple[int, ...] = ()
    uncapped_points: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PublicView:
    rule_set: str
    dealer: int
    seats: tuple[SeatView, ...]
    stock_count: int
    liangzhang: int
    offer: Offer | None
    to_act: tuple[int, ...]  # the seat that must discard (public); never a claim's askees
    last_event: Event | None  # the last public event
    # How many public events so far: a version of what everyone sees. Not the number of actions:
    # a pass, or a claim held behind a higher one, is private and must not move it (qq.md 决定 11).
    move_no: int
    outcome: Outcome | None
    waiting: bool = False  # the table awaits answers (吃/碰/胡 on an offer, 自摸, 天胡) it does not name
    xing: int | None = None  # the 醒家 sitting this hand out (hunan, 4 seats), else None


@dataclass(frozen=True)
class Wait:
    """A card that would win, and how many of it this seat has not seen anywhere."""

    card: int
    unseen: int


@dataclass(frozen=True)
class Ting:
    """听牌 as one seat can know it (``engine.ting``), from its private view only.

    ``waits``: the cards that win for the seat's cards as they stand. ``by_discard``: when the
    seat must discard, each discard that leaves the hand 听, with the waits after it.
    """

    waits: tuple[Wait, ...] = ()
    by_discard: tuple[tuple[int, tuple[Wait, ...]], ...] = ()


@dataclass(frozen=True)
class PrivateView:
    seat: int
    public: PublicView
    hand: tuple[int, ...]  # sorted kinds, 坎 cards included
    kans: tuple[int, ...]  # kinds held as 坎 (locked)
    melds: tuple[MeldView, ...]  # own melds, every card known
    huxi: int  # the seat's own full 胡息: every meld (hidden 偎/提 included) and 坎 in hand
    chou: tuple[int, ...]  # kinds this seat may not 吃 or 碰 (臭牌 and own discards)
    legal: tuple[str, ...]  # legal actions now, stable order
    highlight: int | None  # the card just drawn by this seat, or offered to it
    no_win: tuple[int, ...] = ()  # kinds this seat may not win on now (臭胡)
