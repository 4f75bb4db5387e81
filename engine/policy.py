"""The computer player's entry points, at three levels: ``weak``, ``medium``, ``strong``.

Used by the bot for added computer players, 托管 and the 提示 hint, and by the 复盘 review::

    action = choose(view, public_events, rng)                 # the strong player
    action = choose(view, public_events, rng, level="weak")
    action, reason = explain(view, public_events, lang="zh")  # the strong player's choice
    values = evaluate(view, public_events)                    # {action: value} for the review

Every level reads only the seat's :class:`~engine.views.PrivateView` and the public events
(those with ``visible_to is None``). The levels differ in their :class:`~engine.policy_play.Style`:
``weak`` is the first hand-tuned player (its danger and tempo terms make it timid and greedy
by turns); ``medium`` judges the hand alone, melds plus the best split of the free cards
(:mod:`engine.policy_eval`), claims only when that value rises and discards what lowers it
least; ``strong`` adds what the analyzer knows about the points a ready hand would win.
How they compare: ``bench/bench_duel.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import actions as A
from engine.policy_eval import Weights
from engine.policy_play import Style, best, judge, reason
from engine.views import Event, PrivateView

STYLES: dict[str, Style] = {
    "weak": Style(),
    "medium": Style(weights=Weights(peng_danger=0.0, chi_danger=0.0, tempo=0.0)),
    "strong": Style(weights=Weights(peng_danger=0.0, chi_danger=0.0, tempo=0.0)),
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
    the actions of one decision (not across decisions). ``choose`` picks an argmax."""
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
