"""The computer player's levels: one object each, with its name, how it chooses and its cost.

Every level judges each legal move by the holding it leaves (:mod:`engine.player.play`, with
the weights of :mod:`engine.player.eval`); they differ in their :class:`~engine.player.play.Style`
and, for a searching level, in a :class:`~engine.player.search.Budget` of imagined deals its
best moves are played out in. How they were tuned and what they measure against each other
by duplicate deals (``bench/bench_duel.py``): docs/player.md.

Honest levels: a table is offered a level (:data:`OFFERED`) only while the bench shows it
stronger than the one below it. 大师 (``master``) measures no stronger than 强 at 20–30 times
its time, so it is not offered; a table stored with it plays 强's choices (:func:`for_table`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.player.eval import Weights
from engine.player.play import Style, best, judge
from engine.player.search import Budget, pick, search, sure_gain
from engine.views import Event, PrivateView

_BLIND_TO_HUXI = Weights(per_wait=0.0, pair=0.0, huxi=0.0, deficit=0.0, ready=0.0,
                         per_win_card=0.0, peng_danger=0.0, chi_danger=0.0, tempo=0.0)
# A partial or pair counts once, whatever its waits: counting each live copy (medium) made a
# pair worth more than a complete 门子. The figures behind each knob: docs/player.md.
PARTIALS_COUNT_ONCE = Weights(partial=4.0, per_wait=0.0, pair=1.0, deficit=0.0, ready=0.0,
                              per_win_card=0.0, chou_live=1.0, peng_danger=0.0,
                              chi_danger=0.0, tempo=0.0)
# At 湖南 the strong level also pays for 胡息 short of the table's 起胡 (``rules.min_huxi``) and
# values being 听 (a hand that wins on some live card); at qq and four14 neither gained.
_HUNAN_READY = replace(PARTIALS_COUNT_ONCE, deficit=6.0, ready=4.0)


@dataclass(frozen=True)
class Level:
    """One computer level. ``style`` is how it judges every legal move; a level with a
    ``budget`` also plays its style's best moves out in imagined deals and takes another only
    when it surely gains (:mod:`engine.player.search`). ``cost_ms``: a decision's CPU time at
    qq, median and p99 in milliseconds (``bench/bench_duel.py``, docs/player.md).

    Every level reads only the seat's :class:`~engine.views.PrivateView` and the public events
    (those with ``visible_to is None``) and is a deterministic function of them (and of
    ``rng``, which breaks a judging level's exact ties)."""

    name: str
    style: Style
    cost_ms: tuple[float, float]
    budget: Budget | None = None

    def choose(self, view: PrivateView, public_events: Sequence[Event],
               rng: random.Random | None = None) -> str:
        """The level's action: one of ``view.legal``, an argmax of :meth:`evaluate`. ``rng``
        breaks exact ties (else the first in legal order); a searching level has none."""
        if self.budget is not None:
            return pick(*search(view, public_events, self.style, self.budget), self.budget)
        top = best(view, public_events, self.style)
        if rng is None or len(top) == 1:
            return top[0].action
        return rng.choice(top).action

    def evaluate(self, view: PrivateView, public_events: Sequence[Event]) -> dict[str, float]:
        """Every legal action's value to this level, higher is better: comparable across the
        actions of one decision (not across decisions).

        Where a win is on offer the values are points (the win's against waiting for a bigger
        one); elsewhere they are the evaluation's units, in which a complete 门子 is worth 10
        (:class:`~engine.player.eval.Weights`). A searching level's values are the points a
        searched move gains over its style's choice, less its ``z`` standard errors (that
        choice 0), and a point below the least of those and 0 for a move not searched or
        played in fewer than the budget's ``first`` worlds."""
        if self.budget is not None:
            return _searched_values(view, public_events, self.style, self.budget)
        return {c.action: c.value for c in judge(view, public_events, self.style)}


def _searched_values(view: PrivateView, public_events: Sequence[Event], style: Style,
                     budget: Budget) -> dict[str, float]:
    judged, searched = search(view, public_events, style, budget)
    if not searched:
        chosen = pick(judged, searched, budget)
        return {c.action: 0.0 if c.action == chosen else -1.0 for c in judged}
    sure = {s.action: sure_gain(s, budget) for s in searched[1:]}
    floor = min([0.0, *(g for g in sure.values() if g is not None)]) - 1.0
    values = {a: floor if g is None else g for a, g in sure.items()}
    values[searched[0].action] = 0.0
    return {c.action: values.get(c.action, floor) for c in judged}


# 弱: judges the hand only by its 门子 and partials, blind to 胡息.
WEAK = Level("weak", Style(weights=_BLIND_TO_HUXI), cost_ms=(1.2, 23))
# 中: the first hand-tuned player (Weights' defaults), the bench's fixed baseline.
MEDIUM = Level("medium", Style(), cost_ms=(1.1, 21))
# 强: a partial or pair counted once, three best discards looked ahead one card, a move that
# leaves the hand 听 raised by what the next face-up card is expected to win it; at 湖南
# weights of its own.
STRONG = Level("strong", Style(weights=PARTIALS_COUNT_ONCE, lookahead=3, win_weight=1.0,
                               rule_weights=(("hunan", _HUNAN_READY),)),
               cost_ms=(1.8, 48))
# 大师: strong's best two moves played out in imagined deals; no gain on strong measured.
MASTER = Level("master", STRONG.style, cost_ms=(65, 161), budget=Budget())

LEVELS: dict[str, Level] = {level.name: level for level in (WEAK, MEDIUM, STRONG, MASTER)}
# The levels a table may choose, weakest first: each measured stronger than the one before it
# by duplicate deals (docs/player.md). master is not: it measures no gain on strong.
OFFERED: tuple[str, ...] = ("weak", "medium", "strong")


def for_table(name: str) -> str:
    """The level a table stored with level ``name`` plays at: ``name`` while it is offered,
    else the strongest offered level (a table stored with 大师 plays 强's choices)."""
    if name in OFFERED:
        return name
    if name in LEVELS:
        return OFFERED[-1]
    raise ValueError(f"unknown level {name!r}; known: {', '.join(LEVELS)}")
