"""The hand analyzer, rule by rule (docs/rules/qq.md: 门子与胡息, 开局 1, 胡牌与名堂, 结算)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.analyzer import analyze, best_huxi, forced_tianhu, forced_tianhu_win
from engine.cards import counts, parse_card, parse_cards
from engine.melds import Group, GroupKind
from engine.rules import QQ

K = GroupKind


def hand(text: str) -> list[int]:
    return counts(parse_cards(text))


def meld(kind: str, text: str) -> Group:
    return Group(K(kind), tuple(parse_cards(text)))


def shape(win) -> list[tuple[str, str]]:
    return [(str(g.kind), g.text()) for g in win.groups]


# Five 一句话 worth 15 胡息: red 6, big 9, small 6 — no 名堂 on their own.
REST5 = "一二三 壹贰叁 贰柒拾 六七八 肆伍陆"


def test_plain_win_with_every_field():
    win = analyze(QQ, hand(REST5 + "九九九 五五"), [], parse_card("五"), source="other")
    assert shape(win) == [
        ("peng", "五五五"),
        ("kan", "九九九"),
        ("seq", "一二三"),
        ("seq", "六七八"),
        ("seq", "壹贰叁"),
        ("seq", "贰柒拾"),
        ("seq", "肆伍陆"),
    ]
    assert (win.huxi, win.mingtang, win.fan, win.di) == (19, (), 1, 2)
    assert (win.zimo, win.haidi, win.tianhu, win.base) == (False, False, False, 3)
    assert (win.winner_points, win.loser_points) == (12, -6)


@pytest.mark.parametrize(
    ("melds", "in_hand", "source", "formed", "huxi"),
    [
        ([], "五五五", "self", ("ti", "五五五五"), 24),
        ([], "五五五", "other", ("pao", "五五五五"), 21),
        ([("wei", "五五五")], "", "self", ("ti", "五五五五"), 24),
        ([("wei", "五五五")], "", "other", ("pao", "五五五五"), 21),
        ([("chouwei", "五五五")], "", "self", ("ti", "五五五五"), 24),
        ([("chouwei", "五五五")], "", "other", ("pao", "五五五五"), 21),
        ([("peng", "五五五")], "", "self", ("pao", "五五五五"), 21),
        ([("peng", "五五五")], "", "other", ("pao", "五五五五"), 21),
    ],
)
def test_winning_card_joins_kan_wei_peng(melds, in_hand, source, formed, huxi):
    table = [meld(k, t) for k, t in melds]
    win = analyze(QQ, hand(REST5 + "九九" + in_hand), table, parse_card("五"), source=source)
    assert formed in shape(win)
    assert ("pair", "九九") in shape(win)  # the new 提/跑 allows (and needs) the 将
    assert win.huxi == huxi
    assert win.zimo is (source == "self")
    assert win.di == (huxi - 12) // 3 + (source == "self")


def test_own_draw_on_a_pair_is_wei():
    win = analyze(QQ, hand(REST5 + "九九九 五五"), [], parse_card("五"), source="self")
    assert ("wei", "五五五") in shape(win)
    assert (win.huxi, win.di) == (21, 4)


# The same 21 cards: 一一一 二三壹 with five more groups. Only splitting the 一s wins.
SPLIT_ONLY = "二三壹 贰柒拾 捌捌捌 玖玖玖 四五六 七八九"


def test_kan_is_never_split():
    assert analyze(QQ, hand("一一一" + SPLIT_ONLY), [], None) is None


def test_pair_and_other_players_card_may_be_split():
    win = analyze(QQ, hand("一一" + SPLIT_ONLY), [], parse_card("一"), source="other")
    assert {("seq", "一二三"), ("jiao", "一一壹")} <= set(shape(win))
    assert win.huxi == 21


def test_pair_and_own_draw_is_always_wei():
    assert analyze(QQ, hand("一一" + SPLIT_ONLY), [], parse_card("一"), source="self") is None


def test_pair_and_other_players_card_as_peng_or_sequence():
    # 四 五五 六 伍 + 五: only 四五六 + 五五伍 works; as 碰 the 四 六 伍 are left over.
    cards = hand(REST5.replace("肆伍陆", "肆肆肆") + "四五五六伍")
    win = analyze(QQ, cards, [], parse_card("五"), source="other")
    assert {("seq", "四五六"), ("jiao", "五五伍")} <= set(shape(win))
    assert analyze(QQ, cards, [], parse_card("五"), source="self") is None


class TestPairRule:
    PAO = [meld("pao", "十十十十")]

    def test_pair_needs_ti_or_pao(self):
        assert analyze(QQ, hand(REST5 + "九九九五五"), [], None) is None
        cards = hand("一二三 壹贰叁 贰柒拾 肆伍陆 九九九 五五")
        assert analyze(QQ, cards, [meld("peng", "十十十")], None) is None
        win = analyze(QQ, cards, self.PAO, None)
        assert ("pair", "五五") in shape(win)
        assert win.huxi == 6 + 15 + 3

    def test_ti_or_pao_needs_exactly_one_pair(self):
        assert analyze(QQ, hand(REST5 + "九九九"), self.PAO, None) is None
        two_pairs = hand("一二三 壹贰叁 贰柒拾 九九九 五五 四四")
        assert analyze(QQ, two_pairs, self.PAO, None) is None

    def test_dealt_four_of_a_kind_is_ti_and_allows_the_pair(self):
        win = analyze(QQ, hand(REST5 + "五五五五 九九"), [], None, tianhu=True)
        assert ("ti", "五五五五") in shape(win)
        assert (win.huxi, win.di, win.tianhu) == (24, 12, True)  # floor((48 - 12) / 3)


@pytest.mark.parametrize(
    ("melds", "cards", "huxi"),
    [
        ([], "一二三 二七十 八八八 九九九 五五五 肆伍陆 柒捌玖", 15),
        ([], "一二三 二七十 八八八 九九九 四五六 肆伍陆 柒捌玖", None),  # 12
        ([("peng", "五五五")], "一二三 二七十 八八八 九九九 四四四 肆伍陆", 16),
        ([("peng", "五五五")], "一二三 二七十 八八八 九九九 柒捌玖 肆伍陆", None),  # 13
    ],
)
def test_minimum_huxi(melds, cards, huxi):
    win = analyze(QQ, hand(cards), [meld(k, t) for k, t in melds], None)
    assert (win and win.huxi) == huxi


def test_minimum_huxi_is_read_from_the_rule_set():
    cards = hand("一二三 二七十 八八八 九九九 四五六 肆伍陆 柒捌玖")
    assert analyze(replace(QQ, min_huxi=12), cards, [], None).huxi == 12


def test_best_arrangement_prefers_most_huxi():
    # 一一二二三三 reads as 一二三 ×2 (6) or 一一 二二 三三 — pairs are not allowed: 6 it is.
    win = analyze(QQ, hand("一一二二三三 八八八 九九九 捌捌捌 四五六 肆伍陆"), [], None)
    assert win.huxi == 6 + 3 + 3 + 6
    assert shape(win).count(("seq", "一二三")) == 2


def test_duiduihu_from_sets_only():
    cards = hand("八八八 九九九 捌捌捌 玖玖玖 二二")
    win = analyze(QQ, cards, [meld("pao", "五五五五")], parse_card("二"), source="other")
    assert win is None  # 跑 + 4 坎 + 碰 二二二 are 6 groups, and the 跑 needs a 将
    cards = hand("八八八 九九九 捌捌捌 玖玖玖 二二 三三")
    win = analyze(QQ, cards, [meld("pao", "五五五五")], parse_card("二"), source="other")
    assert ("peng", "二二二") in shape(win) and ("pair", "三三") in shape(win)
    assert win.mingtang == (("对对胡", 5),)
    assert (win.huxi, win.fan, win.di, win.loser_points) == (25, 5, 4, -60)


def test_mingtang_counts_hidden_and_table_cards():
    # red: 二七十 ×2 in hand, 七七柒 eaten, 拾 提: 6 + 3 + 4 = 13 → 红乌
    cards = hand("二七十 二七十 捌捌捌 九九九 三三")
    melds = [meld("chi", "七七柒"), meld("ti", "拾拾拾拾")]
    win = analyze(QQ, cards, melds, None, source="self")
    assert win.mingtang == (("红乌", 4),)
    assert (win.huxi, win.zimo) == (27, True)


def test_haidi_and_base_pass_through():
    win = analyze(
        QQ, hand(REST5 + "九九九 五五"), [], parse_card("五"), source="other", haidi=True, base=5
    )
    assert (win.fan, win.haidi, win.base, win.loser_points) == (2, True, 5, -2 * 2 * 5)


def test_result_is_memoised():
    cards = hand(REST5 + "九九九 五五")
    first = analyze(QQ, cards, [], parse_card("五"), source="other")
    assert analyze(QQ, tuple(cards), (), parse_card("五"), source="other") is first


@pytest.mark.parametrize(
    ("cards", "melds", "card", "source", "message"),
    [
        ("五五五五", [("peng", "五五五")], None, None, "more than 4"),
        ("五五五五", [], "五", "self", "more than 4"),
        ("", [("peng", "五五六")], None, None, "identical"),
        ("", [("chi", "一二四")], None, None, "一句话"),
        ("", [("ti", "五五五")], None, None, "4 identical"),
        ("", [("kan", "五五五")], None, None, "not a table meld"),
        ("一二三", [], "五", None, "source"),
    ],
)
def test_impossible_holdings_raise(cards, melds, card, source, message):
    with pytest.raises(ValueError, match=message):
        analyze(
            QQ,
            hand(cards),
            [meld(k, t) for k, t in melds],
            None if card is None else parse_card(card),
            source=source,
        )


def test_hand_must_be_a_count_vector():
    with pytest.raises(ValueError, match="20 card counts"):
        analyze(QQ, [1, 2, 3], [], None)


class TestBestHuxi:
    def test_table_kan_and_partial_sequences(self):
        cards = hand("一二三 二七十 八八八 五 六 壹贰")
        assert best_huxi(QQ, cards, [meld("peng", "伍伍伍")]) == 3 + 3 + 3 + 3

    def test_four_of_a_kind_counts_as_ti(self):
        assert best_huxi(QQ, hand("玖玖玖玖 一"), []) == 12

    def test_kan_is_not_split_for_huxi(self):
        assert best_huxi(QQ, hand("一一一 二三"), []) == 3

    def test_shared_two_goes_to_one_sequence(self):
        # one 二 for both 一三 and 七十: only one of the sequences can be made
        assert best_huxi(QQ, hand("一二三七十"), []) == 3
        assert best_huxi(QQ, hand("贰贰 壹叁 柒拾"), []) == 12


@pytest.mark.parametrize(
    ("counts_", "forced"),
    [
        ({0: 4, 1: 4, 2: 4}, True),  # 3 提
        ({0: 4, 1: 4}, False),
        ({0: 4, 1: 4, 2: 3, 3: 3, 4: 3}, True),  # 2 提 + 3 坎 = 5
        ({0: 4, 1: 4, 2: 3, 3: 3}, False),
        ({0: 3, 1: 3, 2: 3, 3: 3, 4: 3}, True),  # 5 坎
        ({0: 3, 1: 3, 2: 3, 3: 3}, False),
        ({0: 4, 1: 3, 2: 3, 3: 3, 4: 3}, True),
        ({0: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2}, False),
    ],
)
def test_forced_tianhu(counts_, forced):
    vector = [counts_.get(k, 0) for k in range(20)]
    assert forced_tianhu(QQ, vector) is forced


def test_forced_tianhu_win_scores_ti_kan_and_best_partial():
    cards = hand("四四四四 五五五五 六六六六 壹贰叁 贰柒拾 七八九")
    win = forced_tianhu_win(QQ, cards, zimo=True, base=3)
    assert win.huxi == 27 + 6 + 6  # the 七八九 is worth nothing and need not be a group
    assert (win.tianhu, win.zimo, win.mingtang) == (True, True, ())
    assert win.di == (2 * 39 - 12) // 3 + 1
    assert win.loser_points == -win.di * 3


def test_forced_tianhu_win_duiduihu_when_all_in_sets():
    win = forced_tianhu_win(
        QQ, hand("四四四四 五五五五 六六六六 捌捌捌 九九 玖玖 拾拾"), zimo=False, base=3
    )
    assert win.mingtang == (("对对胡", 5),)
    assert (win.huxi, win.di, win.loser_points) == (33, 18, -18 * 5 * 3)
    no_pairs = forced_tianhu_win(
        QQ, hand("四四四四 五五五五 六六六六 捌捌捌 九九 玖 拾拾 一"), zimo=False, base=3
    )
    assert no_pairs.mingtang == ()


def built_holding(rng) -> list[int]:
    """21 cards from 7 random 坎 / 一句话 / 绞 (wins are common), sometimes one card changed."""
    from collections import Counter

    seqs = [(b + p, b + p + 1, b + p + 2) for b in (0, 10) for p in range(8)] + [(1, 6, 9)]
    while True:
        cards: list[int] = []
        for _ in range(7):
            roll = rng.random()
            if roll < 0.25:
                cards += [rng.randrange(20)] * 3
            elif roll < 0.4:
                p = rng.randrange(10)
                cards += [p, p, p + 10]
            else:
                cards += rng.choice(seqs)
        if rng.random() < 0.4:
            cards[rng.randrange(21)] = rng.randrange(20)
        if max(Counter(cards).values()) <= 4:
            return cards


def test_can_win_agrees_with_analyze_on_random_holdings():
    """can_win (听 asks it hundreds of times) is analyze's verdict without the scoring."""
    import random

    from engine.analyzer import can_win

    rng = random.Random(14)
    verdicts = []
    for _ in range(3000):
        cards = built_holding(rng)
        card = cards.pop(rng.randrange(21))
        held, melds = counts(cards), []
        if held[cards[0]] == 3 and rng.random() < 0.5:  # sometimes a table 偎 instead of a 坎
            held[cards[0]] = 0
            melds = [Group(GroupKind.WEI, (cards[0],) * 3)]
        for source in ("self", "other"):
            expected = analyze(QQ, held, melds, card, source=source) is not None
            assert can_win(QQ, held, melds, card, source) is expected
            verdicts.append(expected)
    assert 0 < sum(verdicts) < len(verdicts)
