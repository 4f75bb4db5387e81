"""House rules as words of the rules key (docs/rules/qq.md, House rules): parsing, validation,
the canonical key and the options a table offers."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.housekit import BASE_KEYS, house_words

from engine.rules import (
    HouseOption,
    HouseRuleError,
    get_rule_set,
    house_options,
    with_house_choice,
    with_house_rules,
)


def test_todays_keys_are_unchanged_and_carry_no_house_words() -> None:
    for key in BASE_KEYS:
        rules = get_rule_set(key)
        assert rules.key == rules.base_key == key
        assert rules.house == ()
        assert rules.house_label == ""
        assert (rules.cap, rules.first_dealer, rules.dealer_stays) == (0, "random", True)


def test_the_issues_example_key_reads_and_says_itself_back() -> None:
    rules = get_rule_set("hunan/3+起胡10+封顶100+无名堂")
    assert (rules.min_huxi, rules.cap, rules.mingtang) == (10, 100, ())
    assert rules.house == ("起胡10", "封顶100", "无名堂")
    assert rules.base_key == "hunan/3"
    assert rules.key == "hunan/3+起胡10+封顶100+无名堂"
    assert rules.house_label == "起胡10 · 封顶100 · 无名堂"


def test_words_in_any_order_give_the_same_rules_object() -> None:
    """One object per rules: the analyzer keeps its cache per rules object."""
    a = with_house_rules(get_rule_set("hunan/3"), ["无名堂", "封顶100", "起胡10"])
    b = get_rule_set("hunan/3+起胡10+封顶100+无名堂")
    assert a is b
    assert pickle.loads(pickle.dumps(a)) is a


def test_a_default_word_is_accepted_and_dropped() -> None:
    qq = get_rule_set("qq")
    assert with_house_rules(qq, ["起胡15", "不封顶", "有名堂", "有海底", "自摸加底", "庄随机",
                                 "连庄"]) is qq
    assert get_rule_set("hunan/2/min21+起胡21") is get_rule_set("hunan/2/min21")
    assert get_rule_set("four14+起胡6") is get_rule_set("four14")


def test_with_house_rules_replaces_the_house_words_it_had() -> None:
    rules = get_rule_set("qq+封顶20+无名堂")
    assert with_house_rules(rules, ["起胡10"]).key == "qq+起胡10"
    assert with_house_rules(rules, []) is get_rule_set("qq")


@pytest.mark.parametrize(
    ("key", "word", "allowed_has"),
    [
        ("qq+起胡5", "起胡5", "起胡6–21"),
        ("qq+起胡22", "起胡22", "起胡6–21"),
        ("four14+起胡18", "起胡18", "起胡6–15"),
        ("qq+封顶4", "封顶4", "封顶5–1000"),
        ("qq+封顶1001", "封顶1001", "封顶5–1000"),
        ("qq+起胡010", "起胡010", "起胡6–21"),
        ("qq+加倍", "加倍", "无名堂"),
        ("hunan/4+无海底", "无海底", "无名堂"),  # no 海底 in the hunan rules
        ("hunan/4+无大字胡", "无大字胡", "无红对"),  # a qq 名堂, not hunan's
        ("qq+", "", "封顶5–1000"),
        ("qq+起胡10+起胡10", "起胡10", "起胡10"),
        ("qq+起胡10+起胡12", "起胡12", "起胡10"),
        ("qq+庄随机+开桌人庄", "开桌人庄", "庄随机"),
        ("qq+自摸翻倍+自摸不加", "自摸不加", "自摸翻倍"),
        ("qq+无名堂+无对对胡", "无对对胡", "无名堂"),
        ("qq+无对对胡+无名堂", "无对对胡", "无名堂"),
        ("qq+无名堂+无海底", "无海底", "无名堂"),
        ("qq+有海底+无名堂", "有海底", "无名堂"),
        ("qq+封顶100+不封顶", "不封顶", "封顶100"),
    ],
)
def test_bad_words_are_refused_with_the_word_and_what_is_allowed(
    key: str, word: str, allowed_has: str
) -> None:
    with pytest.raises(HouseRuleError) as caught:
        get_rule_set(key)
    assert caught.value.word == word
    assert allowed_has in caught.value.allowed
    assert isinstance(caught.value, ValueError)
    assert str(caught.value)


def test_a_bad_base_key_is_still_refused() -> None:
    for key in ("qq/3+起胡10", "mahjong+起胡10", "hunan/5+封顶100"):
        with pytest.raises(ValueError):
            get_rule_set(key)


def test_house_options_offer_each_option_with_its_default_and_the_word_in_force() -> None:
    options = {o.name: o for o in house_options(get_rule_set("qq+起胡10+自摸翻倍"))}
    assert list(options) == ["起胡", "封顶", "名堂", "海底", "自摸", "首局庄", "连庄"]
    assert options["起胡"] == HouseOption("起胡", ("起胡6", "起胡10", "起胡15", "起胡18",
                                                  "起胡21"), "起胡10")
    assert options["封顶"].current == "不封顶"
    assert options["自摸"] == HouseOption("自摸", ("自摸加底", "自摸翻倍", "自摸不加"), "自摸翻倍")
    hunan = {o.name: o for o in house_options(get_rule_set("hunan/2/min21"))}
    assert "海底" not in hunan  # the hunan rules have no 海底
    assert hunan["起胡"].current == "起胡21"
    assert hunan["自摸"].choices[0] == "自摸加囤"
    four14 = {o.name: o for o in house_options(get_rule_set("four14"))}
    assert four14["起胡"].choices == ("起胡6", "起胡9", "起胡12", "起胡15")


def test_every_offered_choice_is_a_word_the_key_takes() -> None:
    for key in BASE_KEYS:
        rules = get_rule_set(key)
        for option in house_options(rules):
            assert option.current in option.choices
            for word in option.choices:
                chosen = with_house_choice(rules, word)
                assert {o.name: o.current for o in house_options(chosen)}[option.name] == word
                assert get_rule_set(chosen.key) is chosen
                for other in house_options(chosen):  # every ⚙ button works after another
                    assert other.current in other.choices
                    for again in other.choices:
                        with_house_choice(chosen, again)


def test_a_button_changes_one_option_and_keeps_the_others() -> None:
    rules = get_rule_set("qq+起胡10+无对对胡+封顶20")
    assert with_house_choice(rules, "封顶50").key == "qq+起胡10+封顶50+无对对胡"
    assert with_house_choice(rules, "无名堂").key == "qq+起胡10+封顶20+无名堂"
    assert with_house_choice(get_rule_set("qq+无名堂"), "无乌胡").key == "qq+无乌胡"
    assert with_house_choice(rules, "起胡15").key == "qq+封顶20+无对对胡"
    no_haidi = get_rule_set("qq+无海底")
    assert with_house_choice(no_haidi, "无名堂").key == "qq+无名堂"
    assert with_house_choice(get_rule_set("qq+无名堂"), "无海底").key == "qq+无海底"
    assert "海底" not in {o.name for o in house_options(get_rule_set("qq+无名堂"))}


@given(st.sampled_from(BASE_KEYS).flatmap(lambda k: st.tuples(st.just(k), house_words(k),
                                                              st.randoms())))
def test_any_consistent_words_make_a_key_that_reads_back(case) -> None:
    key, words, rng = case
    rng.shuffle(words)
    rules = with_house_rules(get_rule_set(key), words)
    assert rules.base_key == key
    assert get_rule_set(rules.key) is rules
    assert pickle.loads(pickle.dumps(rules)) is rules
    assert rules.house_label == " · ".join(rules.house)
    assert all(word in words for word in rules.house)
