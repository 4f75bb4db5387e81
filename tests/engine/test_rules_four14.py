"""The four14 rule set (六胡抢, seed 002), one test or more per rule of docs/rules/four14.md."""

from __future__ import annotations

import random

import pytest
from support.four14 import WAITS_369, four14

from engine import actions as A
from engine import analyzer
from engine import cards as C
from engine.melds import Group, GroupKind
from engine.record import export_hand, verify
from engine.rules import FOUR14, HandStats, get_rule_set, table_rules
from engine.scoring import di_shu, mingtang, total_fan
from engine.simulate import play_random
from engine.state import Hand, Phase, next_dealer
from engine.views import Outcome, OutcomeKind


def card(text: str) -> int:
    return C.parse_card(text)


def pass_until(h: Hand, done, limit: int = 500) -> None:
    """Everybody passes every claim and makes the first legal discard until ``done(h)``."""
    for _ in range(limit):
        if done(h) or h.is_terminal():
            return
        seat = h.to_act()[0]
        legal = h.legal_actions(seat)
        h.apply(seat, A.PASS if A.PASS in legal else legal[0])
    raise AssertionError("condition never reached")


# ----- 座位与发牌 · seats and the deal --------------------------------------------------


def test_four14_is_one_key_with_four_seats_all_playing() -> None:
    assert get_rule_set("four14") == FOUR14 == table_rules("four14")
    assert FOUR14.key == "four14" and FOUR14.players == 4 and FOUR14.xing_seat(0) is None
    with pytest.raises(ValueError, match="4 seats, not 3"):
        table_rules("four14", 3)


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_15_others_14_stock_23_and_the_liangzhang_is_the_dealers_last(dealer: int) -> None:
    h = Hand.new(FOUR14, seed=1234 + dealer, dealer=dealer)
    dealt = {e.seat: e.cards for e in h.history if e.kind == "deal"}
    assert [len(dealt[s]) for s in range(4)] == [15 if s == dealer else 14 for s in range(4)]
    assert h.stock_count == 23
    assert h.liangzhang == h.deck[14]  # the dealer is dealt first, the 亮张 last


def test_the_dealer_discards_first_back_to_14() -> None:
    h = four14()
    assert h.to_act() == (0,) and all(a.startswith("d:") for a in h.legal_actions(0))
    h.apply(0, h.legal_actions(0)[0])
    assert sum(h._seats[0].hand) == 14


# ----- 胡牌 · winning on a discard, and who is asked ----------------------------------------

# 14 cards that win on 九 with 4 red cards (红胡): 一二三 四五六 七八九 壹贰叁 柒捌玖.
RED4_WAITS_9 = "一二三四五六七八壹贰叁柒捌玖"


def test_a_discard_is_won_on_nearest_xia_first_and_it_is_dihu_with_untouched_cards() -> None:
    # Both the 对家 (2) and the 上家 (3) win on the dealer's first discard 九; the dealer's
    # 下家 (1) can do nothing with it.
    h = four14(dealer="九", dui=WAITS_369, shang=RED4_WAITS_9,
               keep_out={0: "三六九", 1: "七八九十玖"})
    assert h.to_act() == (0,)
    h.apply(0, A.discard(card("九")))
    assert h.to_act() == (2, 3)
    assert h.legal_actions(2) == (A.HU, A.PASS) == h.legal_actions(3)
    assert h.public_view().to_act == () and h.public_view().waiting  # who is asked is private
    h.apply(3, A.HU)  # the 上家 must wait for the nearer 对家
    assert h.to_act() == (2,) and not h.is_terminal()
    h.apply(2, A.HU)
    o = h.outcome
    assert o.winner == 2 and o.fed_by == 0
    assert o.win.dihu and not o.win.tianhu and not o.win.zimo
    # by hand: H = 3 (一二三) + 6 (壹贰叁) = 9; 地胡 x = (2·9 − 3) // 3 = 5; 3 red, 6 big, 9
    # small: no 名堂, f = 1; d = 3: every other seat pays 5·1·3 = 15, the discarder no more.
    assert (o.win.huxi, o.win.di, o.win.fan) == (9, 5, 1)
    assert o.points == (-15, -15, 45, -15)


def test_when_the_nearer_seat_declines_the_next_one_wins_with_its_own_score() -> None:
    h = four14(dealer="九", dui=WAITS_369, shang=RED4_WAITS_9,
               keep_out={0: "三六九", 1: "七八九十玖"})
    h.apply(0, A.discard(card("九")))
    h.apply(2, A.PASS)
    h.apply(3, A.HU)
    o = h.outcome
    # 4 red cards (二 七 贰 柒): 红胡 2 番; x = 5 (地胡): each other seat pays 5·2·3 = 30.
    assert o.winner == 3 and o.win.mingtang == (("红胡", 2),)
    assert o.points == (-30, -30, -30, 90)


def test_a_later_discard_win_is_no_dihu_and_everyone_pays() -> None:
    # The dealer discards 十, his 下家 碰s it and discards 九: the dealer wins on it.
    h = four14(dealer=WAITS_369 + "十", xia="十十九",
               keep_out={0: "三六九", 2: "七八九十玖", 3: "七八九十玖"})
    h.apply(0, A.discard(card("十")))
    assert h.to_act() == (1,)
    h.apply(1, A.PENG)
    h.apply(1, A.discard(card("九")))
    assert h.to_act() == (0,) and h.legal_actions(0) == (A.HU, A.PASS)
    h.apply(0, A.HU)
    o = h.outcome
    assert o.winner == 0 and o.fed_by == 1 and not o.win.dihu and not o.win.tianhu
    # H = 9: x = (9 − 6) // 3 + 1 = 2, f = 1, d = 3: each of the three others pays 6.
    assert o.win.di == 2 and o.points == (18, -6, -6, -6)


def test_chouhu_a_declined_discard_win_bars_that_kind_while_huxi_is_unchanged() -> None:
    h = four14(dealer=WAITS_369 + "十", xia="十十九",
               keep_out={0: "三六九", 2: "七八九十玖", 3: "七八九十玖"})
    h.apply(0, A.discard(card("十")))
    h.apply(1, A.PENG)
    h.apply(1, A.discard(card("九")))
    h.apply(0, A.PASS)
    assert not h.is_terminal() and h.private_view(0).no_win == (card("九"),)


def test_the_discarder_is_never_asked_to_win_on_his_own_discard() -> None:
    # The dealer's 15 cards win as they stand (天胡); he declines (臭胡 on the 亮张 陆 only)
    # and discards 九, which would complete the same 15 cards again.
    h = four14(dealer="九" + WAITS_369, keep_out={1: "七八九十玖"})
    assert h.liangzhang == card("陆")
    assert h.to_act() == (0,) and h.legal_actions(0) == (A.HU, A.PASS)
    h.apply(0, A.PASS)
    h.apply(0, A.discard(card("九")))
    assert 0 not in h.to_act()
    assert h.public_view().seats[0].discards == (card("九"),)


def test_a_win_on_a_drawn_card_after_ones_own_first_draw_is_no_dihu() -> None:
    # The 下家 draws 拾 first (nobody takes it), then the 对家 draws 九 and the 下家 wins on it.
    h = four14(xia=WAITS_369, stock="拾九",
               keep_out={0: "三六九", 2: "捌玖贰柒十拾", 3: "三六九"})
    pass_until(h, lambda h: h.public_view().offer is not None
               and h.public_view().offer.card == card("九"))
    assert h.public_view().offer.seat == 2 and A.HU in h.legal_actions(1)
    h.apply(1, A.HU)
    while h.to_act():
        h.apply(h.to_act()[0], A.PASS)
    o = h.outcome
    assert o.winner == 1 and o.fed_by is None and not o.win.dihu
    assert o.win.di == 2 and o.points == (-6, 18, -6, -6)


# ----- 门子与胡息 · 5 门子, at least 6 胡息 ---------------------------------------------------


def peng(text: str) -> Group:
    return Group(GroupKind.PENG, (card(text),) * 3)


def test_five_groups_and_six_huxi_win() -> None:
    # 碰 四 五 六 (1 each) + 一二三 (3) + 柒捌玖 = 5 门子, 6 胡息: x = 1; 12 small cards:
    # 小字胡 8 + 2 = 10 番; d = 3: each other seat pays 1·10·3 = 30.
    win = analyzer.analyze(FOUR14, C.counts(C.parse_cards("一二三柒捌")),
                           [peng("四"), peng("五"), peng("六")], card("玖"), source="other")
    assert win is not None and len(win.groups) == 5
    assert (win.huxi, win.di, win.mingtang, win.loser_points) == (6, 1, (("小字胡", 10),), -30)


def test_five_huxi_do_not_win() -> None:
    # 碰 四 五 (1 each) + 一二三 (3) + 六七八 + 柒捌玖 = 5 门子 but 5 胡息.
    assert analyzer.analyze(FOUR14, C.counts(C.parse_cards("一二三六七八柒捌")),
                            [peng("四"), peng("五")], card("玖"), source="other") is None


# A hand where seat 0 discards 九 while seat 3 has 碰 九九九 on the table (seed-dealt, played
# out by random choices): 跑-ing that 九 would make a win worth 45 a loser, but a 碰 never 跑s
# a discard, and without the 跑 the cards make no win.
PENG_MEETS_DISCARD = {
    "rules": "four14", "dealer": 1, "base": 3, "seed": 6511813127827360948,
    "log": [
        [1, "d:x10"], [2, "c:x10x10d10+x2x7x10"], [2, "d:x9"], [3, "peng"], [3, "d:x6"],
        [1, "peng"], [1, "d:d6"], [3, "peng"], [3, "d:d7"], [0, "c:d2d7d10"], [0, "d:d8"],
        [1, "pass"], [3, "peng"], [3, "d:x4"], [0, "peng"], [0, "d:x5"], [2, "peng"],
        [2, "d:d10"], [2, "d:x2"], [1, "peng"], [1, "d:d1"], [1, "pass"], [0, "c:d8d9d10"],
        [0, "d:x9"],
    ],
}


def test_a_peng_never_pao_a_discard_so_no_win_is_offered_through_it() -> None:
    h = Hand.from_dict(PENG_MEETS_DISCARD)
    after = [(e.kind, e.seat, e.cards) for e in h.history if e.visible_to is None][-3:]
    assert after[:2] == [("discard", 0, (card("九"),)), ("to_row", 0, (card("九"),))]
    assert verify(export_hand(h)).ok
    before = Hand.from_dict({**PENG_MEETS_DISCARD, "log": PENG_MEETS_DISCARD["log"][:-1]})
    seat3 = before.private_view(3)
    assert peng("九") in [Group(m.kind, m.cards) for m in seat3.melds]
    hand3 = C.counts(seat3.hand)
    melds3 = [Group(m.kind, m.cards) for m in seat3.melds]
    drawn = analyzer.analyze(FOUR14, hand3, melds3, card("九"), source="other")
    assert drawn is not None and drawn.loser_points == -45  # a drawn 九 would 跑 and win
    assert analyzer.analyze(FOUR14, hand3, melds3, card("九"), source="discard") is None


def test_a_discard_matching_a_peng_wins_as_a_loose_card() -> None:
    # 碰 九 and 碰 四 (1 each), 一二三 (3), 壹贰叁 (6) and 七八 waiting: a discarded 九 makes
    # 七八九, 11 胡息. Read as a 跑 of the 碰 it would leave 七八 unmatched: no win.
    hand, melds = C.counts(C.parse_cards("一二三七八壹贰叁")), [peng("九"), peng("四")]
    win = analyzer.analyze(FOUR14, hand, melds, card("九"), source="discard")
    assert win is not None and win.huxi == 11 and peng("九") in win.groups
    assert analyzer.analyze(FOUR14, hand, melds, card("九"), source="other") is None


# ----- 结算 · settlement --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("huxi", "zimo", "tianhu", "x"),
    [
        (6, False, False, 1), (8, False, False, 1), (9, False, False, 2), (11, False, False, 2),
        (12, False, False, 3), (14, False, False, 3), (15, False, False, 4),
        (9, True, False, 3),  # 自摸 +1
        (6, False, True, 3), (9, False, True, 5), (10, False, True, 5), (12, False, True, 7),
        (12, True, True, 8),
    ],
)
def test_di_shu_is_three_huxi_a_step_from_six(huxi: int, zimo: bool, tianhu: bool, x: int) -> None:
    """Seed 002: 6–8 胡息 1 囤, 9–11 2 囤, 12–14 3 囤; 天胡 (2H − 3) / 3; 自摸 +1."""
    assert di_shu(FOUR14, huxi, zimo=zimo, tianhu=tianhu) == x


def stats(red: int = 3, big: int = 7, small: int = 8, all_sets: bool = False) -> HandStats:
    return HandStats(red=red, big=big, small=small, all_sets=all_sets)


@pytest.mark.parametrize(
    ("hand_stats", "named"),
    [
        (stats(red=3), ()), (stats(red=5), ()), (stats(red=6), ()),
        (stats(red=4), (("红胡", 2),)), (stats(red=7), (("红胡", 2),)),
        (stats(red=1), (("真点胡", 4),)),
        (stats(red=8), (("红乌", 4),)),
        (stats(red=10), (("红乌", 6),)),  # no 假点胡 in four14
        (stats(red=12), (("红乌", 8),)),  # 11–12 red are 红乌 only
        (stats(red=0), (("乌胡", 5),)),
        (stats(all_sets=True), (("对对胡", 5),)),
        (stats(big=9, small=6), ()), (stats(big=10, small=5), (("大字胡", 6),)),
        (stats(big=12, small=3), (("大字胡", 8),)),
        (stats(big=6, small=9), ()), (stats(big=5, small=10), (("小字胡", 8),)),
        (stats(big=2, small=13), (("小字胡", 11),)),
    ],
)
def test_mingtang_thresholds(hand_stats: HandStats, named: tuple) -> None:
    assert mingtang(FOUR14, hand_stats) == named


def test_mingtang_add_up_and_haidi_adds_one_or_two() -> None:
    named = mingtang(FOUR14, stats(red=0, big=2, small=13))
    assert named == (("乌胡", 5), ("小字胡", 11))
    assert total_fan(FOUR14, named, haidi=False) == 16
    assert total_fan(FOUR14, named, haidi=True) == 18
    assert total_fan(FOUR14, (), haidi=True) == 2


# ----- 天胡 and 地胡 --------------------------------------------------------------------------


def test_forced_tianhu_two_ti() -> None:
    h = four14(dealer="壹壹壹壹贰贰贰贰三四五六八九肆")
    o = h.outcome
    assert o is not None and o.winner == 0 and o.win.tianhu and o.win.zimo
    # H = 12 + 12 (no scoring run in 三四五六八九肆); x = (2·24 − 3) // 3 + 1 (自摸) = 16;
    # 4 red (贰): 红胡 2 番; d = 3: each other seat pays 16·2·3 = 96.
    assert (o.win.huxi, o.win.di, o.win.fan) == (24, 16, 2)
    assert o.points == (288, -96, -96, -96)


def test_forced_dihu_four_kan_for_a_non_dealer() -> None:
    h = four14(xia="一一一四四四五五五八八八九肆")
    o = h.outcome
    assert o is not None and o.winner == 1
    assert o.win.dihu and not o.win.tianhu and not o.win.zimo
    # H = 4 × 3 = 12; x = (2·12 − 3) // 3 = 7; no red: 乌胡 5; 13 small: 小字胡 8 + 3;
    # f = 16; each other seat pays 7·16·3 = 336.
    assert (o.win.huxi, o.win.di, o.win.fan) == (12, 7, 16)
    assert o.points == (-336, 1008, -336, -336)


def test_a_ti_counts_as_a_kan_for_the_forced_win_but_three_kan_do_not() -> None:
    assert four14(xia="一一一一四四四五五五八八八九").outcome.winner == 1
    h = four14(xia="一一一四四四五五五八九")
    assert h.outcome is None and h.to_act() == (0,)


def test_tianhu_the_dealers_fifteen_cards() -> None:
    h = four14(dealer="九" + WAITS_369, keep_out={1: "三六九", 2: "三六九", 3: "三六九"})
    assert h.phase == Phase.LIANG and h.to_act() == (0,)
    h.apply(0, A.HU)
    o = h.outcome
    assert o.win.tianhu and not o.win.zimo and not o.win.dihu
    # H = 9: 天胡 x = (18 − 3) // 3 = 5, f = 1: each pays 15.
    assert o.points == (45, -15, -15, -15)


def test_dihu_a_non_dealer_wins_on_the_liangzhang() -> None:
    h = four14(liang="九", xia=WAITS_369, keep_out={0: "三六九", 2: "三六九", 3: "三六九"})
    assert h.liangzhang == card("九") and h.phase == Phase.LIANG and h.to_act() == (1,)
    h.apply(1, A.HU)
    o = h.outcome
    assert o.win.dihu and not o.win.tianhu and o.fed_by is None
    assert o.points == (-15, 45, -15, -15)


# ----- 荒庄 -------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_huangzhuang_passes_the_deal_to_the_xia_at_once(dealer: int) -> None:
    drawn = Outcome(OutcomeKind.DRAW, (0, 0, 0, 0))
    assert next_dealer(FOUR14, dealer, drawn, 0) == ((dealer + 1) % 4, 0)


def test_a_hand_nobody_takes_ends_huangzhuang_when_the_23_cards_are_drawn() -> None:
    h = four14()
    assert h.stock_count == 23
    pass_until(h, lambda h: False)
    assert h.outcome.kind == OutcomeKind.DRAW and h.outcome.points == (0, 0, 0, 0)
    assert h.stock_count == 0 and h.history[-1].kind == "huangzhuang"


def test_escape_pays_each_of_the_three_others() -> None:
    h = four14()
    h3 = sum(analyzer.best_huxi(FOUR14, h._seats[s].hand, h._seats[s].melds) for s in (0, 2, 3))
    penalty = ((h3 - 6) // 3 + 8) * 3
    h.escape(1)
    assert h.outcome.kind == OutcomeKind.ESCAPE
    assert h.outcome.points == (penalty, -3 * penalty, penalty, penalty)


# ----- priorities round a four-seat table ------------------------------------------------------


def test_forced_wins_go_round_from_the_dealer() -> None:
    h = four14(dui="一一一一二二二二", shang="四四四四五五五五")
    assert h.outcome.winner == 2 and h.outcome.win.dihu


def test_liangzhang_wins_go_round_from_the_dealer() -> None:
    h = four14(liang="九", dui=WAITS_369, shang=RED4_WAITS_9, keep_out={0: "三六九"})
    assert h.phase == Phase.LIANG and h.to_act() == (2, 3)
    h.apply(3, A.HU)
    assert h.to_act() == (2,)
    h.apply(2, A.HU)
    assert h.outcome.winner == 2 and h.outcome.win.dihu


def test_on_a_drawn_card_the_drawers_xia_goes_before_seats_farther_on() -> None:
    # The 下家 draws 拾 (untaken), the 对家 draws 九: the 上家 (the drawer's 下家, still with
    # untouched cards: 地胡) goes before the 下家 (who has drawn: no 地胡).
    h = four14(xia=WAITS_369, shang=RED4_WAITS_9, stock="拾九",
               keep_out={0: "三六九", 2: "七八九十玖捌贰柒拾"})
    pass_until(h, lambda h: h.public_view().offer is not None
               and h.public_view().offer.card == card("九"))
    assert h.public_view().offer.seat == 2 and set(h.to_act()) == {1, 3}
    h.apply(1, A.HU)
    assert h.to_act() == (3,)
    h.apply(3, A.HU)
    assert h.outcome.winner == 3 and h.outcome.win.dihu and h.outcome.fed_by is None


def test_po_pao_hu_a_discard_is_won_on_before_the_forced_pao() -> None:
    h = four14(dealer="九", dui=WAITS_369, shang="九九九", keep_out={1: "七八十玖"})
    h.apply(0, A.discard(card("九")))
    assert h.to_act() == (2,)  # the 上家's 跑 is forced: he is not asked
    h.apply(2, A.HU)
    assert h.outcome.winner == 2 and h.outcome.fed_by == 0


def test_a_declined_discard_win_lets_the_pao_happen_and_the_first_pao_discards() -> None:
    h = four14(dealer="九", dui=WAITS_369, shang="九九九", keep_out={1: "七八十玖"})
    h.apply(0, A.discard(card("九")))
    h.apply(2, A.PASS)
    assert [e.kind for e in h.history if e.visible_to is None][-1] == "pao"
    # 11 in hand + 4 on the table = 15 > 14 + max(0, 1 − 1): he discards
    assert h.to_act() == (3,) and h.phase == Phase.DISCARD


def test_the_record_of_a_discard_win_names_the_feeder_and_verifies() -> None:
    for seed in range(200):  # the first random hand won on a discard
        h = play_random(Hand.new(FOUR14, seed=seed), random.Random(seed))
        if h.outcome.fed_by is not None:
            break
    doc = export_hand(h)
    assert doc["rules"] == "four14" and doc["result"]["fed_by"] == h.outcome.fed_by
    assert verify(doc).ok
    doc["result"]["fed_by"] = (h.outcome.fed_by + 1) % 4
    assert not verify(doc).ok
