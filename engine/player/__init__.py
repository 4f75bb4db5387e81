"""The computer player: its levels (:mod:`engine.player.levels`) and the entry points.

Used by the bot for added computer players, 托管 and the 提示 hint, and by the 复盘 review::

    action = choose(view, public_events, rng)                 # the strong player
    action = choose(view, public_events, rng, level="weak")
    action, reason = explain(view, public_events, lang="zh")  # the strong player's choice
    values = evaluate(view, public_events)                    # {action: value} for the review

How each level chooses and what it costs: :class:`~engine.player.levels.Level`. How they were
tuned, what each measures against the one below and the commands that measured it:
docs/player.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import actions as A
from engine.player.levels import LEVELS, OFFERED, STRONG, Level, for_table
from engine.player.play import best, reason
from engine.views import Event, PrivateView

__all__ = ["LEVELS", "OFFERED", "STRONG", "Level", "choose", "evaluate", "explain", "for_table",
           "named"]

_SEP = {"zh": "：", "en": ": "}


def named(name: str) -> Level:
    """The level called ``name`` (a key of :data:`LEVELS`)."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; known: {', '.join(LEVELS)}") from None


def choose(
    view: PrivateView,
    public_events: Sequence[Event],
    rng: random.Random | None = None,
    *,
    level: str = "strong",
) -> str:
    """The action of the level called ``level`` (:meth:`Level.choose`)."""
    return named(level).choose(view, public_events, rng)


def evaluate(
    view: PrivateView,
    public_events: Sequence[Event],
    rng: random.Random | None = None,
    *,
    level: str = "strong",
) -> dict[str, float]:
    """Every legal action's value to the level called ``level`` (:meth:`Level.evaluate`);
    ``rng`` changes nothing: the values are a function of the view and the record alone."""
    return named(level).evaluate(view, public_events)



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
    c = best(view, public_events, STRONG.style)[0]
    return c.action, f"{A.label(c.action, lang)}{_SEP[lang]}{reason(c, lang)}"
