"""The words of /season, /stats, /void and /dispute, the club's day, and the fairness check
telling a record that replays to its settlement from one that does not."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

from bot.commands import club, fairplay
from bot.commands.club import SeasonQuery, StatsQuery
from bot.present import fairness
from bot.store import PlayedHand
from engine.rules import QQ
from engine.simulate import play_random
from engine.state import Hand


def test_season_words() -> None:
    assert club.season_query([], "qq") == SeasonQuery("qq")
    assert club.season_query(["2", "hunan"], "qq") == SeasonQuery("hunan", 2)
    assert club.season_query(["new"], "qq") == SeasonQuery("qq", new=True)
    assert club.season_query(["new", "春季", "赛"], "hunan") == SeasonQuery(
        "hunan", new=True, name="春季 赛")
    for wrong in (["x"], ["0"], ["1", "2"], ["new", "名" * (club.NAME_MAX + 1)],
                  ["99999999999"]):
        assert club.season_query(wrong, "qq") is None, wrong


def test_stats_words() -> None:
    assert club.stats_query([], "qq") == StatsQuery(club.TODAY, "qq")
    assert club.stats_query(["本周", "four14"], "qq") == StatsQuery(club.WEEK, "four14")
    assert club.stats_query(["season"], "hunan") == StatsQuery(club.SEASON, "hunan")
    assert club.stats_query(["month"], "qq") is None


def test_void_and_dispute_words() -> None:
    assert fairplay.void_query(["3", "串通", "作弊"]) == fairplay.VoidQuery(3, "串通 作弊")
    for wrong in ([], ["3"], ["x", "why"], ["0", "why"], ["3", "长" * 201]):
        assert fairplay.void_query(wrong) is None, wrong
    assert fairplay.hand_number(["12"]) == 12
    for wrong in ([], ["x"], ["1", "2"], ["0"]):
        assert fairplay.hand_number(wrong) is None


def test_the_clubs_day_is_chinas() -> None:
    # 17:30 UTC is 01:30 the next day in China: that day began at 16:00 UTC
    late = datetime(2026, 3, 1, 17, 30, tzinfo=UTC)
    assert club.day_start(late) == "2026-03-01 16:00:00"
    assert club.day_start(late, 6) == "2026-02-23 16:00:00"
    early = datetime(2026, 3, 1, 15, 59, tzinfo=UTC)  # still 2026-03-01 in China
    assert club.day_start(early) == "2026-02-28 16:00:00"


def _played(seed: int) -> PlayedHand:
    hand = play_random(Hand.new(QQ, seed=seed, dealer=0), random.Random(seed))
    outcome = hand.outcome
    assert outcome is not None
    return PlayedHand(1, 1, QQ.key, seed, 0, hand.base, outcome.winner, tuple(hand.log),
                      (1, 2, 3), ("A", "B", "C"), outcome.points, 1, 1)


def test_the_check_replays_the_record_to_its_settlement() -> None:
    played = next(p for p in map(_played, range(1, 50)) if any(p.points))
    found = fairness.check(played, [])
    assert found.legal and found.same and found.points == played.points
    assert found.seed_ok and fairness.fingerprint(played.seed) == found.sha[:8]
    text = fairplay.dispute_text(played, found, "B", "zh")
    assert str(played.seed) in text and found.sha in text and "✅" in text
    tampered = dataclasses.replace(played, points=tuple(reversed(played.points)))
    assert not fairness.check(tampered, []).same
    assert "❌" in fairplay.dispute_text(tampered, fairness.check(tampered, []), "B", "zh")
    cut = fairness.check(dataclasses.replace(played, log=played.log[:-1]), [])  # no end
    assert cut.legal and cut.points is None and not cut.same
    seat, action = played.log[0]
    wrong = fairness.check(dataclasses.replace(
        played, log=(((seat + 1) % 3, action), *played.log[1:])), [])  # the wrong seat moves
    assert not wrong.legal and not wrong.same
