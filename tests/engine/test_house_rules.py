"""House rules in play, one or more tests per option of the "House rules" sections of
docs/rules/qq.md, hunan.md and four14.md: 起胡, 名堂, 海底, 自摸, 封顶, the first dealer and 连庄."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.handkit import advance_until, card, deck, offered
from support.housekit import BASE_KEYS, house_words

from engine import actions as A
from engine import cards as C
from engine.analyzer import analyze
from engine.birds import bird_seat, settle_birds
from engine.cli import analyze_lines
from engine.melds import Group, GroupKind
from engine.player import choose
from engine.player.play import wait_value
from engine.points import hand_points
from engine.record import export_hand, verify
from engine.review import review_hand
from engine.rules import get_rule_set, with_house_rules
from engine.simulate import play_random
from engine.state import Hand, next_dealer
from engine.views import Outcome, OutcomeKind


def g(kind: str, text: str) -> Group:
    return Group(GroupKind(kind), tuple(C.parse_cards(text)))


def counts(text: str) -> list[int]:
    return C.counts(C.parse_cards(text))


# All small and black, all sets: qq's 乌胡 5, 对对胡 5 and 小字胡 8 + 5 at once.
SMALL_BLACK_SETS = "一一一三三三四四四五五五六六六八八八九九"


# ----- 起胡 ---------------------------------------------------------------------------------

# 碰三三三 1 + 坎四四四 3 + 一二三 3 + 二七 with 十 3 = 10 胡息; the rest are plain 一句话.
TEN_MELDS = [g("peng", "三三三")]
TEN_HAND = "四四四二七一二三肆伍陆伍陆柒六七八"  # 7 门子 for qq and hunan
TEN_HAND_FOUR14 = "四四四二七一二三肆伍陆"  # 5 门子 for four14


@pytest.mark.parametrize("key", ["qq", "hunan/4", "hunan/3", "hunan/2/min21",
                                 "hunan/2/setaside", "four14"])
def test_a_win_at_the_qihu_exactly_and_one_huxi_under_it_refused(key: str) -> None:
    hand = counts(TEN_HAND_FOUR14 if key == "four14" else TEN_HAND)
    at = analyze(get_rule_set(f"{key}+起胡10"), hand, TEN_MELDS, card("十"), source="other")
    assert at is not None and at.huxi == 10
    assert analyze(get_rule_set(f"{key}+起胡11"), hand, TEN_MELDS, card("十"),
                   source="other") is None
    default = get_rule_set(key)
    assert (analyze(default, hand, TEN_MELDS, card("十"), source="other") is None) == (
        default.min_huxi > 10)


def test_a_lowered_qihu_counts_at_least_one_di() -> None:
    """qq's 底数 (H − 12) / 3 would be −1 at 10 胡息: a win at the table's 起胡 counts 1."""
    win = analyze(get_rule_set("qq+起胡10"), counts(TEN_HAND), TEN_MELDS, card("十"),
                  source="other", base=3)
    assert (win.huxi, win.di, win.fan, win.loser_points, win.winner_points) == (10, 1, 1, -3, 6)
    zimo = analyze(get_rule_set("hunan/3+起胡10"), counts(TEN_HAND), TEN_MELDS, card("十"),
                   source="self", base=1)
    assert (zimo.di, zimo.loser_points) == (2, -2)  # 1 囤, and 自摸 adds its 囤


def test_a_raised_qihu_refuses_a_15_and_counts_by_the_same_formula() -> None:
    fifteen = counts("四四四二七十一二三肆伍陆伍陆柒六七八壹贰")
    assert analyze(get_rule_set("qq"), fifteen, [], card("叁"), source="other").huxi == 15
    assert analyze(get_rule_set("qq+起胡18"), fifteen, [], card("叁"), source="other") is None
    big = analyze(get_rule_set("qq+起胡18"), counts("四四四二七十一二三肆伍陆伍陆柒捌捌捌壹贰"),
                  [], card("叁"), source="other")
    assert (big.huxi, big.di) == (21, 3)  # (21 − 12) / 3, as without the house rule


# 9 胡息 in seat 1's 20 cards (坎四 3, 一二三 3, 二七 waiting on 十 for 3), no 坎 elsewhere.
NINE_WAITER = "四四四二七一二三肆伍陆伍陆柒六七八捌玖拾"


def test_the_computer_player_wins_at_the_tables_qihu() -> None:
    """The engine offers the win at the table's 起胡 and the player takes it."""
    for key, may_win in (("qq+起胡9", True), ("qq", False)):
        h = Hand.new(get_rule_set(key), deck=deck("", NINE_WAITER, "", "十",
                                                   {0: "十", 2: "十"}), dealer=0)
        advance_until(h, offered(card("十")))
        assert (A.HU in h.legal_actions(1)) == may_win
        if may_win:
            public = [e for e in h.history if e.visible_to is None]
            assert choose(h.private_view(1), public, random.Random(1)) == A.HU


def test_the_computer_player_weighs_a_cap() -> None:
    """What a wait is worth to the player is what the win pays at this table: capped."""
    hand = counts(SMALL_BLACK_SETS)
    unseen = [0] * C.KINDS
    unseen[card("九")] = 1  # the one live winning card: 138 from each loser, or 5 capped
    unseen[card("十")] = 3
    free, capped = (wait_value(get_rule_set(k), hand, [], card("十"), unseen, 10)
                    for k in ("qq", "qq+封顶5"))
    assert free == pytest.approx(capped * 138 / 5) and capped > 0


# ----- 名堂 and 海底 ------------------------------------------------------------------------

def test_wu_mingtang_makes_a_hand_of_many_mingtang_a_plain_win() -> None:
    full = analyze(get_rule_set("qq"), counts(SMALL_BLACK_SETS), [], card("九"),
                   source="other")
    assert [n for n, _ in full.mingtang] == ["乌胡", "对对胡", "小字胡"] and full.fan == 23
    plain = analyze(get_rule_set("qq+无名堂"), counts(SMALL_BLACK_SETS), [], card("九"),
                    source="other")
    assert (plain.mingtang, plain.fan, plain.di, plain.loser_points) == ((), 1, full.di, -6)


def test_wu_mingtang_at_hunan_every_multiplier_is_1() -> None:
    """Worked example 2 of docs/rules/hunan.md (乌对 ×10) at hunan/4+无名堂: 5 囤 × 1."""
    melds = [g("peng", "伍伍伍"), g("peng", "一一一"), g("wei", "四四四")]
    hand = counts("捌捌捌玖玖玖八八八九九九")
    win = analyze(get_rule_set("hunan/4+无名堂"), hand, melds, source="self", base=1)
    assert (win.mingtang, win.fan, win.di, win.loser_points) == ((), 1, 5, -5)
    # one 名堂 off: the largest of the others counts (黑乌 ×5 over 对对胡 ×4)
    win = analyze(get_rule_set("hunan/4+无乌对"), hand, melds, source="self", base=1)
    assert (win.mingtang, win.loser_points) == ((("黑乌", 5),), -25)


def test_one_mingtang_off_leaves_the_others() -> None:
    win = analyze(get_rule_set("qq+无小字胡"), counts(SMALL_BLACK_SETS), [], card("九"),
                  source="other")
    assert [n for n, _ in win.mingtang] == ["乌胡", "对对胡"] and win.fan == 10


def test_the_four14_worked_example_of_its_house_rules() -> None:
    """docs/rules/four14.md, House rules: 10 胡息, x = 2, 红胡 2 + 小字胡 10, d = 3."""
    hand = counts(TEN_HAND_FOUR14)

    def loss(key: str) -> tuple[int, int | None] | None:
        win = analyze(get_rule_set(key), hand, TEN_MELDS, card("十"), source="other")
        return None if win is None else (win.loser_points, win.uncapped_loser_points)

    assert loss("four14") == loss("four14+起胡10") == (-72, None)
    assert loss("four14+起胡11") is None
    assert loss("four14+起胡10+封顶5") == (-5, -72)
    assert loss("four14+无名堂") == (-6, None)


def test_wu_haidi_drops_the_haidi_bonus() -> None:
    hand = counts("一二三壹贰叁贰柒拾六七八肆伍陆九九九五五")
    with_haidi = analyze(get_rule_set("qq"), hand, [], card("五"), source="other", haidi=True)
    without = analyze(get_rule_set("qq+无海底"), hand, [], card("五"), source="other",
                      haidi=True)
    assert (with_haidi.fan, without.fan) == (2, 1)
    assert without.haidi  # still a 海底 win, worth nothing more
    plain = analyze(get_rule_set("qq+无名堂"), hand, [], card("五"), source="other", haidi=True)
    assert plain.fan == 1  # 无名堂: every win 番 1, 海底 included


# ----- 自摸 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("word", "di", "loss"), [
    ("", 5, -50),  # the rule set's own: 自摸 +1 囤 (4 + 1) × 10
    ("+自摸翻倍", 4, -80),  # 4 囤 × 10, doubled
    ("+自摸不加", 4, -40),
])
def test_what_zimo_adds(word: str, di: int, loss: int) -> None:
    melds = [g("peng", "伍伍伍"), g("peng", "一一一"), g("wei", "四四四")]
    win = analyze(get_rule_set(f"hunan/4{word}"), counts("捌捌捌玖玖玖八八八九九九"), melds,
                  source="self", base=1)
    assert (win.di, win.loser_points, win.winner_points) == (di, loss, -2 * loss)


def test_zimo_rules_leave_a_win_on_another_seats_card_alone() -> None:
    for key in ("qq", "qq+自摸翻倍", "qq+自摸不加"):
        win = analyze(get_rule_set(key), counts(SMALL_BLACK_SETS), [], card("九"),
                      source="other")
        assert win.loser_points == -138


# ----- 封顶 ---------------------------------------------------------------------------------


def test_the_cap_limits_what_each_loser_pays_and_keeps_the_uncapped_figure() -> None:
    win = analyze(get_rule_set("qq+封顶20"), counts(SMALL_BLACK_SETS), [], card("九"),
                  source="other")
    assert (win.loser_points, win.winner_points, win.uncapped_loser_points) == (-20, 40, -138)
    assert win.capped
    under = analyze(get_rule_set("qq+封顶200"), counts(SMALL_BLACK_SETS), [], card("九"),
                    source="other")
    assert (under.loser_points, under.uncapped_loser_points, under.capped) == (-138, None, False)


def capped_hunan4_hand() -> Hand:
    """A finished hunan/4+封顶5 hand whose win was capped (dealer 0, 醒家 2, seat 1 wins)."""
    h = play_random(Hand.new(get_rule_set("hunan/4+封顶5"), seed=86, dealer=0),
                    random.Random(86))
    assert h.outcome.winner == 1 and h.outcome.win.capped
    return h


def test_a_capped_hand_with_the_xing_and_birds() -> None:
    """Each loser pays the winner 封顶 5 (not 28) and the 醒家 his 醒筹 1; the birds repeat the
    capped payments, so the table with the birds stays zero-sum."""
    h = capped_hunan4_hand()
    o = h.outcome
    assert (o.xing, o.win.loser_points, o.win.uncapped_loser_points) == (2, -5, -28)
    assert o.points == (-6, 10, 2, -6)
    assert o.capped == (3, 0)  # the seats that paid the winner, in play order
    assert o.uncapped_points == (-29, 56, 2, -29)
    points = hand_points(h.rules, o, h.dealer, birds=3)
    assert [p.capped for p in points] == [True, False, False, True]
    assert [(p.xing, p.play) for p in points][0] == (-1, -5)
    bird, seats = settle_birds(h.rules, o, h.dealer, 3)
    assert sum(p.total for p in points) + 3 * bird == 0
    assert seats == tuple(p.birds for p in points)
    follows = {1: 10, 2: 2, 0: -6, 3: -6}  # a bird shares its seat's capped result
    assert bird == follows[bird_seat(h.rules, h.dealer, o.bird_card)]


def test_the_cap_leaves_escape_and_huangxing_alone() -> None:
    """封顶 caps a win's payment; a 逃跑 penalty (well over 5 here) and the 荒醒 are as ever."""
    rules, plain = get_rule_set("hunan/4+封顶5"), get_rule_set("hunan/4")
    capped, uncapped = (Hand.new(r, seed=3, dealer=0, base=10) for r in (rules, plain))
    capped.escape(1)
    uncapped.escape(1)
    assert capped.outcome.points == uncapped.outcome.points
    assert capped.outcome.points[1] < -5 and capped.outcome.uncapped_points is None
    drawn = Hand.new(rules, seed=21, dealer=3, base=2)
    advance_until(drawn, lambda h: False)
    assert drawn.outcome.kind == OutcomeKind.DRAW and drawn.outcome.points == (0, 2, 0, -2)


# ----- who deals ----------------------------------------------------------------------------


def _won_by(winner: int, players: int) -> Outcome:
    return Outcome(OutcomeKind.WIN, (0,) * players, winner=winner)


@pytest.mark.parametrize("key", ["qq", "hunan/4", "hunan/3", "four14"])
def test_lianzhuang_a_winning_dealer_deals_again_unless_bu_lianzhuang(key: str) -> None:
    rules = get_rule_set(key)
    off = get_rule_set(f"{key}+不连庄")
    assert rules.dealer_stays and not off.dealer_stays
    assert next_dealer(rules, 1, _won_by(1, rules.players), 0) == (1, 0)
    assert next_dealer(off, 1, _won_by(1, rules.players), 0) == (2 % rules.players, 0)
    assert next_dealer(off, 1, _won_by(0, rules.players), 0) == (0, 0)  # another winner deals
    draw = Outcome(OutcomeKind.DRAW, (0,) * rules.players)
    assert next_dealer(off, 1, draw, 0) == next_dealer(rules, 1, draw, 0)


def test_first_dealer_is_random_unless_the_opener_deals() -> None:
    for key in BASE_KEYS:
        assert get_rule_set(key).first_dealer == "random"
        opener = get_rule_set(f"{key}+开桌人庄")
        assert opener.first_dealer == "opener" and opener.house_label == "开桌人庄"


# ----- records, the analyze CLI and the 复盘 -------------------------------------------------


def test_the_analyze_cli_takes_a_key_with_house_words_and_refuses_one_it_cannot_read() -> None:
    line = {"hand": "四四四二七一二三肆伍陆伍陆柒六七八", "melds": [["peng", "三三三"]],
            "card": "十", "source": "other"}
    out = io.StringIO()
    status = analyze_lines([json.dumps({**line, "rules": "hunan/3+起胡10"}),
                            json.dumps({**line, "rules": "hunan/3"}),
                            json.dumps({**line, "rules": "hunan/3+起胡10+加倍"}),
                            json.dumps({**line, "rules": "hunan/3+起胡3"})], out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 2
    assert answers[0]["hu"] and answers[0]["huxi"] == 10
    assert answers[1] == {"hu": False}
    assert set(answers[2]) == {"error"} and "加倍" in answers[2]["error"]
    assert set(answers[3]) == {"error"} and "6–21" in answers[3]["error"]


def test_a_capped_hands_record_verifies_and_says_it_was_capped() -> None:
    doc = export_hand(capped_hunan4_hand())
    assert doc["rules"] == "hunan/4+封顶5"
    assert doc["result"]["capped"] == [3, 0]
    assert doc["result"]["uncapped_points"] == [-29, 56, 2, -29]
    verdict = verify(json.loads(json.dumps(doc, ensure_ascii=False)))
    assert verdict.ok, verdict.problems
    doc["rules"] = "hunan/4"  # the same moves without the cap: the result no longer matches
    assert not verify(doc).ok
    with pytest.raises(ValueError, match="加倍"):  # a key it cannot fully read: no verdict
        verify({**doc, "rules": "hunan/4+封顶5+加倍"})


def test_the_review_reads_the_hands_house_rules(tmp_path) -> None:
    doc = export_hand(capped_hunan4_hand())
    assert review_hand(doc).rules == "hunan/4+封顶5"
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine", "review", str(path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rules"] == "hunan/4+封顶5"
    doc["rules"] = "hunan/4+封顶5+加倍"  # a key it cannot fully read: an error, no review
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine", "review", str(path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode != 0 and "加倍" in json.loads(done.stdout)["error"]


# ----- properties over random hands with random house rules ----------------------------------

SHAPES = st.sampled_from(BASE_KEYS).flatmap(
    lambda k: st.tuples(st.just(k), house_words(k, cap_high=30)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SHAPES, st.integers(0, 2**64 - 1), st.integers(0, 3))
def test_random_hands_with_random_house_rules(shape, seed: int, dealer: int) -> None:
    """Zero sum (the 醒家 and birds counted in), the same hand again from its record, and
    its export verifies; a capped win says what it would have cost."""
    key, words = shape
    rules = with_house_rules(get_rule_set(key), words)
    dealer %= rules.players
    h = play_random(Hand.new(rules, seed=seed, dealer=dealer), random.Random(seed))
    o = h.outcome
    assert sum(o.points) == 0
    if o.uncapped_points is not None:
        assert sum(o.uncapped_points) == 0 and o.capped
        assert all(o.points[i] > o.uncapped_points[i] for i in o.capped)
        assert -o.win.loser_points == rules.cap
    if o.win is not None:
        assert o.win.huxi >= rules.min_huxi or o.win.tianhu
    if rules.birds and o.bird_card is not None:
        bird, _ = settle_birds(rules, o, dealer, 2)
        assert sum(p.total for p in hand_points(rules, o, dealer, 2)) + 2 * bird == 0
    again = Hand.from_dict(h.to_dict())
    assert again.rules is rules and again.outcome == o and again.history == h.history
    doc = export_hand(h)
    assert doc["rules"] == rules.key
    assert verify(json.loads(json.dumps(doc, ensure_ascii=False))).ok
