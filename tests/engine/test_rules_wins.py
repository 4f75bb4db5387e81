"""Winning during play, by docs/rules/qq.md: 天胡 (开局 1, 2), 臭胡 (行牌: 臭), 破跑胡 (行牌: Forced
跑), 海底 and 荒庄, 逃跑 (结算)."""

from __future__ import annotations

import random

from support.handkit import advance_until, card, hand, offered

from engine import actions as A
from engine import analyzer
from engine.melds import Group, GroupKind
from engine.rules import QQ
from engine.seat import Seat
from engine.simulate import play_random
from engine.state import Hand, Phase
from engine.views import OutcomeKind

# The dealer's 21 cards win on their own (亮张 玖); his 下家 wins with the 亮张 玖.
DEALER_WINS = "壹贰叁壹贰叁一二三四五六七八九肆伍陆柒捌玖"
XIA_WINS_ON_JIU = "壹贰叁二七十贰柒拾一二三四五六肆伍陆柒捌"


def test_4_1_forced_tianhu_three_ti_dealer_first() -> None:
    h = hand(dealer="一一一一二二二二三三三三", xia="四四四四五五五五六六六六")
    assert h.is_terminal() and h.outcome.winner == 0
    win = h.outcome.win
    assert win.tianhu and win.zimo  # the dealer's forced 天胡 counts as 自摸
    assert sum(h.outcome.points) == 0


def test_4_1_forced_tianhu_five_kan_or_ti_non_dealer() -> None:
    h = hand(shang="四四四五五五六六六七七七八八八")
    assert h.is_terminal() and h.outcome.winner == 2
    assert h.outcome.win.tianhu and not h.outcome.win.zimo
    assert h.outcome.win.huxi >= 5 * 3
    # before the 下家 when both qualify: the dealer's 下家 comes first
    h = hand(xia="一一一一二二二二三三三三", shang="四四四四五五五五六六六六")
    assert h.outcome.winner == 1


def test_4_2_liangzhang_tianhu_dealer_has_priority_not_zimo() -> None:
    h = hand(dealer=DEALER_WINS, xia=XIA_WINS_ON_JIU)
    assert h.phase == Phase.LIANG and h.to_act() == (0, 1)
    h.apply(1, A.HU)  # the 下家 must wait for the dealer's answer
    assert h.to_act() == (0,) and not h.is_terminal()
    h.apply(0, A.HU)
    # only the dealer's forced 天胡 counts as 自摸 (qq.md 开局 1)
    assert h.outcome.winner == 0 and h.outcome.win.tianhu and not h.outcome.win.zimo


def test_4_2_liangzhang_tianhu_for_the_xia_when_the_dealer_declines() -> None:
    h = hand(dealer=DEALER_WINS, xia=XIA_WINS_ON_JIU)
    h.apply(0, A.PASS)
    h.apply(1, A.HU)
    assert h.outcome.winner == 1
    win = h.outcome.win
    assert win.tianhu and not win.zimo
    assert win.di == (2 * win.huxi - 12) // 3


def test_4_2_declining_both_goes_on_with_auto_ti_and_discard() -> None:
    h = hand(dealer=DEALER_WINS, xia=XIA_WINS_ON_JIU)
    h.apply(1, A.PASS)
    h.apply(0, A.PASS)
    assert h.phase == Phase.DISCARD and h.to_act() == (0,)


def test_6_6_chou_hu_after_declining_a_win_on_the_same_kind() -> None:
    # seat 1 declines 天胡 on 玖, then draws the next 玖 himself: no win offered
    h = hand(dealer=DEALER_WINS, xia=XIA_WINS_ON_JIU, stock="玖")
    h.apply(1, A.PASS)
    h.apply(0, A.PASS)
    advance_until(h, offered(card("玖")))
    offer = h.public_view().offer
    assert offer is not None and offer.card == card("玖") and offer.seat == 1
    assert A.HU not in h.legal_actions(1)
    # without the decline he could have won on it
    fresh = Seat(list(h._seats[1].hand), list(h._seats[1].melds))
    assert analyzer.analyze(QQ, fresh.hand, fresh.melds, card("玖"), source="self") is not None


def test_6_6_chou_hu_lifts_once_current_huxi_changes() -> None:
    s = Seat([0] * 20)
    s.chou_hu[card("玖")] = s.huxi
    assert not s.may_win_on(card("玖")) and s.may_win_on(card("九"))
    s.melds.append(Group(GroupKind.PENG, (card("五"),) * 3))
    assert s.may_win_on(card("玖"))


PAO_WAITER = "九九九壹贰叁贰柒拾四五六肆伍陆一二三十十"


def test_5_3_po_pao_hu_the_would_be_pao_player_may_win_instead() -> None:
    h = hand(xia=PAO_WAITER, stock="捌九", keep_out={0: "九", 2: "九"})
    advance_until(h, offered(card("九")))
    assert h.legal_actions(1) == (A.HU, A.PASS)
    h.apply(1, A.HU)
    assert h.outcome.winner == 1
    groups = {(g.kind, g.cards) for g in h.outcome.win.groups}
    assert (GroupKind.PAO, (card("九"),) * 4) in groups


def test_5_3_po_pao_hu_declined_the_pao_happens() -> None:
    h = hand(xia=PAO_WAITER, stock="捌九", keep_out={0: "九", 2: "九"})
    advance_until(h, offered(card("九")))
    h.apply(1, A.PASS)
    assert any(m.kind == GroupKind.PAO for m in h.private_view(1).melds)


def test_8_haidi_and_huangzhuang_over_random_hands() -> None:
    rng = random.Random(5)
    seen_haidi = seen_draw = False
    for seed in range(400):
        h = play_random(Hand.new(QQ, seed=seed, dealer=seed % 3), rng)
        out = h.outcome
        if out.kind == OutcomeKind.DRAW:
            seen_draw = True
            assert h.stock_count == 0 and out.points == (0, 0, 0)
        elif out.win and not out.win.tianhu:
            last = h.history[-1]
            assert last.kind == "hu"
            assert out.win.haidi == (h.stock_count == 0 and last.cards[0] == h.deck[-1])
            seen_haidi |= out.win.haidi
    assert seen_haidi and seen_draw


def test_8_escape_penalty_paid_to_each_other_seat() -> None:
    h = Hand.new(QQ, seed=21)
    h2 = sum(analyzer.best_huxi(QQ, h._seats[s].hand, h._seats[s].melds) for s in (0, 1))
    penalty = ((h2 - 12) // 3 + 8) * 3
    h.escape(2)
    assert h.outcome.kind == OutcomeKind.ESCAPE and h.outcome.escaper == 2
    assert h.outcome.points == (penalty, penalty, -2 * penalty)
    assert Hand.replay(QQ, seed=21, log=h.log).outcome == h.outcome


WAITS_ON_JIU = "壹贰叁二七十贰柒拾一二三四五六肆伍陆柒捌"  # 柒捌 waits on 玖 (18 胡息)


def test_6_4_a_player_may_win_on_his_chou_card() -> None:
    h = hand(dealer="玖", xia=WAITS_ON_JIU, stock="九玖", keep_out={0: "玖", 2: "玖"})
    advance_until(h, lambda h: 0 in h.to_act() and h.phase == Phase.DISCARD)
    h.apply(0, A.discard(card("玖")))
    assert any(a.startswith("c:") for a in h.legal_actions(1))
    advance_until(h, offered(card("九")))  # seat 1 passes the 吃 of 玖: 玖 is his 臭牌
    assert card("玖") in h.private_view(1).chou
    advance_until(h, offered(card("玖")))  # seat 2 draws the next 玖
    assert A.HU in h.legal_actions(1)
    h.apply(1, A.HU)
    assert h.outcome.winner == 1


def test_6_5_chou_is_per_kind_small_and_big_differ() -> None:
    h = hand(dealer="玖", xia=WAITS_ON_JIU, stock="九玖", keep_out={0: "玖", 2: "玖"})
    advance_until(h, lambda h: 0 in h.to_act() and h.phase == Phase.DISCARD)
    h.apply(0, A.discard(card("玖")))
    advance_until(h, offered(card("九")))
    assert card("玖") in h.private_view(1).chou and card("九") not in h.private_view(1).chou


def test_9_3_wei_on_his_own_draw_then_zimo() -> None:
    h = hand(
        xia="玖玖壹贰叁一二三四五六肆伍陆七八九陆柒捌", stock="玖", keep_out={0: "玖", 2: "玖"}
    )
    advance_until(h, lambda h: h.phase == Phase.SELFWIN)
    assert h.to_act() == (1,) and h.legal_actions(1) == (A.HU, A.PASS)
    assert any(m.kind == GroupKind.WEI for m in h.private_view(1).melds)
    h.apply(1, A.HU)
    win = h.outcome.win
    assert h.outcome.winner == 1 and win.zimo and not win.tianhu
    assert (GroupKind.WEI, (card("玖"),) * 3) in {(g.kind, g.cards) for g in win.groups}
    assert win.di == (win.huxi - 12) // 3 + 1
