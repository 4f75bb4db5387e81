"""The rules of a 复式挑战 without the bot (bot.table.challenges): /challenge's words (the
defaults qq, 1局 and 24 hours; hands and deadline within their bounds) and the standings
(points, then fewer decisions off the strong player's choice; equal in both share a place)."""

from __future__ import annotations

import pytest
from support.challenge import scored_runs

from bot.store.challenges import ChallengePlayerRow
from bot.table import Refusal
from bot.table.challenges import (
    DEFAULT_DEADLINE,
    Run,
    parse_deadline,
    split_args,
    standings,
)
from bot.telegram.lobby import rules_from_args
from engine.rules import get_rule_set


def test_the_defaults_are_qq_one_hand_and_a_day() -> None:
    assert split_args([]) == ([], 1, 24 * 3600) and DEFAULT_DEADLINE == 24 * 3600
    assert rules_from_args([]).key == get_rule_set("qq").key


def test_words_in_any_order_and_the_units_of_a_deadline() -> None:
    assert split_args(["hunan", "3", "4局", "2h"]) == (["hunan", "3"], 4, 2 * 3600)
    assert split_args(["2h", "hunan"]) == (["hunan"], 1, 2 * 3600)
    assert [parse_deadline(w) for w in ("2h", "2H", "30m", "45min", "90分钟", "2小时", "1d",
                                        "3天")] == \
        [7200, 7200, 1800, 2700, 5400, 7200, 86400, 3 * 86400]
    assert [parse_deadline(w) for w in ("2", "h", "2x", "1.5h", "-2h", "2hh")] == [None] * 6


@pytest.mark.parametrize("word, hands, deadline", [("1局", 1, None), ("8局", 8, None),
                                                   ("10m", None, 600), ("7d", None, 7 * 86400),
                                                   ("168h", None, 7 * 86400)])
def test_the_bounds_are_taken(word: str, hands: int | None, deadline: int | None) -> None:
    _, got_hands, got_deadline = split_args([word])
    assert (got_hands, got_deadline) == (hands or 1, deadline or DEFAULT_DEADLINE)


@pytest.mark.parametrize("word", ["0局", "9局", "9m", "8d", "169h", "0h"])
def test_past_the_bounds_is_the_usage(word: str) -> None:
    with pytest.raises(Refusal, match="challenge_usage"):
        split_args(["qq", word])


def _order(players: list[ChallengePlayerRow], runs: dict[int, Run]) -> list[str]:
    return [s.player.name for s in standings(players, runs)]


def test_equal_points_go_to_fewer_decisions_off_the_strong_choice() -> None:
    players, runs = scored_runs((5, 3), (5, 1), (5, 2))
    assert _order(players, runs) == ["P1", "P2", "P0"]
    assert [(s.points, s.offs) for s in standings(players, runs)] == [(5, 1), (5, 2), (5, 3)]


def test_points_come_before_decisions_and_a_full_tie_shares_a_place() -> None:
    players, runs = scored_runs((-4, 0), (6, 9), (6, 2), (6, 2))
    table = standings(players, runs)
    assert _order(players, runs) == ["P2", "P3", "P1", "P0"]  # the tied: in joining order
    assert [(s.place, s.tied) for s in table] == [(1, True), (1, True), (3, False), (4, False)]



def test_one_who_never_played_is_not_standing() -> None:
    players, runs = scored_runs((1, 0), (2, 0))
    del runs[players[0].user_id]
    assert _order(players, runs) == ["P1"]
