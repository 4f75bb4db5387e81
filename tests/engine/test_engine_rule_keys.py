"""A table's rules travel as one key string (stored with each hand, in records and views)."""

import pickle
from dataclasses import replace

import pytest

from engine.rules import QQ, get_rule_set, table_rules


def test_qq_key_is_its_id_and_round_trips() -> None:
    assert QQ.key == "qq"
    assert get_rule_set("qq") == QQ


def test_table_rules_defaults_to_the_first_seat_choice() -> None:
    assert table_rules("qq") == QQ
    assert table_rules("qq", 3) == QQ


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: table_rules("qq", 4), "3 seats, not 4"),
        (lambda: table_rules("mahjong"), "unknown rule set 'mahjong'"),
        (lambda: table_rules("qq", 3, "min21"), "two-seat tables only"),
        (lambda: get_rule_set("qq/x"), "bad rules key"),
        (lambda: get_rule_set("qq/3"), "bad rules key"),
    ],
)
def test_shapes_not_offered_are_refused_readably(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_no_xing_seat_without_a_sitting_out_shape() -> None:
    assert QQ.xing_seat(0) is None


def test_a_rule_set_pickles_as_its_key_and_a_changed_one_does_not():
    """Its 名堂 hold functions: it crosses to another process (the bot's painter) by its key,
    and comes back as the very rule set the key names; rules the key does not name refuse."""
    for key in ("qq", "hunan/2", "hunan/4", "four14", "hunan/2/setaside"):
        rules = get_rule_set(key)
        assert pickle.loads(pickle.dumps(rules)) is rules
    with pytest.raises(pickle.PicklingError):
        pickle.dumps(replace(get_rule_set("qq"), min_huxi=9))
