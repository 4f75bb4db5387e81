"""A correction of the strong judgement, distilled from the search: a linear model per move.

The searching player (:mod:`engine.player.search`) plays moves out in imagined worlds and so
measures, in points, what the strong judgement only guesses; it is far too slow for 托管.
``bench/make_search_data.py`` records its verdicts on the strong level's best moves in
hands the strong level plays, and ``bench/train_policy.py`` fits, per rule set and kind of
decision, how the gain it measured follows from what the judgement read of each move
(:func:`features`): the judgement's own value and what it leaves out or adds up blindly
(who may 碰 or 吃 a discard, how late in the hand it is, whether a card is a pair, big or
red, what a 吃 or 碰 gains in 胡息). At play the fitted weights replace each move's value
(:func:`correct`), in the judgement's units, so that the move the fit expects to gain most
is taken; the weights are a small JSON file beside this module, read once. The bench's trial
level ``strong-learned`` (:data:`engine.player.TRIALS`) plays it.

Measured: the fit of ``bench/learned_player.json`` (20,725 decisions, 12 worlds and the best 4
moves each, seed 20261203) gains +0.38 (qq claims) to +0.53 (qq discards) points a decision
on the decisions held out, as the search measures it; in play it gains nothing: against
strong, by ``bench/bench_duel.py`` (seed 20261201), qq +0.38 [−2.75, +3.51] (400 deals),
hunan/3 −0.07 [−0.52, +0.39], hunan/4 +0.01 [−0.41, +0.44], four14 +0.83 [−3.96, +5.63]
(400 each); its claims alone −0.34 [−1.67, +1.00] and discards alone −0.56 [−2.25, +1.13] at
qq (1000 deals each). The search's points are those of greedy rollout players, and what
wins against them does not win against strong ones: a better teacher is what is missing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from engine import actions as A
from engine import cards as C
from engine.player import STRONG, Level
from engine.player.eval import Holding
from engine.player.play import Choice, Table
from engine.views import Event, PrivateView

MODEL_FILE = Path(__file__).with_name("learned_player.json")
DISCARD, CLAIM = "discard", "claim"
# what each feature is, in order (the model file's columns)
NAMES = {
    DISCARD: ("value", "value_early", "peng_risk", "chi_risk", "peng_risk_early",
              "chi_risk_early", "peng_risk_near", "chi_risk_near", "unseen", "pair",
              "ready_cards", "big", "red", "lone_loss", "bonus", "huxi_left"),
    CLAIM: ("value", "value_early", "pass", "peng", "chi", "chi_groups", "huxi_gained",
            "pass_early", "pass_drawn", "pass_hand", "pass_near"),
}
_FULL_STOCK = 20.0  # stock_count at which "early" is 1 (qq deals 19 to the stock)
_WIN_HUXI = 15.0  # a seat whose melds show this many 胡息 is "near" (1) a win


def kind_of(judged: list[Choice]) -> str | None:
    """The kind of decision the model corrects: a discard or a claim (吃 / 碰 / 过); None
    for a win on offer (its values are points, the judgement's own)."""
    whys = {c.why for c in judged}
    if "discard" in whys:
        return DISCARD
    if whys <= {"take", "pass"}:
        return CLAIM
    return None


def features(t: Table, c: Choice, kind: str) -> tuple[float, ...]:
    """What the model reads of move ``c`` (names in :data:`NAMES`): only the judgement's own
    readings of the seat's view and the public record. "early" is the share of the stock
    left, "near" how close the others' face-up melds are to a win's 胡息."""
    pub = t.view.public
    early = min(1.0, pub.stock_count / _FULL_STOCK)
    shown = [s.shown_huxi / _WIN_HUXI for s in pub.seats if s.seat != t.view.seat]
    near = min(1.5, max(shown, default=0.0))
    if kind == DISCARD:
        card, count, left, peng, chi, unseen, win_cards, kept = c.args
        rest = list(t.hand)
        rest[card] -= 1
        huxi = t.eval.score(Holding(tuple(rest), t.melds, t.chou)).huxi
        xia_near = min(1.5, pub.seats[t.know.xiajia(t.view.seat)].shown_huxi / _WIN_HUXI)
        return (c.value, c.value * early, peng, chi, peng * early, chi * early, peng * near,
                chi * xia_near, unseen / C.COPIES, float(count == 2), min(win_cards, 8) / 8,
                float(C.is_big(card)), float(C.is_red(card)), kept - left, c.value - left,
                huxi)
    offer = pub.offer
    drawn = float(offer is not None and offer.how == "draw")
    is_pass = float(c.action == A.PASS)
    groups = len(A.parse(c.action).groups) if c.action not in (A.PASS, A.PENG) else 0
    return (c.value, c.value * early, is_pass, float(c.action == A.PENG), float(groups > 0),
            float(groups), float(c.args[0]) if c.why == "take" else 0.0, is_pass * early,
            is_pass * drawn, is_pass * sum(t.hand) / 20, is_pass * near)


@cache
def _model() -> dict:
    return json.loads(MODEL_FILE.read_text(encoding="utf-8"))


def weights_for(rule_set: str, kind: str) -> tuple[list[float], float] | None:
    """The fitted weights of a rule set's decisions of ``kind`` and the margin (points) by
    which another move must be predicted to gain over the judgement's choice; None when there
    are none (or they do not value the judgement's own value above 0: then they cannot be put
    in its units)."""
    model = _model()
    w = model.get("weights", {}).get(rule_set, {}).get(kind)
    if not w or w[0] <= 0:
        return None
    return w, model.get("margins", {}).get(rule_set, {}).get(kind, 0.0)


def correct(t: Table, judged: list[Choice]) -> list[Choice]:
    """``judged`` with each move's value replaced by the model's prediction in the
    judgement's units, ``(w · f) / w[0]``, the judgement's best move raised by the margin:
    the best move is then the one the model expects to gain most, and by more than the
    margin. Unchanged where there is no model."""
    kind = kind_of(judged)
    if kind is None or len(judged) < 2:
        return judged
    fitted = weights_for(t.view.public.rule_set, kind)
    if fitted is None:
        return judged
    w, margin = fitted
    first = max(judged, key=lambda c: c.value).action
    return [replace(c, value=(sum(a * b for a, b in zip(w, features(t, c, kind), strict=True))
                              + (margin if c.action == first else 0.0)) / w[0])
            for c in judged]


# strong with the correction: measured no stronger than strong (docs/player.md)
STRONG_LEARNED = Level("strong-learned", replace(STRONG.style, correct=correct), cost_ms=(3.2, 69))


def choose(view: PrivateView, public_events: Sequence[Event],
           rng: random.Random | None = None) -> str:
    """The trial level's action (``bench/bench_duel.py --x learned_player:choose``)."""
    return STRONG_LEARNED.choose(view, public_events, rng)
