"""The 湖南 rule set, one or more tests per rule of docs/rules/hunan.md.

Hands are dealt from explicit deck orders (``support.handkit.deck``): the dealer's 21 cards, then the
next two playing seats' 20 each in turn order, then the stock from the top. Seat 0 deals; at a
4-seat table seat 2 is the 醒家 and gets nothing, so the deck's second hand is seat 1's and the
third seat 3's.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from support.handkit import advance_until, card, cards, deck, kinds_of, offered, take

from engine import actions as A
from engine import cards as C
from engine.analyzer import analyze
from engine.melds import Group, GroupKind
from engine.player.info import read
from engine.rules import HUNAN, QQ, RULE_SETS, HandStats, RuleSet, get_rule_set, table_rules
from engine.scoring import di_shu, mingtang
from engine.state import Hand, IllegalAction, card_census, next_dealer
from engine.views import Outcome, OutcomeKind

H4, H3 = table_rules("hunan", 4), table_rules("hunan", 3)
MIN21, ASIDE = get_rule_set("hunan/2/min21"), get_rule_set("hunan/2/setaside")

# Seat 1's 20 cards, waiting on 三: 捌坎 6 + 玖坎 6 + 壹贰叁 6 + 一二三 3 = 21 胡息, 3 red.
WAITS_ON_SAN = "捌捌捌玖玖玖壹贰叁四五六肆伍陆七八九一二"


def dealt(rules: RuleSet, stock: str, dealer_cards: str = "", base: int = 1) -> Hand:
    """A hand at ``rules`` where seat 1 holds WAITS_ON_SAN; ``stock`` is drawn from the top."""
    keep = {0: "三", 2: "三"}
    return Hand.new(rules, deck=deck(dealer_cards, WAITS_ON_SAN, "", stock, keep), dealer=0,
                    base=base)


def discard_first(h: Hand, kind: str | None = None) -> None:
    """The dealer makes his first discard (``kind``, else his first legal one)."""
    legal = h.legal_actions(0)
    h.apply(0, A.discard(card(kind)) if kind else legal[0])


# ----- the rule set and its table shapes -------------------------------------------------


def test_hunan_is_a_rule_set_of_4_3_or_2_seats_4_by_default() -> None:
    assert RULE_SETS["hunan"] is HUNAN == table_rules("hunan")
    assert HUNAN.seat_choices == (4, 3, 2) and HUNAN.key == "hunan/4"
    assert [table_rules("hunan", n).key for n in (4, 3, 2)] == ["hunan/4", "hunan/3",
                                                              "hunan/2/min21"]
    assert get_rule_set("hunan/2") == MIN21  # the short key names the default option
    assert get_rule_set("hunan/2/setaside").key == "hunan/2/setaside"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: table_rules("hunan", 5), "4/3/2 seats, not 5"),
        (lambda: table_rules("hunan", 2, "half"), "'half' not offered"),
        (lambda: table_rules("hunan", 3, "min21"), "two-seat tables only"),
        (lambda: get_rule_set("hunan/4/min21"), "two-seat tables only"),
    ],
)
def test_shapes_not_offered_are_refused(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_only_four_seats_have_a_xing_and_birds() -> None:
    assert (H4.sits_out, H4.birds, H4.playing_seats) == (True, True, 3)
    for rules in (H3, MIN21, ASIDE):
        assert not rules.sits_out and not rules.birds and rules.playing_seats == rules.players


# ----- seats and deal ----------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "xing"), [(0, 2), (1, 3), (2, 0), (3, 1)])
def test_4_seats_the_dealers_opposite_is_xing_and_gets_no_cards(dealer: int, xing: int) -> None:
    h = Hand.new(H4, seed=5, dealer=dealer)
    view = h.public_view()
    assert view.xing == xing and H4.xing_seat(dealer) == xing
    sizes = {e.seat: len(e.cards) for e in kinds_of(h.history, "deal")}
    assert xing not in sizes and sorted(sizes.values()) == [20, 20, 21]
    assert view.seats[xing].hand_count == 0 and view.seats[xing].melds == ()
    assert view.stock_count == 19
    private = h.private_view(xing)
    assert private.hand == () and private.legal == ()


def test_4_seats_the_xing_is_skipped_in_turn_order_and_never_asked() -> None:
    h = Hand.new(H4, seed=11, dealer=0)
    assert [h.next_seat(s) for s in (0, 1, 3)] == [1, 3, 0]
    for _ in range(200):
        if h.is_terminal():
            break
        assert 2 not in h.to_act()
        seat = h.to_act()[0]
        legal = h.legal_actions(seat)
        h.apply(seat, "pass" if "pass" in legal else legal[0])
    public = [e for e in h.history if e.visible_to is None]
    turns = [(a.seat, b.seat) for a, b in pairwise(public) if (a.kind, b.kind) == ("to_row", "draw")]
    assert turns and all(drawer == {0: 1, 1: 3, 3: 0}[row] for row, drawer in turns)


def test_3_seats_have_no_xing() -> None:
    h = Hand.new(H3, seed=5, dealer=1)
    assert h.public_view().xing is None
    assert sorted(len(e.cards) for e in kinds_of(h.history, "deal")) == [20, 20, 21]


def test_2_seats_min21_deals_21_and_20_and_leaves_39_in_the_stock() -> None:
    h = Hand.new(MIN21, seed=3, dealer=1)
    assert sorted(len(e.cards) for e in kinds_of(h.history, "deal")) == [20, 21]
    assert h.public_view().stock_count == 39 and MIN21.min_huxi == 21


def test_2_seats_set_aside_keeps_20_cards_out_of_the_hand_unseen() -> None:
    h = Hand.new(ASIDE, seed=3, dealer=0)
    assert h.public_view().stock_count == 19
    advance_until(h, lambda h: False)  # everybody passes every win: the stock runs out
    assert h.outcome is not None and h.outcome.kind == OutcomeKind.DRAW
    played: Counter = Counter()
    for s in h._seats:
        played.update(C.expand(s.hand))
        played.update(k for g in s.melds for k in g.cards)
        played.update(s.discards)
    assert played == Counter(h.deck[:60])  # every card dealt or drawn; the last 20 never
    assert card_census(h) == [4] * 20


# ----- next dealer ------------------------------------------------------------------------


def test_the_winner_deals_next_and_his_opposite_is_xing() -> None:
    won = Outcome(OutcomeKind.WIN, (-4, -4, 2, 6), winner=3)
    assert next_dealer(H4, 0, won, 0) == (3, 0)
    assert H4.xing_seat(3) == 1


def test_4_seats_after_a_huang_the_dealer_deals_again() -> None:
    draw = Outcome(OutcomeKind.DRAW, (-1, 0, 1, 0))
    assert next_dealer(H4, 0, draw, 0)[0] == 0
    assert next_dealer(H4, 0, draw, 7)[0] == 0


@pytest.mark.parametrize("rules", [H3, MIN21, ASIDE])
def test_without_a_xing_a_huang_passes_the_deal_to_the_xiajia(rules: RuleSet) -> None:
    draw = Outcome(OutcomeKind.DRAW, (0,) * rules.players)
    assert next_dealer(rules, 0, draw, 0) == (1, 0)


# ----- play: wins only on a drawn card, priority, 臭 ------------------------------------


@pytest.mark.parametrize("rules", [H4, H3, MIN21])
def test_no_win_on_a_discard(rules: RuleSet) -> None:
    h = dealt(rules, "十", dealer_cards="三")
    discard_first(h, "三")
    assert "hu" not in h.legal_actions(1)
    assert any(a.startswith("c:") for a in h.legal_actions(1))  # he could eat it, not win


def test_a_win_on_a_card_another_seat_drew_is_paid_by_both_others_and_the_xing_chips() -> None:
    """Worked example 1: 21 胡息 = 3 囤, 3 red (no 名堂), won on a card seat 3 drew. Each
    loser pays 3 囤 × 1 × 底分 2 and the 醒家 one 底分."""
    h = dealt(H4, "十三", base=2)
    discard_first(h)
    advance_until(h, offered(card("三")))
    assert h.public_view().offer.seat == 3
    take(h, 1, A.HU)
    win = h.outcome.win
    assert (win.huxi, win.di, win.fan, win.mingtang, win.zimo) == (21, 3, 1, (), False)
    assert h.outcome.points == (-8, 12, 4, -8)
    assert h.outcome.xing == 2


def test_zimo_adds_one_tun() -> None:
    h = dealt(H3, "三")
    discard_first(h)
    advance_until(h, offered(card("三")))
    assert h.public_view().offer.seat == 1
    take(h, 1, A.HU)
    win = h.outcome.win
    assert (win.huxi, win.di, win.zimo) == (21, 4, True)
    assert h.outcome.points == (-4, 8, -4)


def test_ti_or_wei_on_the_drawers_card_comes_before_anyone_elses_win() -> None:
    """Seat 3 holds 三三 and draws the 三 seat 1 waits on: it is 偎-ed face down, never offered."""
    h = Hand.new(H4, deck=deck("", WAITS_ON_SAN, "三三", "十三", {0: "三"}), dealer=0)
    discard_first(h)
    advance_until(h, lambda h: any(e.kind == "wei" and e.seat == 3 for e in h.history))
    assert not any(e.kind == "hu" for e in h.history)
    assert all(e.kind != "draw" or e.cards != (card("三"),) for e in h.history)


def test_a_win_comes_before_a_peng() -> None:
    """Seat 0 holds 三三 and could 碰 the 三 seat 3 draws; seat 1's 胡 is taken first."""
    h = Hand.new(H4, deck=deck("三三", WAITS_ON_SAN, "", "十三", {2: "三"}), dealer=0)
    discard_first(h)
    advance_until(h, offered(card("三")))
    assert A.PENG in h.legal_actions(0) and A.HU in h.legal_actions(1)
    h.apply(0, A.PENG)
    assert not h.is_terminal()  # the 碰 waits for the higher claim
    h.apply(1, A.HU)
    assert h.outcome.winner == 1 and not kinds_of(h.history, "peng")


def _offered_options_after_declining_a_peng(rules: RuleSet) -> tuple[str, ...]:
    """Seat 2 (the dealer's 上家 at 3 seats) holds 五五 and 四六: he may 碰 the dealer's 五
    but not eat it, and passes. Then seat 1 draws the last 五, which seat 2 may eat or 碰."""
    h = Hand.new(rules, deck=deck("五", "", "五五四六", "五", {1: "四五六"}), dealer=0)
    discard_first(h, "五")
    assert h.legal_actions(2) == (A.PENG, A.PASS)
    h.apply(2, A.PASS)
    first_draw = kinds_of(h.history, "draw")[0]
    assert (first_draw.seat, first_draw.cards) == (1, (card("五"),))
    offer = h.public_view().offer
    return h.legal_actions(2) if offer is not None and offer.seat == 1 else ()


def test_only_chi_has_chou_a_declined_peng_bars_only_a_later_peng() -> None:
    """碰一不碰二: no second 碰 of the kind; 吃 is not barred by a declined 碰 at hunan."""
    options = _offered_options_after_declining_a_peng(H3)
    assert A.PENG not in options
    assert any(a.startswith("c:") for a in options)


def test_qq_keeps_its_chou_a_declined_peng_bars_chi_too() -> None:
    assert _offered_options_after_declining_a_peng(QQ) == ()


def test_a_declined_chi_stays_chou_for_chi() -> None:
    h = dealt(H3, "十三", dealer_cards="三")
    discard_first(h, "三")
    take(h, 1, A.PASS)
    assert card("三") in h.private_view(1).chou


# ----- settlement ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("huxi", "tun"), [(15, 1), (17, 1), (18, 2), (20, 2), (21, 3), (23, 3), (24, 4), (30, 6)]
)
def test_tun_15_to_17_is_one_and_every_3_more_is_one_more(huxi: int, tun: int) -> None:
    assert di_shu(HUNAN, huxi, zimo=False, tianhu=False) == tun
    assert di_shu(HUNAN, huxi, zimo=True, tianhu=False) == tun + 1
    assert di_shu(HUNAN, huxi, zimo=False, tianhu=True) == tun  # 天胡 doubles nothing here


def stats(red: int, all_sets: bool = False) -> HandStats:
    return HandStats(red=red, big=10, small=11, all_sets=all_sets)


@pytest.mark.parametrize(
    ("red", "all_sets", "expected"),
    [
        (5, False, ()),
        (9, False, ()),
        (10, False, (("红胡", 2),)),
        (12, False, (("红胡", 2),)),
        (1, False, (("一点红", 3),)),
        (13, False, (("红乌", 4),)),
        (16, False, (("红乌", 4),)),
        (5, True, (("对对胡", 4),)),
        (0, False, (("黑乌", 5),)),
        (10, True, (("红对", 6),)),  # not 红胡 ×2 × 对对胡 ×4
        (13, True, (("红乌对", 8),)),
        (0, True, (("乌对", 10),)),
        (1, True, (("对对胡", 4),)),  # 一点红 ×3 and 对对胡 ×4: the larger counts
    ],
)
def test_each_mingtang_multiplier_and_only_the_largest_counts(
    red: int, all_sets: bool, expected: tuple
) -> None:
    assert mingtang(HUNAN, stats(red, all_sets)) == expected


def g(kind: str, text: str) -> Group:
    return Group(GroupKind(kind), tuple(cards(text)))


def test_worked_example_2_wu_dui_zimo() -> None:
    """碰伍伍伍 碰一一一, 坎 捌 玖 八 九, 偎 四四四 on his own draw: 25 胡息 = 4 囤, 自摸 +1,
    all black and all sets: 乌对 ×10. Each loser pays 5 × 10 × 底分 1 = 50."""
    melds = [g("peng", "伍伍伍"), g("peng", "一一一"), g("wei", "四四四")]
    win = analyze(H4, C.counts(cards("捌捌捌玖玖玖八八八九九九")), melds, source="self", base=1)
    assert win is not None
    assert (win.huxi, win.di, win.mingtang, win.fan) == (25, 5, (("乌对", 10),), 10)
    assert (win.loser_points, win.winner_points) == (-50, 100)


def test_worked_example_3_hong_dui_not_compounded() -> None:
    """碰拾拾拾 碰二二二 碰伍伍伍, 坎 贰 柒 捌, pair 九九 and 九 drawn by another: 26 胡息 = 4 囤,
    12 red and all sets: 红对 ×6 (not 红胡 ×2 × 对对胡 ×4). Each loser pays 24."""
    melds = [g("peng", "拾拾拾"), g("peng", "二二二"), g("peng", "伍伍伍")]
    hand = C.counts(cards("贰贰贰柒柒柒捌捌捌九九"))
    win = analyze(H3, hand, melds, card("九"), source="other", base=1)
    assert win is not None
    assert (win.huxi, win.di, win.mingtang, win.fan, win.loser_points) == (
        26, 4, (("红对", 6),), 6, -24)


def test_two_seats_min21_needs_21_huxi() -> None:
    fifteen = C.counts(cards("捌捌捌玖玖玖贰叁肆四五六肆伍陆七八九一二"))
    assert analyze(H3, fifteen, [], card("三"), source="other") is not None
    assert analyze(MIN21, fifteen, [], card("三"), source="other") is None
    win = analyze(MIN21, C.counts(cards(WAITS_ON_SAN)), [], card("三"), source="other")
    assert win is not None and win.huxi == 21
    assert win.winner_points == -win.loser_points  # one loser pays the winner


def test_huang_at_4_seats_the_dealer_pays_the_xing_kaihuangxing() -> None:
    h = Hand.new(H4, seed=21, dealer=3, base=2)
    advance_until(h, lambda h: False)
    assert h.outcome.kind == OutcomeKind.DRAW
    assert h.outcome.points == (0, 2, 0, -2)  # dealer 3 pays 醒家 1 one 底分
    assert h.outcome.xing == 1 and h.outcome.bird_card == h.deck[-1]


def test_huang_at_3_seats_costs_nothing() -> None:
    h = Hand.new(H3, seed=21, dealer=0)
    advance_until(h, lambda h: False)
    assert h.outcome.points == (0, 0, 0) and h.outcome.bird_card is None


def test_escape_at_4_seats_pays_each_player_and_the_xing_chips() -> None:
    h = Hand.new(H4, seed=8, dealer=0, base=1)
    penalty = h.escape_penalty(1)
    h.escape(1)
    assert h.outcome.points == (penalty, -2 * penalty - 1, 1, penalty)


def test_the_xing_cannot_escape_a_hand_he_does_not_play() -> None:
    h = Hand.new(H4, seed=8, dealer=0)
    with pytest.raises(IllegalAction, match="sitting_out"):
        h.escape(2)
    assert not h.is_terminal()


def test_bird_card_is_the_last_card_of_the_stock_on_every_4_seat_outcome() -> None:
    rng = random.Random(4)
    for _ in range(20):
        h = Hand.new(H4, seed=rng.getrandbits(32), dealer=rng.randrange(4))
        while not h.is_terminal():
            seat = rng.choice(h.to_act())
            h.apply(seat, rng.choice(h.legal_actions(seat)))
        assert h.outcome.bird_card == h.deck[-1]
        assert h.outcome.xing == H4.xing_seat(h.dealer)


def test_computer_players_read_the_xiajia_past_the_xing() -> None:
    """At 4 seats seat 1's 下家 is seat 3 (the 醒家, seat 2, holds nothing): the 吃 risk of a
    discard is judged on seat 3's hand."""
    h = Hand.new(H4, seed=2, dealer=0)
    know = read(h.private_view(1), h.history)
    assert know.xiajia(1) == 3 and know.xiajia(3) == 0
    assert any(know.chi_risk(k) > 0 for k in range(C.KINDS))


def test_each_table_shape_is_one_rules_object() -> None:
    """The analyzer memoises per rules object: reading a key again must not make a new one."""
    assert get_rule_set("qq") is QQ and get_rule_set("hunan/4") is HUNAN
    assert get_rule_set("hunan/2") is get_rule_set("hunan/2/min21") is MIN21
    assert get_rule_set("hunan/3") is table_rules("hunan", 3)
