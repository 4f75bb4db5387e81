"""The skill rating (技术评级): OpenSkill's Plackett–Luce model over whole matches, with the
computer levels as fixed anchors (docs/club_scores.md says what it is and is not).

A rated match is what a table's 总结算 ranks: a match of 4, 8 or 16 hands, or one hand at a
table that plays single hands (a hand outside a match is a match of its own, as for /stats'
大赢家). Its seats are ranked by the points they won over its counted hands (those neither
voided nor ended by a 解散), equal points sharing a rank. Every player keeps a rating (mu, sigma)
per rule set (qq, 湖南, four14: a rule set's seat counts share one), starting at the model's
(25, 25/3); each match moves the humans' ratings. A computer seat plays at its table's level
and takes part with that level's fixed rating (:data:`ANCHORS`), which no match moves: it is
what ties the scale down, so that beating the strong computer means the same every season.

What is shown (:func:`shown`) is the ordinal ``mu - 3 sigma`` scaled by :data:`SCALE` — low
while few matches are known, since sigma is high then — and never below 0. Pure functions here;
:mod:`bot.table.rater` folds the stored matches in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300
SCALE = 40  # shown rating per unit of mu - 3 sigma: a new player 0, the strong anchor ~1,000
# The anchors' sigma: what a regular player's settles at (about 1.5 after a few hundred
# matches: the model's tau keeps it from shrinking further), so that the shown figures of a
# computer level and of a player who plays like it compare.
ANCHOR_SIGMA = 1.5
# The computer levels' fixed mu per rule set, fitted by bench/bench_rating_anchors.py (the three
# levels rated freely against one another over 600 simulated hands; docs/club_scores.md gives
# the runs). four14's run put weak above medium, within its noise: it takes qq's until a
# longer one tells them apart. master plays as strong (docs/player.md: no gain measured of its
# search): it anchors there.
ANCHORS: dict[str, dict[str, float]] = {
    "qq": {"weak": 23.2, "medium": 24.6, "strong": 26.0},
    "hunan": {"weak": 22.6, "medium": 24.5, "strong": 26.8},
    "four14": {"weak": 23.2, "medium": 24.6, "strong": 26.0},
}
SAME_AS = {"master": "strong"}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    matches: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


NEW = Rating(MODEL.mu, MODEL.sigma)


def shown(mu: float, sigma: float) -> int:
    """The visible rating: ``SCALE * (mu - 3 sigma)``, rounded, at least 0."""
    return max(0, round(SCALE * (mu - 3 * sigma)))


def anchor(rule_set: str, level: str) -> Rating:
    """A computer level's fixed rating in a rule set (one unknown: the strong one's)."""
    levels = ANCHORS.get(rule_set, ANCHORS["qq"])
    return Rating(levels.get(SAME_AS.get(level, level), levels["strong"]), ANCHOR_SIGMA)


@dataclass(frozen=True)
class Seat:
    """One participant of a match: a human's user id (a computer's is negative) with the
    level of the table's computers, and the points he won over the match's counted hands."""

    user_id: int
    points: int
    level: str = "strong"


def ranks(points: Sequence[int]) -> list[float]:
    """1 for the most points, equal points an equal rank (``[5, 9, 5]`` -> ``[2, 1, 2]``), as
    the numbers openskill's ``rate`` takes."""
    return [1 + sum(q > p for q in points) for p in points]


def fold(ratings: MutableMapping[int, Rating], rule_set: str, seats: Sequence[Seat]) -> None:
    """One match's update of the humans' ratings in ``ratings`` (a missing one is new)."""
    if len(seats) < 2:
        return
    before = [anchor(rule_set, s.level) if s.user_id < 0 else ratings.get(s.user_id, NEW)
              for s in seats]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = MODEL.rate(teams, ranks=ranks([s.points for s in seats]))
    for seat, old, [new] in zip(seats, before, after, strict=True):
        if seat.user_id > 0:
            ratings[seat.user_id] = Rating(new.mu, new.sigma, old.matches + 1)


def fold_all(rule_set: str, matches: Iterable[Sequence[Seat]],
             start: Mapping[int, Rating] | None = None) -> dict[int, Rating]:
    """The ratings after ``matches`` in order, from ``start`` (none: everyone new)."""
    ratings = dict(start or {})
    for seats in matches:
        fold(ratings, rule_set, seats)
    return ratings
