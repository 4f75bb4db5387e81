"""The computer player's entry points, at four levels: weak, medium, strong and master.

Used by the bot for added computer players, 托管 and the 提示 hint, and by the 复盘 review::

    action = choose(view, public_events, rng)                 # the strong player
    action = choose(view, public_events, rng, level="weak")
    action, reason = explain(view, public_events, lang="zh")  # the strong player's choice
    values = evaluate(view, public_events)                    # {action: value} for the review

Every level reads only the seat's :class:`~engine.views.PrivateView` and the public events
(those with ``visible_to is None``) and is a deterministic function of them. The levels are
:class:`~engine.policy_play.Style` settings of one decision module (master searches on from
strong's), compared by duplicate deals in ``bench/bench_duel.py``:

- ``medium`` is the first hand-tuned player, the fixed baseline of the bench;
- ``weak`` judges the hand only by its 门子 and partials, blind to 胡息 (clearly weaker);
- ``strong`` counts a partial or pair once, whatever its waits, adds no bonus for being 听,
  for taking a card in or for a safe discard (``_PARTIALS_COUNT_ONCE``), raises its three
  best discards by what the next card is expected to add (a one-card look ahead), and raises
  a move that leaves the hand 听 by the points the next face-up card is expected to win it;
  at 湖南 it also counts the 胡息 a hand is short of the 起胡 and values being 听;
- ``master`` plays strong's best two moves out in imagined deals of the hidden cards
  (:mod:`engine.policy_search`) and takes the other only when it is surely better.

Measured by ``nice python bench/bench_duel.py --x X --y Y --deals N --rules R`` (seed
20261201, two worker processes on a shared two-core machine): X's points per hand per seat
minus Y's, 95 % interval, and X's decision CPU time (median, p99). First strong-1 (the strong
level before it weighed what a 听 hand wins) over medium:

=========  =======================  =====  ===========  ======
rule set   margin [95 % interval]   deals  median (ms)  p99
=========  =======================  =====  ===========  ======
qq         +7.84 [+5.99, +9.70]     1000   2.3          61
hunan/3    +1.33 [+0.85, +1.81]     400    3.1          83
hunan/4    +1.01 [+0.64, +1.38]     400    3.0          75
four14     +13.73 [+7.67, +19.80]   400    1.9          18
=========  =======================  =====  ===========  ======

hunan counts 囤 at 底分 1, so its points per hand are a few times smaller than qq's. Without
the look ahead the same weights give +4.26 [+2.51, +6.02] at qq (1000 deals). The
weights come from ablations of one term at a time against them (200 qq deals each, the
variant's margin over them): medium's count of live copies per partial −12.5, its danger
terms −6.3, its tempo bonus −2.1, a pair worth 2 instead of 1 −13.1 (0: −3.5), a partial worth
6 −9.8 (2: −1.8), 胡息 weighed 2.4 −9.4 (0.6: −2.2), intervals ±1 to ±4; no change of the
evaluation tried gained.

Then strong over strong-1, and master over strong:

=========  =======  =======================  =====  ===========  ======
rule set   X        margin [95 % interval]   deals  median (ms)  p99
=========  =======  =======================  =====  ===========  ======
qq         strong   +1.22 [+0.12, +2.31]     1000   1.8          48
hunan/3    strong   +0.23 [−0.01, +0.48]     400    3.0          63
hunan/3    strong   +0.27 [+0.08, +0.45]     1000   2.3          47
hunan/4    strong   +0.23 [−0.08, +0.54]     400    2.6          52
hunan/4    strong   +0.12 [−0.03, +0.27]     1000   2.7          55
four14     strong   +3.92 [+0.61, +7.24]     400    1.8          17
qq         master   −0.20 [−1.67, +1.27]     1000   65           161
hunan/3    master   +0.09 [−0.27, +0.45]     400    78           186
hunan/4    master   −0.24 [−0.50, +0.03]     400    70           186
four14     master   −0.85 [−5.50, +3.79]     400    61           162
=========  =======  =======================  =====  ===========  ======

At qq the first 600 of those deals had read +2.77 [+1.06, +4.49]; the 1000 say +1.22. At
hunan/4 two more runs of 1000 deals read +0.03 [−0.07, +0.14] and +0.08 [−0.03, +0.18] (seeds
20261202 and 20261203, 2.6 ms median, 52–54 ms p99); the 3000 together +0.08 [+0.01, +0.15].
At 湖南 strong plays weights of its own (``_HUNAN_READY``): 胡息 short of 15 cost 6 each and
being 听 is worth 4. They were found against strong's common weights at hunan/3, 400 deals each: the
shortfall costing 4, 6 or 8 gained +0.12 to +0.14, then being 听 worth 4 +0.19 [+0.02, +0.36];
being 听 worth 8, the win term weighed 2, 1 a live winning copy, 胡息 weighed 1.0 or a
shortfall of 10 changed nothing. At hunan/4 five discards looked ahead gave −0.11, a partial
worth 3.5 +0.20 [−0.06, +0.46] (but at hunan/3 −0.41 [−0.77, −0.05]). At two seats the
weights changed nothing: over strong-1, hunan/2/min21 +0.22 [−0.50, +0.93], hunan/2/setaside
−0.08 [−0.39, +0.22]. Elsewhere they lost: the shortfall costing 6 at qq −0.30 [−0.94,
+0.34] (1000 deals), at four14 −0.99 [−1.98, −0.00]; being 听 worth 4 at qq −0.09 [−0.88,
+0.70] (1000), so qq and four14 keep the common weights.

An earlier run had read +1.23 [−1.33, +3.79] over 200 qq deals; over 1000, and in every
rule set, master's search measures no gain on strong. What it changes is rare: in 700 decisions of 28 qq hands it
overruled strong 10 times (4 discards, 4 small wins declined for bigger ones, twice for a
对对胡, and 2 吃 or 过), each by 13 to 95 points in the rollouts. Strong made to decline such
wins more often did not gain either (declining when waiting is worth as much as the win or
1.5 times it, or at 3 times it as now but with fewer than 8 cards left too: −0.02 to +0.09,
1000 deals each): the rollouts' greedy players mislead the search there. Nor does searching
longer help: master with 1.5 times the work (280,000) −0.39 [−1.85, +1.08] over 1000 qq deals
(89 ms median, 192 ms p99); and trusting the search more loses: a gain of 1 standard error
(not 2) enough to overrule strong −2.31 [−3.83, −0.79] (1000 qq deals). Nor does leaving a win
on offer to strong (the search then never declines one): +0.56 [−0.85, +1.96] over those 1000
qq deals, −1.18 [−2.57, +0.21] over 1000 of seed 20261202 (95–102 ms median, 229–235 ms p99 on
a day when strong itself measured 3.2 ms median: the machine's speed varies by day).

The levels in order, each over the one below (400 deals each):

=========  ========================  ========================
rule set   medium over weak          strong over medium
=========  ========================  ========================
qq         +10.47 [+7.93, +13.01]    +8.92 [+5.94, +11.89]
hunan/3    +2.19 [+1.80, +2.59]      +1.49 [+0.98, +1.99]
hunan/4    +1.50 [+1.13, +1.86]      +1.09 [+0.78, +1.40]
four14     +6.46 [+1.45, +11.46]     +18.48 [+12.07, +24.89]
=========  ========================  ========================

Neither reaches its aim yet: strong over strong-1 at least +3 at qq and above 0 in every
rule set (four14 is, hunan/3 over 1000 deals, not quite over 400, hunan/4 barely over 3000),
master above strong with the interval above 0 (it is not: the ladder stops at strong).
Variants of strong against it at qq (400 deals): the win term weighed 2 −0.17 [−0.62, +0.28],
the look ahead's gain weighed 1.5 −0.17 [−0.79, +0.46], its best five discards looked ahead
+1.10 [−1.76, +3.97] (p99 122 ms), a win declined when waiting is worth 2 times it (not 3)
+0.10 [−0.04, +0.25], 胡息 weighed 1.5 −3.86 [−5.89, −1.83], 0.9 +0.52 over 1000 deals (+1.04
[−1.35, +3.42] and, seed 20261202, +0.17 [−1.55, +1.89]; p99 115 ms); at hunan/3 the win term
weighed 3 +0.01 [−0.26, +0.28]; over 1000 deals, every discard looked ahead +0.55 [−0.95,
+2.06] (p99 152 ms), 吃/碰 judged by the best three discards after them looked ahead and 过 by the
next card too −0.51 [−1.76, +0.74]; at hunan/4 a partial worth 3.5, on seed 20261202, −0.12
[−0.38, +0.14]. None was taken. Nor were, later (2026-12-06): a 名堂 outlook, the 番 the holding's
cards and the winning card would score by their colours and sizes (红胡, 点胡, 大字胡, 小字胡…), worth 1,
2 or 4 a 番: +1.25, +0.07, −1.35 (400 qq deals), worth 1 over 1000 deals of seed 20261202 +0.73
[−0.88, +2.34], scaled by the share of 门子 complete +0.60 and +0.00, at hunan/4 −0.03 and +0.01,
at hunan/3 +0.12; danger weighed again, 0.5 for 碰 and 吃 alike −3.43 [−5.65, −1.21] and 1.0
−3.62 [−6.21, −1.02], but −0.5 +2.55 [−0.53, +5.63] and, over 1000 deals of seed 20261202,
−1.39 [−2.93, +0.14]: at qq a discard cannot be won on, and no weight of who may take it
measured better than none.

A correction of strong distilled from the search (:mod:`engine.policy_learned`, trained by
``scripts/train_policy.py`` on 20,725 searched decisions) is the bench's trial level
``strong-learned``: against strong, qq +0.38 [−2.75, +3.51] (400 deals, 3.2 ms median, 69 ms
p99), hunan/3 −0.07 [−0.52, +0.39], hunan/4 +0.01 [−0.41, +0.44], four14 +0.83 [−3.96,
+5.63] (400 each); its claims alone −0.34 [−1.67, +1.00], its discards alone −0.56 [−2.25,
+1.13] (qq, 1000 deals each). Not taken: what the search's greedy rollouts measure does not
carry over to play against strong players.

A teacher of real play measured no gain either (2026-12-07). From 24,000 qq hands of strong
against itself, a quarter of its discards taken at random among its best three (so that what a
change costs is measured, not guessed), a linear fit of each hand's points on what the discard
left: another of its best three costs 3.68 points a time on average, and the cards' colours and
sizes count for the 名堂 (+9.7 ± 1.3 points for each big card beyond 14, +5.1 ± 0.7 for each
small card beyond 12, +19.6 ± 5.5 for no red card left), but re-ranking strong's best three
discards by that fit gained +0.64 [−0.98, +2.26], +0.45 [−1.20, +2.10] and −0.06 [−1.80, +1.68]
over 1000 qq deals each (seeds 20261202 to 20261204): such choices are rare. The same for its
吃/碰/过 (16,000 hands, 221,230 claims, 37,057 taken at random): another choice costs 3.89 points
a time, each 胡息 taken counts +0.42 ± 0.12 beyond strong's value, but re-ranking by the fit
gained +0.45 [−0.59, +1.49] and −0.24 [−1.30, +0.83] (1000 qq deals, seeds 20261202 and
20261203), both fits together +0.09 [−1.62, +1.80] and +0.71 [−1.23, +2.65] (seeds 20261203 and
20261204). Nor did the look ahead counting a card only a 吃 can take at 0.6 of its worth (the
share of a round's face-up cards a seat may 吃 at three seats): +0.82 [−0.32, +1.96] (400 qq
deals), −0.08 [−0.37, +0.21] (1000, seed 20261202); nor a partial's worth shrinking with the
stock, times (stock + 10) / 29: +0.78 [−0.66, +2.22] (400; pairs shrinking too +0.14; times
(stock + 5) / 24 +0.42). The three together measured +1.56, +0.58, +1.38 and +0.29 over 1000 qq
deals each of seeds 20261201 to 20261204; over the three seeds not used to choose them, +0.75
[−0.22, +1.72]. None was taken.

What master's search lacks was measured too (2026-12-07, scratch players against strong, 400
qq deals): the same search in worlds that deal the other seats their true hands (the stock's
order still shuffled) gains +7.09 [+4.39, +9.80], with the true stock too +12.39 [+8.92,
+15.87]; in the worlds the record allows it gains nothing (−0.20 over 1000). But the record
says little about those hands. Over 494,396 unseen cards at sampled decisions of 3,000 strong
qq hands, a fit of where each card is (which seat's hand, or the stock) on what the record
shows of its kind and seat gains 0.027 nats a card over an even spread (1.058 against 1.085,
2.5 %): a kind the seat discarded is 0.30 times as likely in its hand, a kind never turned face
up 2.66 times, a discarded neighbour, other size or 二七十 partner and a 吃 or 碰 let go by
0.98 to 1.21 times. Master's worlds dealt by those odds: +0.37 [−2.10, +2.84]. The hidden hands
are worth much, and the record cannot tell them; a stronger player must play better in the
worlds it already imagines.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine import actions as A
from engine import policy_learned as learned
from engine.policy_eval import Weights
from engine.policy_play import Style, best, judge, reason
from engine.policy_search import Budget, pick, search, sure_gain
from engine.views import Event, PrivateView

_BLIND_TO_HUXI = Weights(per_wait=0.0, pair=0.0, huxi=0.0, deficit=0.0, ready=0.0,
                         per_win_card=0.0, peng_danger=0.0, chi_danger=0.0, tempo=0.0)
# A partial or pair counts once, whatever its waits: counting each live copy (medium) made a
# pair worth more than a complete 门子. The figures behind each knob: the module docstring.
_PARTIALS_COUNT_ONCE = Weights(partial=4.0, per_wait=0.0, pair=1.0, deficit=0.0, ready=0.0,
                               per_win_card=0.0, chou_live=1.0, peng_danger=0.0,
                               chi_danger=0.0, tempo=0.0)
# At 湖南 the strong level also pays for 胡息 short of the table's 起胡 (``rules.min_huxi``) and
# values being 听 (a hand that wins on some live card); at qq and four14 neither gained.
_HUNAN_READY = replace(_PARTIALS_COUNT_ONCE, deficit=6.0, ready=4.0)
STYLES: dict[str, Style] = {
    "weak": Style(weights=_BLIND_TO_HUXI),
    "medium": Style(),
    "strong": Style(weights=_PARTIALS_COUNT_ONCE, lookahead=3, win_weight=1.0,
                    rule_weights=(("hunan", _HUNAN_READY),)),
}
# Former levels the bench still plays against (``bench/bench_duel.py --y strong-1``); no
# table offers them. strong-1 is the strong level before it weighed what a 听 hand wins.
BASELINES: dict[str, Style] = {
    "strong-1": Style(weights=_PARTIALS_COUNT_ONCE, lookahead=3),
}
# Candidate levels the bench measures (``--x strong-learned``); no table offers them until
# they beat strong. strong-learned is strong with the correction distilled from the search
# (engine.policy_learned): no gain yet, see the module docstring.
TRIALS: dict[str, Style] = {
    "strong-learned": replace(STYLES["strong"], correct=learned.correct),
}
# The searching levels: the strong style's best candidates played out in imagined worlds.
SEARCHES: dict[str, Budget] = {
    "master": Budget(),
}
LEVELS: tuple[str, ...] = (*STYLES, *SEARCHES)
_SEP = {"zh": "：", "en": ": "}


def _style(level: str) -> Style:
    if level in SEARCHES:
        return STYLES["strong"]
    try:
        return STYLES[level] if level in STYLES else {**BASELINES, **TRIALS}[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}") from None


def choose(
    view: PrivateView,
    public_events: Sequence[Event],
    rng: random.Random | None = None,
    *,
    level: str = "strong",
) -> str:
    """The level's action: one of ``view.legal``, an argmax of :func:`evaluate`. ``rng``
    breaks exact ties (else the first in legal order); a searching level has none."""
    if level in SEARCHES:
        budget = SEARCHES[level]
        return pick(*search(view, public_events, _style(level), budget), budget)
    top = best(view, public_events, _style(level))
    if rng is None or len(top) == 1:
        return top[0].action
    return rng.choice(top).action


def evaluate(
    view: PrivateView,
    public_events: Sequence[Event],
    rng: random.Random | None = None,
    *,
    level: str = "strong",
) -> dict[str, float]:
    """Every legal action's value to the level's player, higher is better: comparable across
    the actions of one decision (not across decisions). ``choose`` picks an argmax.

    Where a win is on offer the values are points (the win's against waiting for a bigger
    one); elsewhere they are the evaluation's units, in which a complete 门子 is worth 10
    (:class:`~engine.policy_eval.Weights`). A searching level's values are the points a
    searched move gains over the strong choice, less its ``z`` standard errors (the strong
    choice 0), and a point below the least of those and 0 for a move not searched or played
    in fewer than the budget's ``first`` worlds. ``rng`` changes
    nothing: the values are a function of the view and the record alone.
    """
    if level in SEARCHES:
        return _searched_values(view, public_events, SEARCHES[level])
    return {c.action: c.value for c in judge(view, public_events, _style(level))}


def _searched_values(view: PrivateView, public_events: Sequence[Event],
                     budget: Budget) -> dict[str, float]:
    judged, searched = search(view, public_events, STYLES["strong"], budget)
    if not searched:
        chosen = pick(judged, searched, budget)
        return {c.action: 0.0 if c.action == chosen else -1.0 for c in judged}
    sure = {s.action: sure_gain(s, budget) for s in searched[1:]}
    floor = min([0.0, *(g for g in sure.values() if g is not None)]) - 1.0
    values = {a: floor if g is None else g for a, g in sure.items()}
    values[searched[0].action] = 0.0
    return {c.action: values.get(c.action, floor) for c in judged}


def explain(
    view: PrivateView, public_events: Sequence[Event], lang: str = "zh"
) -> tuple[str, str]:
    """(action, one-line reason) for the 提示 hint, e.g. ``("d:x9", "出 九：孤张")``: what
    the choice weighed (the shape it breaks, the 听 it keeps), not who may 吃/碰 the card,
    which the strong level gives no weight.

    ``lang`` is ``"zh"`` or ``"en"`` (game terms stay Chinese); anything else reads as zh.
    The action is the strong player's ``choose`` without an rng.
    """
    lang = lang if lang in _SEP else "zh"
    c = best(view, public_events, STYLES["strong"])[0]
    return c.action, f"{A.label(c.action, lang)}{_SEP[lang]}{reason(c, lang)}"
