"""The flow of a hand, one or more tests per rule of docs/rules/qq.md (座位与发牌, 开局,
行牌 with its 臭 rules, 决定).

Hands are dealt from explicit deck orders (``support.handkit.deck``): seat 0 deals, seat 1 is his 下家,
seat 2 his 上家; the stock is drawn from the top.
"""

from __future__ import annotations

import pytest
from support.handkit import (
    advance_until,
    card,
    cards,
    deck,
    hand,
    kinds_of,
    offered,
    pass_all,
    take,
)

from engine import actions as A
from engine import cards as C
from engine.melds import GroupKind
from engine.rules import QQ
from engine.state import Hand, IllegalAction, Phase, next_dealer
from engine.views import Outcome, OutcomeKind


def melds_of(h: Hand, seat: int) -> list[tuple[str, str]]:
    return [(m.kind.value, C.format_cards(m.cards)) for m in h.private_view(seat).melds]


def hand_text(h: Hand, seat: int) -> str:
    return C.format_cards(sorted(h.private_view(seat).hand))


# ----- 1 / 2: cards, seats, deal ------------------------------------------------------------


def test_1_deck_has_80_cards_24_red() -> None:
    full = C.full_deck()
    assert len(full) == 80
    assert sum(C.is_red(k) for k in full) == 24


def test_2_deal_sizes_liangzhang_and_stock() -> None:
    h = Hand.new(QQ, seed=7, dealer=1)
    view = h.public_view()
    assert view.dealer == 1
    dealt = {e.seat: e.cards for e in kinds_of(h.history, "deal")}
    assert len(dealt[1]) == 21 and len(dealt[2]) == 20 and len(dealt[0]) == 20
    assert view.liangzhang == h.deck[20]
    assert kinds_of(h.history, "liang")[0].visible_to is None


def test_2_shuffle_is_reproducible_from_seed() -> None:
    assert Hand.new(QQ, seed=99).deck == Hand.new(QQ, seed=99).deck
    assert Hand.new(QQ, seed=99).deck != Hand.new(QQ, seed=100).deck


def test_2_dealer_rotation_winner_deals_three_draws_pass_it_on() -> None:
    draw = Outcome(OutcomeKind.DRAW, (0, 0, 0))
    win = Outcome(OutcomeKind.WIN, (2, -1, -1), winner=2)
    assert next_dealer(QQ, 0, win, 1) == (2, 0)
    assert next_dealer(QQ, 0, draw, 0) == (0, 1)
    assert next_dealer(QQ, 0, draw, 1) == (0, 2)
    assert next_dealer(QQ, 0, draw, 2) == (1, 0)  # the third 荒庄 in a row


# ----- 4: start of a hand -------------------------------------------------------------------


def test_4_3_auto_ti_and_dealer_with_two_ti_does_not_discard() -> None:
    h = hand(dealer="一一一一二二二二四五六肆伍陆八九捌玖七拾柒")
    assert [e.cards for e in kinds_of(h.history, "ti") if e.seat == 0] == [
        (card("一"),),
        (card("二"),),
    ]
    assert h.public_view().seats[0].hand_count == 13
    # the dealer did not discard: his 下家 drew straight away
    dealer_ti = [e for e in kinds_of(h.history, "ti") if e.seat == 0]
    after_ti = h.history[h.history.index(dealer_ti[-1]) + 1]
    assert (after_ti.kind, after_ti.seat) in {("draw", 1), ("ti", 1), ("wei", 1)}
    assert not kinds_of(h.history, "discard")


def test_4_4_dealer_with_one_ti_discards() -> None:
    h = hand(dealer="一一一一")
    assert h.to_act() == (0,) and h.phase == Phase.DISCARD
    assert len(h.private_view(0).hand) == 17


def test_5_5_player_dealt_two_ti_keeps_his_first_taken_card() -> None:
    h = hand(
        dealer="九", xia="三三三三四四四四九九",
    )
    assert h.phase == Phase.DISCARD and h.to_act() == (0,)
    take(h, 0, A.discard(card("九")))
    take(h, 1, A.PENG)
    assert ("peng", "九九九") in melds_of(h, 1)
    # 12 hand cards − 2 + the 碰: hand+table = 21 with two 提: no discard, the 下家 draws
    assert h.public_view().seats[1].hand_count == 10
    assert not h.legal_actions(1) or h.phase != Phase.DISCARD
    assert kinds_of(h.history, "discard") == [kinds_of(h.history, "discard")[0]]


# ----- 5: play ------------------------------------------------------------------------------


def test_5_1_drawn_card_matching_a_pair_is_wei_face_down() -> None:
    h = hand(xia="七七", stock="七")
    take(h, 0, h.legal_actions(0)[-1])  # the dealer discards something
    pass_all(h)
    wei = kinds_of(h.history, "wei")
    public = [e for e in wei if e.visible_to is None]
    private = [e for e in wei if e.visible_to == 1]
    assert public and public[0].cards == () and private[0].cards == (card("七"),)
    view = h.public_view().seats[1].melds[-1]
    assert view.kind == GroupKind.WEI and view.cards == (None, None, None)


def test_5_2_kan_plus_own_draw_is_ti_with_one_card_shown() -> None:
    h = hand(xia="八八八", stock="八")
    take(h, 0, h.legal_actions(0)[-1])
    pass_all(h)
    ti = kinds_of(h.history, "ti")[-1]
    assert ti.seat == 1 and ti.cards == (card("八"),)
    view = h.public_view().seats[1].melds[-1]
    assert view.kind == GroupKind.TI and view.cards == (card("八"), None, None, None)


def test_5_3_kan_is_pao_ed_by_a_discard() -> None:
    h = hand(dealer="六", xia="六六六")
    take(h, 0, A.discard(card("六")))
    assert ("pao", "六六六六") in melds_of(h, 1)
    assert h.phase == Phase.DISCARD and h.to_act() == (1,)  # first 跑: he discards


def test_5_3_peng_is_pao_ed_by_a_draw_never_by_a_discard() -> None:
    # seat 1 碰s 五; seat 2 eats 八 and then discards the last 五: no 跑.
    h = hand(
        dealer="五", xia="五五八", shang="五七九", keep_out={2: "八六十捌"},
    )
    take(h, 0, A.discard(card("五")))
    take(h, 1, A.PENG)
    take(h, 1, A.discard(card("八")))
    take(h, 2, "c:x7x8x9")
    take(h, 2, A.discard(card("五")))
    assert ("peng", "五五五") in melds_of(h, 1)
    assert h.public_view().seats[2].discards == (card("五"),)


def test_5_3_peng_is_pao_ed_by_any_draw() -> None:
    h = hand(
        dealer="五", xia="五五八", stock="壹五",
    )
    take(h, 0, A.discard(card("五")))
    take(h, 1, A.PENG)
    take(h, 1, A.discard(card("八")))
    pass_all(h)  # seat 2 draws 壹 (nobody takes it), then seat 0 draws 五
    assert ("pao", "五五五五") in melds_of(h, 1)


def test_5_4_drawn_card_not_taken_goes_to_drawers_row_and_his_xia_draws() -> None:
    h = hand(
dealer="拾", stock="拾"
    )
    take(h, 0, A.discard(card("拾")))
    pass_all(h)  # 拾 discarded, untaken; seat 1 draws the next 拾 face up, nobody takes it
    rows = kinds_of(h.history, "to_row")
    assert [(e.seat, e.cards) for e in rows[:2]] == [(0, (card("拾"),)), (1, (card("拾"),))]
    assert kinds_of(h.history, "draw")[1].seat == 2


def test_5_4_chi_and_bi_choices_follow_the_seeds_example() -> None:
    from engine.chi import chi_options

    options = {
        tuple(C.format_cards(g) for g in o) for o in chi_options(C.counts(cards("一二二三三四贰贰")), card("二"))
    }
    assert ("二贰贰", "一二三", "二三四") in options  # eat with 贰贰, 比 一二三, 比 二三四
    assert ("一二三", "二二贰") in options  # eat with 一三, 比 二二贰
    assert ("一二三", "二三四", "二贰贰") in options  # eat with 一三, 比 二贰贰 then 二三四
    for o in options:  # every choice puts out both copies of 二
        assert sum(g.count("二") for g in o) == 3


def test_5_4_no_chi_when_bi_is_impossible() -> None:
    from engine.chi import chi_options

    assert chi_options(C.counts(cards("一三二")), card("二")) == []  # 二 left over, no 比
    assert chi_options(C.counts(cards("一三")), card("二")) != []
    assert chi_options(C.counts(cards("二二二")), card("二")) == []  # 坎 cards are locked


def test_5_4_peng_outranks_chi_and_chi_waits_for_it() -> None:
    h = hand(
        dealer="八", xia="七九", shang="八八", keep_out={1: "八六十捌"},
    )
    take(h, 0, A.discard(card("八")))
    # this is a discard: only the 下家 may 吃, anyone else with a pair may 碰
    assert set(h.to_act()) == {1, 2}
    h.apply(1, "c:x7x8x9")
    assert h.to_act() == (2,)  # the 吃 waits for the 碰 decision
    h.apply(2, A.PENG)
    assert ("peng", "八八八") in melds_of(h, 2)
    assert card("八") not in h.private_view(1).chou  # lost a 吃 to a 碰: not 臭 (qq.md 行牌: 臭)


def test_5_5_kan_cards_cannot_be_discarded() -> None:
    h = hand(dealer="三三三一")
    assert A.discard(card("三")) not in h.legal_actions(0)
    assert A.discard(card("一")) in h.legal_actions(0)


def test_5_5_chong_pao_skips_the_discard() -> None:
    h = hand(
        dealer="三", xia="三三三四四四一",
        stock="四",
    )
    take(h, 0, A.discard(card("三")))
    assert ("pao", "三三三三") in melds_of(h, 1)
    take(h, 1, A.discard(card("一")))
    pass_all(h)  # seat 2 draws 四 face up: seat 1's 坎 四 becomes his second 跑
    assert ("pao", "四四四四") in melds_of(h, 1)
    pao = kinds_of(h.history, "pao")[-1]
    nxt = h.history[h.history.index(pao) + 1]
    assert nxt.seat == 2 and nxt.kind in {"draw", "wei", "ti", "huangzhuang"}


# Seat 1 (the 下家) is dealt four 坎 and eight loose cards; the dealer's hand is fixed so that
# nobody else is forced to act on the stock cards. Seat 1 eats 陆 (肆伍陆) and discards 拾.
SHEDDING_DEALER = "壹壹贰贰叁叁柒柒肆肆伍伍拾拾五五六七八四十"
FOUR_KAN = "一一一二二二三三三四四四"


def shedding_hand(loose: str, stock: str) -> Hand:
    h = hand(dealer=SHEDDING_DEALER, xia=FOUR_KAN + loose, stock=stock, keep_out={2: stock})
    take(h, 0, A.discard(card("拾")))
    advance_until(h, offered(card("陆")))
    take(h, 1, "c:d4d5d6")
    take(h, 1, A.discard(card("拾")))
    return h


def test_9_9_no_peng_that_leaves_only_kan_cards() -> None:
    h = shedding_hand("肆伍六七拾十九九", stock="陆捌玖八九玖九")
    advance_until(h, offered(card("八")))
    take(h, 1, "c:x6x7x8")
    take(h, 1, A.discard(card("十")))  # left: four 坎 and the pair 九九
    advance_until(h, offered(card("九")))  # drawn by seat 2: a 碰 would leave nothing to discard
    assert 1 not in h.to_act()
    assert card("九") not in h.private_view(1).chou  # not offered, so not declined: no 臭


def test_9_4_a_wei_leaving_only_kan_cards_discards_nothing_and_his_xia_draws() -> None:
    h = shedding_hand("肆伍六七拾十九九", stock="陆捌玖八九玖九")
    advance_until(h, offered(card("八")))
    take(h, 1, "c:x6x7x8")
    take(h, 1, A.discard(card("十")))
    advance_until(h, lambda h: h.phase == Phase.SELFWIN)  # he draws the last 九: forced 偎
    assert h.to_act() == (1,) and ("wei", "九九九") in melds_of(h, 1)
    events = h.apply(1, A.PASS)  # no 自摸: the discard rule obliges a discard, but he holds only 坎 cards
    assert sorted(set(h.private_view(1).hand)) == list(h.private_view(1).kans)
    after = [e for e in events if e.visible_to is None][0]
    assert after.seat == 2 and after.kind in {"draw", "wei", "ti"}


def test_9_9_no_chi_that_leaves_only_kan_cards() -> None:
    h = shedding_hand("肆伍六七拾九十叁", stock="陆捌玖八捌玖八")
    advance_until(h, offered(card("八")))
    assert "c:x8x9x10" in h.legal_actions(1)  # a loose card would be left: allowed
    take(h, 1, "c:x6x7x8")
    take(h, 1, A.discard(card("叁")))  # left: four 坎 and 九十
    advance_until(h, offered(card("八")))  # his own draw again: 八九十 would leave nothing
    assert not any(a.startswith("c:") for a in h.legal_actions(1))


def test_9_9_no_chi_whose_bi_leaves_only_kan_cards() -> None:
    h = shedding_hand("肆伍五六七八九拾", stock="陆捌玖七")  # left: four 坎 and 五六七八九
    advance_until(h, offered(card("七")))  # every 吃 must 比 the 七 in hand: all five go out
    assert not any(a.startswith("c:") for a in h.legal_actions(1))


def test_5_6_after_an_untaken_discard_the_discarders_xia_draws() -> None:
    h = hand(dealer="拾", stock="一")
    take(h, 0, A.discard(card("拾")))
    pass_all(h)
    assert kinds_of(h.history, "to_row")[0].seat == 0
    assert kinds_of(h.history, "draw")[0].seat == 1 or kinds_of(h.history, "wei")


# ----- 6: 臭 rules --------------------------------------------------------------------------


def test_6_1_passing_a_possible_chi_makes_the_card_chou() -> None:
    h = hand(
        dealer="八", xia="七九",
    )
    take(h, 0, A.discard(card("八")))
    assert any(a.startswith("c:") for a in h.legal_actions(1))
    h.apply(1, A.PASS)
    pass_all(h)
    assert card("八") in h.private_view(1).chou


def test_6_2_nobody_claims_a_kind_he_discarded() -> None:
    h = hand(dealer="八八")
    take(h, 0, A.discard(card("八")))
    pass_all(h)
    assert card("八") in h.private_view(0).chou


def test_6_3_chou_wei_when_he_draws_the_card_he_declined() -> None:
    h = hand(
        dealer="八", xia="八八", stock="八",
    )
    take(h, 0, A.discard(card("八")))
    h.apply(1, A.PASS)  # 忍碰
    pass_all(h)  # nobody takes 八: seat 1 draws the last 八 with his pair: 臭偎
    chouwei = kinds_of(h.history, "chouwei")
    assert chouwei and chouwei[0].seat == 1 and chouwei[0].cards == (card("八"),)
    view = h.public_view().seats[1].melds[-1]
    assert view.kind == GroupKind.CHOUWEI and view.cards == (card("八"), None, None)


def test_illegal_and_out_of_turn_actions_raise_and_change_nothing() -> None:
    h = Hand.new(QQ, seed=3)
    before = (h.to_dict(), h.public_view())
    seat = h.to_act()[0]
    other = (seat + 1) % 3
    with pytest.raises(IllegalAction) as err:
        h.apply(other, h.legal_actions(seat)[0])
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        h.apply(seat, "d:x99")
    assert err.value.code == "illegal"
    assert (h.to_dict(), h.public_view()) == before


def test_to_dict_round_trip_and_bad_records() -> None:
    import random

    from engine.simulate import play_random

    h = play_random(Hand.new(QQ, seed=11), random.Random(1))
    again = Hand.from_dict(h.to_dict())
    assert again.public_view() == h.public_view() and again.outcome == h.outcome
    d = deck()
    explicit = Hand.new(QQ, deck=d)
    assert Hand.from_dict(explicit.to_dict()).deck == d
    for bad in ({"seed": "x"}, {"seed": 1, "log": "nope"}, {"deck": "x1 zz"}, {"seed": 1, "rules": "?"}):
        with pytest.raises(ValueError):
            Hand.from_dict(bad)
    with pytest.raises(IllegalAction):
        Hand.from_dict({"seed": 1, "log": [[0, "d:x1"], [0, "d:x1"], [0, "d:x1"]]})
