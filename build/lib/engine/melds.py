"""Groups (门子) and their 胡息 (docs/rules/qq.md, 门子与胡息 · Melds and 胡息)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from engine import cards as C


class GroupKind(StrEnum):
    """Every kind of 方门子. The first six can lie in a table area."""

    CHI = "chi"  # a 一句话 or 绞 put on the table by 吃 / 比 (scored as SEQ / JIAO)
    PENG = "peng"
    WEI = "wei"
    CHOUWEI = "chouwei"
    TI = "ti"
    PAO = "pao"
    KAN = "kan"  # hand only
    SEQ = "seq"  # 一句话 in hand (or a CHI seen by its shape)
    JIAO = "jiao"  # 绞 in hand
    PAIR = "pair"  # 将


TABLE_KINDS = frozenset(
    {GroupKind.CHI, GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.TI, GroupKind.PAO}
)
SET_KINDS = frozenset(
    {GroupKind.PENG, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.TI, GroupKind.PAO, GroupKind.KAN}
)
FOUR_KINDS = frozenset({GroupKind.TI, GroupKind.PAO})

CHINESE_NAMES = {
    GroupKind.CHI: "吃",
    GroupKind.PENG: "碰",
    GroupKind.WEI: "偎",
    GroupKind.CHOUWEI: "臭偎",
    GroupKind.TI: "提",
    GroupKind.PAO: "跑",
    GroupKind.KAN: "坎",
    GroupKind.SEQ: "一句话",
    GroupKind.JIAO: "绞",
    GroupKind.PAIR: "将",
}

# 胡息 (big, small) of the sets.
SET_HUXI = {
    GroupKind.KAN: (6, 3),
    GroupKind.PENG: (3, 1),
    GroupKind.WEI: (6, 3),
    GroupKind.CHOUWEI: (6, 3),
    GroupKind.TI: (12, 9),
    GroupKind.PAO: (9, 6),
}


def is_sequence(cards: tuple[int, ...]) -> bool:
    """一句话: three consecutive points of one size, or 二七十 / 贰柒拾."""
    if len(cards) != 3 or len({C.is_big(k) for k in cards}) != 1:
        return False
    pts = sorted(C.point(k) for k in cards)
    return pts == [2, 7, 10] or (pts[1] == pts[0] + 1 and pts[2] == pts[1] + 1)


def is_jiao(cards: tuple[int, ...]) -> bool:
    """绞: one point, mixed sizes (two big + one small or two small + one big)."""
    return (
        len(cards) == 3
        and len({C.point(k) for k in cards}) == 1
        and len({C.is_big(k) for k in cards}) == 2
    )


def sequence_huxi(cards: tuple[int, ...]) -> int:
    pts = sorted(C.point(k) for k in cards)
    if pts in ([1, 2, 3], [2, 7, 10]):
        return 6 if C.is_big(cards[0]) else 3
    return 0


@dataclass(frozen=True)
class Group:
    """One 门子 with its cards (kinds). ``kind`` says how it was formed and so how it scores."""

    kind: GroupKind
    cards: tuple[int, ...]

    @cached_property
    def huxi(self) -> int:
        if self.kind in SET_HUXI:
            big, small = SET_HUXI[self.kind]
            return big if C.is_big(self.cards[0]) else small
        if self.kind in (GroupKind.SEQ, GroupKind.CHI) and is_sequence(self.cards):
            return sequence_huxi(self.cards)
        return 0

    @property
    def is_set(self) -> bool:
        """Identical cards (for 对对胡): not a 一句话 or 绞."""
        return self.kind in SET_KINDS or self.kind == GroupKind.PAIR

    def text(self) -> str:
        return C.format_cards(self.cards)
