"""Rule sets as data: docs/rules/qq.md, hunan.md and four14.md, one rule set each.

Everything that differs between the seeds' variants lives in one frozen :class:`RuleSet`;
the flow of a hand (``engine.state``) reads these fields and hard-codes none of them.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any


@dataclass(frozen=True)
class HandStats:
    """Facts about a winner's cards that 名堂 are judged on (hidden cards included)."""

    red: int
    big: int
    small: int
    all_sets: bool  # no 一句话 and no 绞 among the groups (对对胡)


@dataclass(frozen=True)
class MingTang:
    """One 名堂: a name, its 番 and a pure predicate; ``extra`` adds 番 beyond a threshold."""

    name: str
    fan: int
    applies: Callable[[HandStats], bool]
    extra: Callable[[HandStats], int] = lambda s: 0

    def fan_for(self, stats: HandStats) -> int:
        return self.fan + self.extra(stats) if self.applies(stats) else 0


QQ_MINGTANG: tuple[MingTang, ...] = (
    MingTang("红胡", 2, lambda s: s.red in (4, 7) or 10 < s.red < 13),
    MingTang("真点胡", 4, lambda s: s.red == 1),
    MingTang("假点胡", 3, lambda s: s.red == 10),
    MingTang("红乌", 4, lambda s: s.red >= 13, lambda s: s.red - 13),
    MingTang("乌胡", 5, lambda s: s.red == 0),
    MingTang("对对胡", 5, lambda s: s.all_sets),
    MingTang("大字胡", 6, lambda s: s.big >= 18, lambda s: s.big - 18),
    MingTang("小字胡", 8, lambda s: s.small >= 16, lambda s: s.small - 16),
)

# hunan (docs/rules/hunan.md, 结算 · Settlement): 名堂 multiply the 囤; only the largest that applies counts, which is
# why the seed names the combinations (红对, 红乌对, 乌对) with multipliers of their own.
HUNAN_MINGTANG: tuple[MingTang, ...] = (
    MingTang("红胡", 2, lambda s: 10 <= s.red < 13),
    MingTang("一点红", 3, lambda s: s.red == 1),
    MingTang("红乌", 4, lambda s: s.red >= 13),
    MingTang("对对胡", 4, lambda s: s.all_sets),
    MingTang("黑乌", 5, lambda s: s.red == 0),
    MingTang("红对", 6, lambda s: 10 <= s.red < 13 and s.all_sets),
    MingTang("红乌对", 8, lambda s: s.red >= 13 and s.all_sets),
    MingTang("乌对", 10, lambda s: s.red == 0 and s.all_sets),
)

# Field values a table shape sets: (seat count or two-seat option, ((field, value), ...)).
Shapes = tuple[tuple[int | str, tuple[tuple[str, Any], ...]], ...]

LEVELS: tuple[tuple[int, str], ...] = (
    (161000, "帝王"), (103000, "丞相"), (69000, "巡抚"), (46000, "总督"), (32200, "知府"),
    (23000, "通判"), (17700, "知县"), (12600, "大地主"), (9200, "小地主"), (6900, "大财主"),
    (5000, "小财主"), (3450, "衙役"), (2300, "商人"), (1600, "掌柜"), (1150, "富农"),
    (840, "中农"), (530, "猎人"), (320, "渔夫"), (180, "贫农"), (90, "佃户"), (60, "长工"),
    (30, "短工"),
)
LOWEST_LEVEL = "包身工"


def level_title(points: int) -> str:
    """等级 title for cumulative points (docs/rules/qq.md, 结算 · Settlement: 等级)."""
    for threshold, title in LEVELS:
        if points >= threshold:
            return title
    return LOWEST_LEVEL


@dataclass(frozen=True)
class RuleSet:
    """Everything that differs between variants. Defaults are the ``qq`` rule set."""

    id: str = "qq"
    players: int = 3
    dealer_cards: int = 21  # the last one is the 亮张
    other_cards: int = 20
    groups_to_win: int = 7  # 方门子
    min_huxi: int = 15
    # 底数 x = floor((H - di_offset) / di_divisor) + di_plus; 天胡: (tianhu_mult*H - tianhu_offset)
    di_offset: int = 12
    di_divisor: int = 3
    di_plus: int = 0
    tianhu_mult: int = 2
    tianhu_offset: int = 12
    zimo_bonus: int = 1
    mingtang: tuple[MingTang, ...] = field(default=QQ_MINGTANG)
    haidi_plain_bonus: int = 1  # added to a plain win's 番 (1 -> 2)
    haidi_mingtang_bonus: int = 2  # added to a 名堂 win's 番
    win_on_discard: bool = False
    forced_tianhu_ti: int = 3  # 3 提, or
    forced_tianhu_kan: int = 5  # 5 坎+提 together
    draws_before_dealer_passes: int = 3  # consecutive 荒庄 before the 下家 deals
    escape_plus: int = 8  # 逃跑: P = (floor((H2 - di_offset)/di_divisor) + escape_plus) * d
    default_base: int = 3  # 房间底分 d
    # Table shapes (docs/rules/hunan.md, 座位与发牌 · Seats and the deal): the seat counts a table
    # may choose, and what a shape implies.
    seat_choices: tuple[int, ...] = (3,)
    sits_out: bool = False  # the dealer's opposite is 醒家 and sits the hand out (hunan, 4 seats)
    birds: bool = False  # onlookers may 打鸟 (hunan, 4 seats)
    mingtang_multiply: bool = False  # 名堂 multiply (hunan) instead of adding up (qq)
    two_seat: str | None = None  # a two-seat table's option: "min21" or "setaside" (hunan)
    # hunan (docs/rules/hunan.md): what that rule set changes, as data
    two_seat_choices: tuple[str, ...] = ()  # two-seat options offered, the first the default
    set_aside: int = 0  # cards put aside after the deal, never used nor shown (hunan/2/setaside)
    xing_stake: int = 0  # 醒筹 in 底分: each loser (after a 荒牌 the dealer) pays it to the 醒家
    chou_bars_peng: bool = True  # a 臭牌 bars 碰 too; False: 臭 bars 吃 only (碰一不碰二 apart)
    shapes: Shapes = ()  # what table_rules sets for a seat count or a two-seat option
    # four14: a non-dealer's win with his dealt cards untouched (before he draws, takes or
    # discards anything) is 地胡, scored like 天胡; without it his 亮张 win is a 天胡 (qq).
    dihu: bool = False

    @property
    def key(self) -> str:
        """The table's rules as one string, stored with every hand: ``get_rule_set(key)``."""
        parts = [self.id]
        if len(self.seat_choices) > 1:
            parts.append(str(self.players))
        if self.two_seat:
            parts.append(self.two_seat)
        return "/".join(parts)

    def __reduce__(self) -> tuple[Callable[[str], RuleSet], tuple[str]]:
        """Pickled as its key (its 名堂 hold functions, which pickle cannot carry): another
        process reads the same rules from the key. Only a rule set the key names in full."""
        try:
            named = get_rule_set(self.key)
        except ValueError:
            named = None
        if named != self:
            raise pickle.PicklingError(f"rules {self.key!r} differ from the rule set of that key")
        return get_rule_set, (self.key,)

    def xing_seat(self, dealer: int) -> int | None:
        """The 醒家 of a hand dealt by ``dealer``: his opposite, when this shape has one."""
        return (dealer + self.players // 2) % self.players if self.sits_out else None

    @property
    def playing_seats(self) -> int:
        """Seats that hold cards this hand: a 醒家 sits out."""
        return self.players - self.sits_out

    @property
    def deck_size(self) -> int:
        return 80

    @property
    def stock_size(self) -> int:
        others = self.other_cards * (self.playing_seats - 1)
        return self.deck_size - self.dealer_cards - others - self.set_aside

    def discard_threshold(self, ti_pao: int) -> int:
        """The discard rule (docs/rules/qq.md, 行牌 · Play): a player must discard exactly when
        hand+table > this."""
        return self.other_cards + max(0, ti_pao - 1)


# 六胡抢 (seed 002). 假点胡 is not in the seed's list, and 红胡's 11–12 band lies inside
# 红乌 (≥ 8), so 红胡 is 4 or 7 red cards only (docs/rules/four14.md, decisions).
FOUR14_MINGTANG: tuple[MingTang, ...] = (
    MingTang("红胡", 2, lambda s: s.red in (4, 7)),
    MingTang("真点胡", 4, lambda s: s.red == 1),
    MingTang("红乌", 4, lambda s: s.red >= 8, lambda s: s.red - 8),
    MingTang("乌胡", 5, lambda s: s.red == 0),
    MingTang("对对胡", 5, lambda s: s.all_sets),
    MingTang("大字胡", 6, lambda s: s.big >= 10, lambda s: s.big - 10),
    MingTang("小字胡", 8, lambda s: s.small >= 10, lambda s: s.small - 10),
)

QQ = RuleSet()
_BY_THREE_OR_TWO = (
    ("sits_out", False), ("birds", False), ("xing_stake", 0), ("draws_before_dealer_passes", 1),
)
HUNAN = RuleSet(
    id="hunan",
    players=4,
    mingtang=HUNAN_MINGTANG,
    mingtang_multiply=True,
    haidi_plain_bonus=0,  # no 海底胡 in the 湖南 rules
    haidi_mingtang_bonus=0,
    tianhu_mult=1,  # 天胡 scores as any win: the seed doubles nothing
    default_base=1,  # points are 囤 × 名堂 × 底分: with 底分 1, one 囤 is one point
    seat_choices=(4, 3, 2),
    sits_out=True,
    birds=True,
    xing_stake=1,
    draws_before_dealer_passes=0,  # 开荒醒: after a 荒牌 the dealer deals again
    two_seat_choices=("min21", "setaside"),
    chou_bars_peng=False,
    shapes=(
        (3, _BY_THREE_OR_TWO),  # no 醒家; 荒庄 passes the deal to the 下家
        (2, _BY_THREE_OR_TWO),
        ("min21", (("min_huxi", 21),)),
        ("setaside", (("set_aside", 20),)),
    ),
)
FOUR14 = RuleSet(
    id="four14",
    players=4,
    seat_choices=(4,),
    dealer_cards=15,
    other_cards=14,
    groups_to_win=5,
    min_huxi=6,
    di_offset=6,  # x = floor((H − 6) / 3) + 1
    di_plus=1,
    tianhu_offset=3,  # 天胡 x = floor((2H − 3) / 3)
    mingtang=FOUR14_MINGTANG,
    win_on_discard=True,
    forced_tianhu_ti=2,
    forced_tianhu_kan=4,
    draws_before_dealer_passes=1,
    dihu=True,
)
RULE_SETS: dict[str, RuleSet] = {r.id: r for r in (QQ, HUNAN, FOUR14)}


def table_rules(rule_id: str, seats: int | None = None, two_seat: str | None = None) -> RuleSet:
    """The rules of a table: a rule set, its seat count (default: the first choice) and the
    two-seat option. Raises ``ValueError`` with a readable message for a shape not offered."""
    try:
        base = RULE_SETS[rule_id]
    except KeyError:
        raise ValueError(f"unknown rule set {rule_id!r}; known: {', '.join(RULE_SETS)}") from None
    seats = base.seat_choices[0] if seats is None else seats
    if seats not in base.seat_choices:
        choices = "/".join(map(str, base.seat_choices))
        raise ValueError(f"rule set {rule_id!r} is played by {choices} seats, not {seats}")
    if two_seat is not None and seats != 2:
        raise ValueError("the two-seat option applies to two-seat tables only")
    if seats == 2 and base.two_seat_choices:
        two_seat = two_seat or base.two_seat_choices[0]
        if two_seat not in base.two_seat_choices:
            choices = "/".join(base.two_seat_choices)
            raise ValueError(f"two-seat option {two_seat!r} not offered; choose {choices}")
    return _shaped(base, seats, two_seat)


@cache
def _shaped(base: RuleSet, seats: int, two_seat: str | None) -> RuleSet:
    """One object per table shape: the analyzer keeps its result cache per rules object, so a
    fresh copy per call (a view read, a record loaded) would start it cold every time."""
    rules = replace(base, players=seats, two_seat=two_seat)
    for shape, values in base.shapes:
        if shape in (seats, two_seat):
            rules = replace(rules, **dict(values))
    return base if rules == base else rules


def get_rule_set(key: str) -> RuleSet:
    """The rules named by a :attr:`RuleSet.key` (``qq``, ``hunan/4``, ``hunan/2/setaside``…)."""
    rule_id, *shape = key.split("/")
    try:
        seats = int(shape[0]) if shape else None
    except ValueError:
        raise ValueError(f"bad rules key {key!r}") from None
    rules = table_rules(rule_id, seats, shape[1] if len(shape) > 1 else None)
    # "hunan/2" names the default two-seat option; any other mismatch is a bad key
    if shape and key not in (rules.key, rules.key.removesuffix(f"/{rules.two_seat}")):
        raise ValueError(f"bad rules key {key!r}")
    return rules
