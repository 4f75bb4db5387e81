"""The computer player's entry points, at three levels: ``weak``, ``medium``, ``strong``.

Used by the bot for added computer players, 托管 and the 提示 hint, and by the 复盘 review::

    action = choose(view, public_events, rng)                 # the strong player
    action = choose(view, public_events, rng, level="weak")
    action, reason = explain(view, public_events, lang="zh")  # the strong player's choice
    values = evaluate(view, public_events)                    # {action: value} for the review

Every level reads only the seat's :class:`~engine.views.PrivateView` and the public events
(those with ``visible_to is None``) and is a deterministic function of them. The levels are
:class:`~engine.policy_play.Style` settings of one decision module, compared by duplicate
deals in ``bench/bench_duel.py``:

- ``medium`` is the first hand-tuned player, the fixed baseline of the bench;
- ``weak`` judges the hand only by its 门子 and partials, blind to 胡息 (clearly weaker);
- ``strong`` counts a partial or pair once, whatever its waits, and adds no bonus for being
  听, for taking a card in, or for a safe discard (see ``_PARTIALS_COUNT_ONCE``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import actions as A
from engine.policy_eval import Weights
from engine.policy_play import Style, best, judge, reason
from engine.views import Event, PrivateView

_BLIND_TO_HUXI = Weights(per_wait=0.0, pair=0.0, huxi=0.0, deficit=0.0, ready=0.0,
                         per_win_card=0.0, peng_danger=0.0, chi_danger=0.0, tempo=0.0)
# A partial or pair counts once, whatever its waits: counting each live copy (medium) made a
# pair worth more than a complete 门子 and cost about 12 points a hand in a duel. No bonus
# for being 听, for taking a card in, or for a discard nobody can 吃/碰: each measured ±1
# point or worse (bench/bench_duel.py, 200 qq deals each).
_PARTIALS_COUNT_ONCE = Weights(partial=4.0, per_wait=0.0, pair=1.0, deficit=0.0, ready=0.0,
                               per_win_card=0.0, chou_live=1.0, peng_danger=0.0,
                               chi_danger=0.0, tempo=0.0)
STYLES: dict[str, Style] = {
    "weak": Style(weights=_BLIND_TO_HUXI),
    "medium": Style(),
    "strong": Style(weights=_PARTIALS_COUNT_ONCE),
}
LEVELS: tuple[str, ...] = tuple(STYLES)
_SEP = {"zh": "：", "en": ": "}


def _style(level: str) -> Style:
    try:
        return STYLES[level]
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
    breaks exact ties (else the first in legal order)."""
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
    (:class:`~engine.policy_eval.Weights`). No level samples, so ``rng`` changes nothing: the
    values are a function of the view and the record alone.
    """
    return {c.action: c.value for c in judge(view, public_events, _style(level))}


def explain(
    view: PrivateView, public_events: Sequence[Event], lang: str = "zh"
) -> tuple[str, str]:
    """(action, one-line reason) for the 提示 hint, e.g. ``("d:x9", "出 九：孤张，下家难吃")``.

    ``lang`` is ``"zh"`` or ``"en"`` (game terms stay Chinese); anything else reads as zh.
    The action is the strong player's ``choose`` without an rng.
    """
    lang = lang if lang in _SEP else "zh"
    c = best(view, public_events, STYLES["strong"])[0]
    return c.action, f"{A.label(c.action, lang)}{_SEP[lang]}{reason(c, lang)}"
