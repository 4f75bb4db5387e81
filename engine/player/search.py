"""A searching player: each candidate move played out in imagined worlds, the best on average.

Perfect-information Monte Carlo, as card programs for Skat and bridge play: the hidden cards
are dealt out in worlds the seat's view allows (:mod:`engine.player.worlds`, weighted by what
the others' 吃/碰/过 and discards say), every candidate is played in each world to the end
of the hand (:mod:`engine.player.rollout`) and scored by the seat's points there, and a
candidate replaces the strong level's choice only when its weighted mean gain over it is
surely above 0 (:func:`sure_gain`). Every candidate meets the same worlds, so the luck of the
stock cancels between them.

Only the strong level's best few candidates are searched (its judgement prunes the rest), and
exact ties go to the strong level's order. A rollout early in a hand costs some 20 ms of one
core in pure Python (the evaluation's search of each holding dominates), so master's budget
buys about ten worlds for two candidates on average, fewer early in the hand; it overruled the
strong level in 9 of 253 decisions (those with a choice) of ten qq hands. The worlds are seeded
from the view and the record alone (:func:`engine.player.worlds.seed_of`), so a decision is a
function of its inputs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.player.eval import READING_COST
from engine.player.play import Choice, Style, judge_counted, ranked
from engine.player.rollout import MOVE_COST, Rollout
from engine.player.worlds import sample, seed_of
from engine.rules import get_rule_set
from engine.views import Event, PrivateView


@dataclass(frozen=True)
class Budget:
    """How much one decision searches. The strong level's best ``candidates`` moves are
    played out world after world; after ``first`` worlds, those clearly worse than its
    choice (by ``drop`` standard errors) are dropped. The search stops before a world would
    take the decision's work past ``work`` (judged by the last world), after ``worlds``
    worlds, or when only the strong choice is left. Work is the judgement's and the
    rollouts' cost in rough microseconds of one core, counted without a clock
    (``READING_COST`` per reading of the judgement, :attr:`~engine.player.rollout.Rollout.work`
    for the rollouts), so the same inputs always search alike. A candidate replaces the
    strong choice only when it was played in ``first`` worlds at least and gains by ``z``
    standard errors."""

    work: int = 190_000
    candidates: int = 2
    first: int = 4
    worlds: int = 64
    drop: float = 1.0
    z: float = 2.0


@dataclass(frozen=True)
class Searched:
    """A candidate's outcome over the worlds, next to the strong level's choice (the first
    candidate) in the same worlds: weighted means of the seat's points and of the gain."""

    action: str
    points: float
    gain: float  # mean points more than the strong choice in the same worlds
    error: float  # the gain's standard error
    worlds: int


def search(view: PrivateView, public_events: Sequence[Event], style: Style,
           budget: Budget) -> tuple[list[Choice], list[Searched]]:
    """The style's judged candidates, and the search's verdict on the best ``candidates`` of
    them in strong order (empty when there is nothing to choose or no time to search)."""
    judged, readings = judge_counted(view, public_events, style)
    if len(judged) == 1:
        return judged, []
    order = ranked(judged)[: budget.candidates]
    return judged, play_out(view, public_events, [c.action for c in order], style,
                            budget, spent=READING_COST * readings)


def play_out(view: PrivateView, public_events: Sequence[Event], actions: list[str],
             style: Style, budget: Budget, spent: int = 0) -> list[Searched]:
    """Each of ``actions`` (legal now) played out in the same imagined worlds by the rollout's
    players of the style's weights for the rule set, next to the first: the verdicts in that
    order, empty when no world was played within the budget (``spent`` of its work already
    gone)."""
    rules = get_rule_set(view.public.rule_set)
    rollout = Rollout(rules, style.weights_for(rules))
    worlds = sample(view, public_events, random.Random(seed_of(view, public_events)))
    active = list(range(len(actions)))
    weights_of: list[float] = []
    points: list[dict[int, int]] = []  # per world: candidate -> the seat's points
    # work a rollout takes: guessed from the cards left to draw until a world has been played
    per_rollout = float(MOVE_COST * (view.public.stock_count + 10))
    for _ in range(budget.worlds):
        if len(active) == 1 or spent + rollout.work + per_rollout * len(active) > budget.work:
            break
        world = next(worlds)
        start = world.hand()
        if not set(actions) <= set(start.legal_actions(view.seat)):
            continue  # a world the search cannot play the view's moves in
        before = rollout.work
        row = {}
        for i in active:
            hand = start if i == active[-1] else world.hand()
            hand.apply(view.seat, actions[i])
            row[i] = rollout.play(hand, view.seat)
        per_rollout = (rollout.work - before) / len(active)
        weights_of.append(world.weight)
        points.append(row)
        if len(points) >= budget.first:
            active = [i for i in active
                      if i == 0 or _alive(i, weights_of, points, budget.drop)]
    if not points:
        return []
    return [_verdict(a, i, weights_of, points) for i, a in enumerate(actions)]


def _gain(i: int, weights: list[float], points: list[dict[int, int]]) -> tuple[float, float]:
    """Candidate ``i``'s weighted mean gain over candidate 0 in the worlds it was played in,
    and its standard error."""
    pairs = [(w, p[i] - p[0]) for w, p in zip(weights, points, strict=True) if i in p]
    total = sum(w for w, _ in pairs)
    gain = sum(w * g for w, g in pairs) / total
    var = sum(w * (g - gain) ** 2 for w, g in pairs) / total
    n = total * total / sum(w * w for w, _ in pairs)  # effective worlds (Kish)
    return gain, (var / max(1.0, n - 1)) ** 0.5


def _alive(i: int, weights: list[float], points: list[dict[int, int]], drop: float) -> bool:
    """Candidate ``i`` is still searched: its gain over candidate 0 is not below 0 by more
    than ``drop`` standard errors."""
    gain, error = _gain(i, weights, points)
    return gain + drop * error > 0


def _verdict(action: str, i: int, weights: list[float],
             points: list[dict[int, int]]) -> Searched:
    played = [(w, p[i]) for w, p in zip(weights, points, strict=True) if i in p]
    mean = sum(w * x for w, x in played) / sum(w for w, _ in played)
    gain, error = _gain(i, weights, points)
    return Searched(action, mean, gain, error, len(played))


def sure_gain(s: Searched, budget: Budget) -> float | None:
    """What ``s`` surely gains over the strong choice: its gain less ``z`` standard errors;
    None when it was played in fewer than ``first`` worlds (a few worlds can agree by chance,
    and then their spread is 0)."""
    return s.gain - budget.z * s.error if s.worlds >= budget.first else None


def pick(judged: list[Choice], searched: list[Searched], budget: Budget) -> str:
    """The searched candidate that surely gains most over the strong choice
    (:func:`sure_gain` above 0), or the strong choice."""
    if not searched:
        return ranked(judged)[0].action
    best, most = searched[0].action, 0.0
    for s in searched[1:]:
        gain = sure_gain(s, budget)
        if gain is not None and gain > most:
            best, most = s.action, gain
    return best
