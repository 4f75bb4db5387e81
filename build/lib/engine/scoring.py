"""Settlement (结算: the 结算 · Settlement section of each docs/rules page): 名堂, 底数, 番 and
points of a winning arrangement.

Everything variant-specific is read from the :class:`~engine.rules.RuleSet`; the 名堂 are a
registry (``rules.mingtang``) iterated here, never an if-chain.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import cards as C
from engine.melds import Group
from engine.rules import HandStats, RuleSet
from engine.views import Win

_RED = tuple(C.is_red(k) for k in range(C.KINDS))
_BIG = tuple(C.is_big(k) for k in range(C.KINDS))


def hand_stats(all_card_kinds: Iterable[int], groups: Sequence[Group]) -> HandStats:
    """Facts the 名堂 are judged on, over every card of the winner (hidden ones included).

    ``all_sets`` (对对胡) holds when every card lies in a group and no group is a 一句话 or 绞;
    a forced 天胡 whose groups leave cards over is therefore never 对对胡.
    """
    kinds = list(all_card_kinds)
    big = sum(1 for k in kinds if _BIG[k])
    covered = sum(len(g.cards) for g in groups)
    return HandStats(
        red=sum(1 for k in kinds if _RED[k]),
        big=big,
        small=len(kinds) - big,
        all_sets=covered == len(kinds) and all(g.is_set for g in groups),
    )


def mingtang(rules: RuleSet, stats: HandStats) -> tuple[tuple[str, int], ...]:
    """The 名堂 that count, as (name, 番) in rule-table order. Where 名堂 multiply
    (``rules.mingtang_multiply``) only the largest counts, so its 番 is the multiplier."""
    named = tuple((m.name, m.fan_for(stats)) for m in rules.mingtang if m.applies(stats))
    if rules.mingtang_multiply and named:
        return (max(named, key=lambda n: n[1]),)
    return named


def di_shu(rules: RuleSet, huxi: int, *, zimo: bool, tianhu: bool) -> int:
    """底数 x for 胡息 ``huxi``; 自摸 adds ``rules.zimo_bonus`` (天胡 included). A win that
    reaches the 起胡 counts at least 1 (a lowered 起胡, docs/rules/qq.md, House rules: 起胡;
    at the rule sets' own 起胡 the formula gives 1 or more there already)."""
    if tianhu:
        x = (rules.tianhu_mult * huxi - rules.tianhu_offset) // rules.di_divisor
    else:
        x = (huxi - rules.di_offset) // rules.di_divisor + rules.di_plus
    if huxi >= rules.min_huxi and x < 1:
        x = 1
    return x + (rules.zimo_bonus if zimo else 0)


def total_fan(rules: RuleSet, named: Sequence[tuple[str, int]], *, haidi: bool) -> int:
    """番 f: 1 for a plain win, else the sum of the 名堂; 海底 adds its bonus to either."""
    if not named:
        return 1 + (rules.haidi_plain_bonus if haidi else 0)
    return sum(f for _, f in named) + (rules.haidi_mingtang_bonus if haidi else 0)


def settle(
    rules: RuleSet,
    groups: Sequence[Group],
    all_cards: Iterable[int],
    *,
    zimo: bool,
    haidi: bool,
    tianhu: bool,
    base: int,
    dihu: bool = False,
) -> Win:
    """Score an arrangement: 胡息 H = sum of the groups' 胡息; each loser pays x·f·d.

    The winner receives what the losers pay, so a hand's points sum to zero. A 地胡 (four14)
    takes the 天胡 底数: the seed names both as 起手 wins and gives one formula. House rules
    (docs/rules/qq.md, House rules): 自摸翻倍 doubles the loss; 封顶 caps it, and the win keeps
    the uncapped loss in ``uncapped_loser_points``.
    """
    huxi = sum(g.huxi for g in groups)
    named = mingtang(rules, hand_stats(all_cards, groups))
    fan = total_fan(rules, named, haidi=haidi)
    x = di_shu(rules, huxi, zimo=zimo, tianhu=tianhu or dihu)
    loss = x * fan * base
    if zimo and rules.zimo_double:
        loss *= 2
    uncapped = None
    if rules.cap and loss > rules.cap:
        uncapped, loss = -loss, rules.cap
    return Win(
        groups=tuple(groups),
        huxi=huxi,
        mingtang=named,
        fan=fan,
        di=x,
        zimo=zimo,
        haidi=haidi,
        tianhu=tianhu,
        base=base,
        dihu=dihu,
        winner_points=(rules.playing_seats - 1) * loss,
        loser_points=-loss,
        uncapped_loser_points=uncapped,
    )


def escape_penalty(rules: RuleSet, h2: int, base: int) -> int:
    """逃跑: P = (floor((H2 − di_offset) / di_divisor) + escape_plus) · d, paid to each other."""
    return ((h2 - rules.di_offset) // rules.di_divisor + rules.escape_plus) * base
