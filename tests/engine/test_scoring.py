"""Settlement (docs/rules/qq.md, 结算): 胡息 per group, 名堂 rows, 底数, 番, points, 逃跑."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.melds import Group, GroupKind
from engine.rules import QQ, HandStats
from engine.scoring import di_shu, escape_penalty, hand_stats, mingtang, settle, total_fan

K = GroupKind


def g(kind: str, text: str) -> Group:
    return Group(K(kind), tuple(parse_cards(text)))


@pytest.mark.parametrize(
    ("kind", "text", "huxi"),
    [
        ("kan", "八八八", 3),
        ("kan", "捌捌捌", 6),
        ("peng", "五五五", 1),
        ("peng", "伍伍伍", 3),
        ("wei", "五五五", 3),
        ("wei", "伍伍伍", 6),
        ("chouwei", "五五五", 3),
        ("chouwei", "伍伍伍", 6),
        ("ti", "九九九九", 9),
        ("ti", "玖玖玖玖", 12),
        ("pao", "九九九九", 6),
        ("pao", "玖玖玖玖", 9),
        ("seq", "一二三", 3),
        ("seq", "壹贰叁", 6),
        ("seq", "二七十", 3),
        ("seq", "贰柒拾", 6),
        ("seq", "二三四", 0),
        ("seq", "捌玖拾", 0),
        ("chi", "一二三", 3),
        ("chi", "贰柒拾", 6),
        ("chi", "四五六", 0),
        ("chi", "八八捌", 0),  # a 绞 eaten
        ("jiao", "捌捌八", 0),
        ("jiao", "十十拾", 0),
        ("pair", "拾拾", 0),
    ],
)
def test_group_huxi(kind, text, huxi):
    assert g(kind, text).huxi == huxi


def stats(red=5, big=10, small=11, all_sets=False) -> HandStats:
    return HandStats(red=red, big=big, small=small, all_sets=all_sets)


@pytest.mark.parametrize(
    ("red", "expected"),
    [
        (0, (("乌胡", 5),)),
        (1, (("真点胡", 4),)),
        (2, ()),
        (3, ()),
        (4, (("红胡", 2),)),
        (5, ()),
        (6, ()),
        (7, (("红胡", 2),)),
        (8, ()),
        (9, ()),
        (10, (("假点胡", 3),)),
        (11, (("红胡", 2),)),
        (12, (("红胡", 2),)),
        (13, (("红乌", 4),)),
        (14, (("红乌", 5),)),
        (16, (("红乌", 7),)),
    ],
)
def test_red_mingtang(red, expected):
    assert mingtang(QQ, stats(red=red)) == expected


@pytest.mark.parametrize(
    ("big", "expected"),
    [(17, ()), (18, (("大字胡", 6),)), (19, (("大字胡", 7),)), (21, (("大字胡", 9),))],
)
def test_big_mingtang(big, expected):
    assert mingtang(QQ, stats(big=big, small=21 - big)) == expected


@pytest.mark.parametrize(
    ("small", "expected"),
    [(15, ()), (16, (("小字胡", 8),)), (17, (("小字胡", 9),)), (20, (("小字胡", 12),))],
)
def test_small_mingtang(small, expected):
    assert mingtang(QQ, stats(small=small, big=21 - small)) == expected


def test_mingtang_add_up_in_table_order():
    assert mingtang(QQ, HandStats(red=0, big=0, small=21, all_sets=True)) == (
        ("乌胡", 5),
        ("对对胡", 5),
        ("小字胡", 13),
    )


def test_hand_stats_counts_every_card():
    cards = parse_cards("二七十 贰柒拾 一 壹壹")
    s = hand_stats(cards, [])
    assert (s.red, s.big, s.small) == (6, 5, 4)


SETS = [g("kan", "三三三"), g("wei", "伍伍伍"), g("peng", "六六六"), g("chouwei", "九九九")]
SETS += [g("pao", "拾拾拾拾"), g("kan", "捌捌捌"), g("pair", "一一")]


def _cards(groups):
    return [k for x in groups for k in x.cards]


@pytest.mark.parametrize(
    ("swap", "all_sets"),
    [
        (None, True),  # 坎 偎 碰 臭偎 跑 and the pair
        (g("ti", "拾拾拾拾"), True),
        (g("seq", "四五六"), False),
        (g("jiao", "八八捌"), False),
        (g("chi", "七八九"), False),
    ],
)
def test_duiduihu_needs_sets_only(swap, all_sets):
    groups = list(SETS) if swap is None else [*SETS[:-3], swap, *SETS[-2:]]
    assert hand_stats(_cards(groups), groups).all_sets is all_sets
    names = [n for n, _ in mingtang(QQ, hand_stats(_cards(groups), groups))]
    assert ("对对胡" in names) is all_sets


def test_duiduihu_needs_every_card_in_a_group():
    groups = [g("ti", "一一一一"), g("kan", "二二二")]
    assert not hand_stats(parse_cards("一一一一二二二三"), groups).all_sets


@pytest.mark.parametrize(
    ("huxi", "zimo", "tianhu", "x"),
    [
        (15, False, False, 1),
        (17, False, False, 1),
        (18, False, False, 2),
        (30, False, False, 6),
        (15, True, False, 2),
        (18, True, False, 3),
        (15, False, True, 6),  # floor((30 - 12) / 3)
        (16, False, True, 6),  # floor(20 / 3)
        (17, False, True, 7),
        (17, True, True, 8),
    ],
)
def test_di_shu(huxi, zimo, tianhu, x):
    assert di_shu(QQ, huxi, zimo=zimo, tianhu=tianhu) == x


def test_di_shu_reads_the_rule_set():
    four14 = replace(QQ, di_offset=6, di_plus=1, tianhu_offset=3)
    assert di_shu(four14, 9, zimo=False, tianhu=False) == 2  # floor(3/3) + 1
    assert di_shu(four14, 9, zimo=False, tianhu=True) == 5  # floor(15/3)


@pytest.mark.parametrize(
    ("named", "haidi", "fan"),
    [
        ((), False, 1),
        ((), True, 2),
        ((("红胡", 2),), False, 2),
        ((("红胡", 2),), True, 4),
        ((("乌胡", 5), ("对对胡", 5)), False, 10),
        ((("乌胡", 5), ("对对胡", 5)), True, 12),
    ],
)
def test_total_fan(named, haidi, fan):
    assert total_fan(QQ, named, haidi=haidi) == fan


# A plain win of 21 胡息: red 8, big 6, small 15; not all sets.
PLAIN = [
    g("kan", "八八八"),
    g("seq", "一二三"),
    g("seq", "二七十"),
    g("seq", "四五六"),
    g("seq", "壹贰叁"),
    g("seq", "贰柒拾"),
    g("seq", "肆伍陆"),
]


def test_settle_plain_win():
    win = settle(QQ, PLAIN, _cards(PLAIN), zimo=False, haidi=False, tianhu=False, base=3)
    assert (win.huxi, win.mingtang, win.fan, win.di) == (21, (), 1, 3)
    assert (win.winner_points, win.loser_points) == (18, -9)
    assert win.groups == tuple(PLAIN)


def test_settle_zimo_haidi_tianhu():
    win = settle(QQ, PLAIN, _cards(PLAIN), zimo=True, haidi=True, tianhu=True, base=2)
    # x = floor((42 - 12) / 3) + 1 = 11, f = 1 + 1 (海底 on a plain win), d = 2
    assert (win.di, win.fan, win.loser_points, win.winner_points) == (11, 2, -44, 88)
    assert (win.zimo, win.haidi, win.tianhu, win.base) == (True, True, True, 2)


def test_settle_mingtang_win_with_haidi():
    groups = [PLAIN[0], g("seq", "三四五"), *PLAIN[2:]]  # red 7: 红胡; 胡息 18
    win = settle(QQ, groups, _cards(groups), zimo=False, haidi=True, tianhu=False, base=3)
    assert win.mingtang == (("红胡", 2),)
    assert win.fan == 4  # 2 + 海底 2
    assert (win.huxi, win.di, win.loser_points) == (18, 2, -(2 * 4 * 3))


@given(
    st.lists(st.sampled_from(PLAIN + SETS), min_size=7, max_size=7),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(1, 10),
)
def test_points_sum_to_zero(groups, zimo, haidi, tianhu, base):
    win = settle(QQ, groups, _cards(groups), zimo=zimo, haidi=haidi, tianhu=tianhu, base=base)
    assert win.winner_points + (QQ.players - 1) * win.loser_points == 0
    assert win.loser_points == -win.di * win.fan * base


@pytest.mark.parametrize(
    ("h2", "base", "penalty"), [(30, 3, 42), (12, 3, 24), (14, 1, 8), (0, 3, 12)]
)
def test_escape_penalty(h2, base, penalty):
    assert escape_penalty(QQ, h2, base) == penalty
