"""The skill rating's rules (bot/table/skill.py) and the boards' figures
(bot/commands/skill.py): places by points with ties shared, computers as fixed anchors, the
shown figure, and 技术分 from the 复盘's losses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.commands.skill import skill_asked, tech_score
from bot.table.skill import ANCHOR_SIGMA, NEW, Rating, Seat, anchor, fold, fold_all, ranks, shown


def test_places_by_points_share_ties() -> None:
    assert ranks([5, 9, 5]) == [2, 1, 2]
    assert ranks([0, 0, 0]) == [1, 1, 1]


def test_a_win_over_computers_moves_only_the_human() -> None:
    ratings: dict[int, Rating] = {}
    fold(ratings, "qq", [Seat(7, 30), Seat(-1, -10), Seat(-2, -20)])
    assert set(ratings) == {7} and ratings[7].mu > NEW.mu and ratings[7].sigma < NEW.sigma
    assert ratings[7].matches == 1
    assert anchor("qq", "strong") == Rating(anchor("qq", "strong").mu, ANCHOR_SIGMA)


def test_beating_a_stronger_level_gains_more() -> None:
    def after(level: str) -> float:
        ratings: dict[int, Rating] = {}
        fold(ratings, "qq", [Seat(7, 10, level), Seat(-1, -5, level), Seat(-2, -5, level)])
        return ratings[7].mu
    assert after("weak") < after("medium") < after("strong")


def test_the_shown_figure_is_the_scaled_ordinal_never_below_zero() -> None:
    assert shown(NEW.mu, NEW.sigma) == 0
    assert shown(26.0, 1.5) == round(40 * (26.0 - 4.5))
    assert shown(5.0, 3.0) == 0


@given(st.lists(st.lists(st.integers(-50, 50), min_size=3, max_size=3), max_size=12))
def test_a_fold_is_its_matches_in_order(points: list[list[int]]) -> None:
    matches = [[Seat(1, p[0]), Seat(2, p[1]), Seat(-1, p[2])] for p in points]
    whole = fold_all("qq", matches)
    half = fold_all("qq", matches[len(matches) // 2:], fold_all("qq", matches[:len(matches) // 2]))
    assert whole == half
    assert all(r.matches == len(matches) for r in whole.values())


def test_tech_score_is_the_reviews_rating() -> None:
    assert tech_score(0, 0.0) is None
    assert tech_score(40, 0.0) == 100
    assert tech_score(40, 20.0) == 50  # half a point a decision
    assert skill_asked(["hunan", "技术"]) == (True, ["hunan"])
    assert skill_asked(["Skill"]) == (True, [])
    assert skill_asked(["qq"]) == (False, ["qq"])
