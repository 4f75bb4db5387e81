"""Rule sets as data: docs/rules/qq.md, hunan.md and four14.md, one rule set each.

Everything that differs between the seeds' variants lives in one frozen :class:`RuleSet`;
the flow of a hand (``engine.state``) reads these fields and hard-codes none of them.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Iterable
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

# A player's 等级 title: the cumulative points each starts at, highest first (below the
# lowest, LOWEST_TITLE). Not the computer players' levels (弱/中/强: engine.player.LEVELS).
TITLES: tuple[tuple[int, str], ...] = (
    (161000, "帝王"), (103000, "丞相"), (69000, "巡抚"), (46000, "总督"), (32200, "知府"),
    (23000, "通判"), (17700, "知县"), (12600, "大地主"), (9200, "小地主"), (6900, "大财主"),
    (5000, "小财主"), (3450, "衙役"), (2300, "商人"), (1600, "掌柜"), (1150, "富农"),
    (840, "中农"), (530, "猎人"), (320, "渔夫"), (180, "贫农"), (90, "佃户"), (60, "长工"),
    (30, "短工"),
)
LOWEST_TITLE = "包身工"


def title_of(points: int) -> str:
    """等级 title for cumulative points (docs/rules/qq.md, 结算 · Settlement: 等级)."""
    for threshold, title in TITLES:
        if points >= threshold:
            return title
    return LOWEST_TITLE


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
    # House rules (房规; the "House rules" section of each docs/rules page), set only by
    # with_house_rules: ``house`` names them, the fields below and min_huxi, mingtang,
    # zimo_bonus and the 海底 bonuses carry their effect.
    house: tuple[str, ...] = ()  # the house words, canonical order, defaults dropped
    cap: int = 0  # 封顶: the most a loser pays the winner in one hand (0: no cap)
    zimo_double: bool = False  # 自摸翻倍: a 自摸 doubles the loss instead of adding zimo_bonus
    first_dealer: str = "random"  # who deals the first hand: "random" or "opener" (the bot's)
    dealer_stays: bool = True  # 连庄: a dealer who wins deals again (False: his 下家 deals)

    @property
    def base_key(self) -> str:
        """The key without house words: the rule set and its table shape."""
        parts = [self.id]
        if len(self.seat_choices) > 1:
            parts.append(str(self.players))
        if self.two_seat:
            parts.append(self.two_seat)
        return "/".join(parts)

    @property
    def key(self) -> str:
        """The table's rules as one string, stored with every hand: ``get_rule_set(key)``.
        The base key, then ``+word`` per house word (``hunan/3+起胡10+封顶100+无名堂``)."""
        return "+".join((self.base_key, *self.house))

    @property
    def house_label(self) -> str:
        """The house words as the table shows them: ``起胡10 · 封顶100 · 无名堂`` ('' if none)."""
        return " · ".join(self.house)

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
    """The rules named by a :attr:`RuleSet.key` (``qq``, ``hunan/4``, ``hunan/2/setaside``,
    ``hunan/3+起胡10+封顶100``…). Raises ``ValueError`` for anything it does not fully read."""
    base_key, *words = key.split("+")
    rules = _base_rules(base_key)
    return with_house_rules(rules, words) if words else rules


def _base_rules(key: str) -> RuleSet:
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


# ----- house rules (房规): the "House rules" section of each docs/rules page ---------------

QIHU_RANGE: dict[str, tuple[int, int]] = {"qq": (6, 21), "hunan": (6, 21), "four14": (6, 15)}
QIHU_CHOICES: dict[str, tuple[int, ...]] = {
    "qq": (6, 10, 15, 18, 21), "hunan": (6, 10, 15, 18, 21), "four14": (6, 9, 12, 15),
}
CAP_RANGE = (5, 1000)
CAP_CHOICES = (10, 20, 50, 100)
NO_CAP, NO_MINGTANG, MINGTANG_ON, NO_HAIDI, HAIDI_ON = "不封顶", "无名堂", "有名堂", "无海底", "有海底"
ZIMO_DOUBLE, ZIMO_NONE = "自摸翻倍", "自摸不加"
DEALER_RANDOM, DEALER_OPENER = "庄随机", "开桌人庄"
STAYS, NO_STAYS = "连庄", "不连庄"
_NUMBER = re.compile(r"(起胡|封顶)([1-9][0-9]{0,3})")


class HouseRuleError(ValueError):
    """A house word not understood or not allowed: ``word`` the offending word (None when the
    words as a whole are at fault), ``allowed`` the words and ranges that may be said instead."""

    def __init__(self, message: str, word: str | None, allowed: Iterable[str]) -> None:
        super().__init__(message)
        self.word = word
        self.allowed = tuple(allowed)


@dataclass(frozen=True)
class HouseOption:
    """One house option a table offers (⚙): its name, the words to choose from (the default
    among them) and the word in force."""

    name: str
    choices: tuple[str, ...]
    current: str


def _zimo_default(base: RuleSet) -> str:
    """The word for the rule set's own 自摸 bonus: one 囤 (hunan) or one 底数 (qq, four14)."""
    return "自摸加囤" if base.mingtang_multiply else "自摸加底"


def _has_haidi(base: RuleSet) -> bool:
    return bool(base.haidi_plain_bonus or base.haidi_mingtang_bonus)


def _option_of(base: RuleSet, word: str) -> tuple[str, int | None] | None:
    """(option, value) that ``word`` sets at ``base``'s table; None when it means nothing there.
    Options: 起胡 封顶 名堂 无<名堂> 海底 自摸 首局庄 连庄; a value for 起胡 and 封顶 only."""
    number = _NUMBER.fullmatch(word)
    if number:
        return number[1], int(number[2])
    if word == NO_CAP:
        return "封顶", 0
    if word in (NO_MINGTANG, MINGTANG_ON):
        return "名堂", None
    if word.startswith("无") and word[1:] in {m.name for m in base.mingtang}:
        return word, None
    if word in (NO_HAIDI, HAIDI_ON) and _has_haidi(base):
        return "海底", None
    if word in (_zimo_default(base), ZIMO_DOUBLE, ZIMO_NONE):
        return "自摸", None
    if word in (DEALER_RANDOM, DEALER_OPENER):
        return "首局庄", None
    if word in (STAYS, NO_STAYS):
        return "连庄", None
    return None


def _allowed_words(base: RuleSet) -> tuple[str, ...]:
    """Every word (or range) a table of ``base``'s shape takes, for an error's ``allowed``."""
    low, high = QIHU_RANGE[base.id]
    return (
        f"起胡{low}–{high}", f"封顶{CAP_RANGE[0]}–{CAP_RANGE[1]}", NO_CAP, MINGTANG_ON, NO_MINGTANG,
        *(f"无{m.name}" for m in base.mingtang), *((HAIDI_ON, NO_HAIDI) if _has_haidi(base) else ()),
        _zimo_default(base), ZIMO_DOUBLE, ZIMO_NONE, DEALER_RANDOM, DEALER_OPENER, STAYS, NO_STAYS,
    )


def _house_base(rules: RuleSet) -> RuleSet:
    """The rules without their house words (a rule set built by hand keeps its fields)."""
    return _base_rules(rules.base_key) if rules.house else rules


def with_house_rules(rules: RuleSet, words: Iterable[str]) -> RuleSet:
    """``rules``' table shape with exactly the house rules ``words`` (any order; its own house
    words are replaced). A word equal to the default is accepted and dropped. Raises
    :class:`HouseRuleError` for an unknown word, a value out of range, a word said twice or
    two words that contradict each other."""
    return _housed(_house_base(rules), tuple(words))


@cache
def _housed(base: RuleSet, words: tuple[str, ...]) -> RuleSet:
    """One object per (shape, house rules), whatever order the words came in: the analyzer's
    cache is per rules object."""
    rules = _read_words(base, words)
    return _one_object.setdefault((base, rules.house), rules)


_one_object: dict[tuple[RuleSet, tuple[str, ...]], RuleSet] = {}


def _read_words(base: RuleSet, words: tuple[str, ...]) -> RuleSet:
    chosen: dict[str, tuple[str, int | None]] = {}
    for word in words:
        option = _option_of(base, word)
        if option is None:
            raise HouseRuleError(
                f"unknown house rule {word!r} for {base.base_key}", word, _allowed_words(base))
        name, value = option
        if name in chosen:
            said = chosen[name][0]
            why = "repeated" if said == word else f"contradicts {said!r}"
            raise HouseRuleError(f"house rule {word!r} {why}", word, (said,))
        if name == "起胡":
            low, high = QIHU_RANGE[base.id]
            if not low <= value <= high:  # type: ignore[operator]
                raise HouseRuleError(f"{word!r}: 起胡 must be {low}–{high}", word,
                                     (f"起胡{low}–{high}",))
        if name == "封顶" and value and not CAP_RANGE[0] <= value <= CAP_RANGE[1]:
            raise HouseRuleError(f"{word!r}: 封顶 must be {CAP_RANGE[0]}–{CAP_RANGE[1]}", word,
                                 (f"封顶{CAP_RANGE[0]}–{CAP_RANGE[1]}", NO_CAP))
        chosen[name] = (word, value)
    # 无名堂 takes every 名堂 and the 海底 bonus away: a per-名堂 or 海底 word contradicts it
    toggles = [name for name in chosen if name.startswith("无") or name == "海底"]
    if chosen.get("名堂", ("",))[0] == NO_MINGTANG and toggles:
        word = chosen[toggles[0]][0]
        raise HouseRuleError(f"house rule {word!r} contradicts {NO_MINGTANG!r}", word,
                             (NO_MINGTANG,))
    return _apply(base, chosen)


def _apply(base: RuleSet, chosen: dict[str, tuple[str, int | None]]) -> RuleSet:
    """The rule set with the chosen options in force; ``house`` keeps the words that differ
    from the defaults, in the canonical order of :func:`house_options`."""
    changes: dict[str, Any] = {}
    house: list[str] = []
    qihu = chosen.get("起胡", ("", None))[1]
    if qihu is not None and qihu != base.min_huxi:
        changes["min_huxi"] = qihu
        house.append(f"起胡{qihu}")
    cap = chosen.get("封顶", ("", None))[1]
    if cap:
        changes["cap"] = cap
        house.append(f"封顶{cap}")
    if chosen.get("名堂", ("",))[0] == NO_MINGTANG:  # every win a 平胡: 番 1 (×1)
        changes.update(mingtang=(), haidi_plain_bonus=0, haidi_mingtang_bonus=0)
        house.append(NO_MINGTANG)
    off = [m.name for m in base.mingtang if f"无{m.name}" in chosen]
    if off:
        changes["mingtang"] = tuple(m for m in base.mingtang if m.name not in off)
        house.extend(f"无{name}" for name in off)
    if chosen.get("海底", ("",))[0] == NO_HAIDI:
        changes.update(haidi_plain_bonus=0, haidi_mingtang_bonus=0)
        house.append(NO_HAIDI)
    zimo = chosen.get("自摸", ("",))[0]
    if zimo in (ZIMO_DOUBLE, ZIMO_NONE):
        changes.update(zimo_bonus=0, zimo_double=zimo == ZIMO_DOUBLE)
        house.append(zimo)
    if chosen.get("首局庄", ("",))[0] == DEALER_OPENER:
        changes["first_dealer"] = "opener"
        house.append(DEALER_OPENER)
    if chosen.get("连庄", ("",))[0] == NO_STAYS:
        changes["dealer_stays"] = False
        house.append(NO_STAYS)
    return replace(base, house=tuple(house), **changes) if house else base


def house_options(rules: RuleSet) -> tuple[HouseOption, ...]:
    """The house options a table of ``rules``' shape offers (⚙), each with the word in force.
    The per-名堂 words (``无对对胡``…) are taken as words but not offered here."""
    base = _house_base(rules)
    qihu = sorted({*QIHU_CHOICES[base.id], base.min_huxi})
    said = set(rules.house)
    options = [
        HouseOption("起胡", tuple(f"起胡{n}" for n in qihu), f"起胡{rules.min_huxi}"),
        HouseOption("封顶", (NO_CAP, *(f"封顶{n}" for n in CAP_CHOICES)),
                    f"封顶{rules.cap}" if rules.cap else NO_CAP),
        HouseOption("名堂", (MINGTANG_ON, NO_MINGTANG),
                    NO_MINGTANG if NO_MINGTANG in said else MINGTANG_ON),
    ]
    if _has_haidi(base) and NO_MINGTANG not in said:  # 海底 counts only where 名堂 do
        options.append(HouseOption("海底", (HAIDI_ON, NO_HAIDI),
                                   NO_HAIDI if NO_HAIDI in said else HAIDI_ON))
    zimo = ZIMO_DOUBLE if ZIMO_DOUBLE in said else ZIMO_NONE if ZIMO_NONE in said else None
    options += [
        HouseOption("自摸", (_zimo_default(base), ZIMO_DOUBLE, ZIMO_NONE),
                    zimo or _zimo_default(base)),
        HouseOption("首局庄", (DEALER_RANDOM, DEALER_OPENER),
                    DEALER_OPENER if rules.first_dealer == "opener" else DEALER_RANDOM),
        HouseOption("连庄", (STAYS, NO_STAYS), STAYS if rules.dealer_stays else NO_STAYS),
    ]
    return tuple(options)


def with_house_choice(rules: RuleSet, word: str) -> RuleSet:
    """``rules`` with one option set to ``word`` (a ⚙ button): the other house words stay,
    except those it replaces (``无名堂`` replaces the per-名堂 and 海底 words, and one of
    those ``无名堂``). Raises :class:`HouseRuleError` as :func:`with_house_rules`."""
    base = _house_base(rules)
    option = _option_of(base, word)
    if option is None:
        raise HouseRuleError(f"unknown house rule {word!r} for {base.base_key}", word,
                             _allowed_words(base))
    name = option[0]

    def replaced(other: str) -> bool:
        other_name = _option_of(base, other)[0]  # type: ignore[index]
        if name == "名堂":  # 有名堂 / 无名堂 replace the per-名堂 and 海底 words too
            return other_name in (name, "海底") or other_name.startswith("无")
        if name.startswith("无") or name == "海底":  # a per-名堂 or 海底 word: 无名堂 goes
            return other_name in (name, "名堂")
        return other_name == name

    return with_house_rules(base, [*(w for w in rules.house if not replaced(w)), word])
