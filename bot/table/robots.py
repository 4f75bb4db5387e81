"""Computer players (电脑), 托管 and the 提示 hint: every move the bot makes or suggests for a
seat comes from :mod:`engine.player`, from what that seat may know (its private view and the
public events), never from the whole hand.

A computer seat is an ordinary seat whose user id is negative (Telegram user ids are
positive): it is stored, replayed and scored like anyone, has a ``users`` row for its name,
gets no private messages and is left out of the leaderboards. Its id names one of a few fixed
names in one language, so a table never seats the same computer twice.

The policy runs in a worker thread: a decision takes a few milliseconds on average but up to
about a tenth of a second, which the event loop serving every group should not wait for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from functools import partial

from bot.i18n import CATALOGS, t
from engine import player
from engine.state import Hand
from engine.views import Event, PrivateView

log = logging.getLogger(__name__)

_LANG_STRIDE = 100  # ids -1.. are zh names, -101.. en names
LEVELS = player.OFFERED  # a table's computer players play at one of these (弱 / 中 / 强)
STRONG = player.STRONG.name  # 托管 and 提示 play for a human: always the strong level


def is_robot(user_id: int) -> bool:
    return user_id < 0


def names(lang: str) -> list[str]:
    """The computer players' display names in ``lang``, e.g. ``电脑·小明``."""
    return [t(lang, "robot_name", name=n) for n in t(lang, "robot_names").split()]


def robot_id(index: int, lang: str) -> int:
    return -(1 + index + _LANG_STRIDE * list(CATALOGS).index(lang))


def pick(taken: Collection[int], lang: str) -> tuple[int, str] | None:
    """(user id, name) of the first computer player not in ``taken``, or None."""
    for index, name in enumerate(names(lang)):
        user_id = robot_id(index, lang)
        if user_id not in taken:
            return user_id, name
    return None


def public_events(hand: Hand) -> list[Event]:
    return [e for e in hand.history if e.visible_to is None]


def _snapshot(hand: Hand, seat: int) -> tuple[PrivateView, list[Event]]:
    """What the seat knows now (frozen views: safe to read in another thread)."""
    return hand.private_view(seat), public_events(hand)


def level_of(robot: bool, table_level: str) -> str:
    """The level a seat is played at: a computer player at its table's, 托管 at ``STRONG``."""
    return table_level if robot else STRONG


def table_level(stored: str) -> str:
    """The level a table stored with level ``stored`` plays and shows: one of :data:`LEVELS`
    (a table stored with 大师, no longer offered, plays 强: engine.player.levels)."""
    return player.for_table(stored)


async def decide(hand: Hand, seat: int, level: str = STRONG) -> str:
    """The policy's action at ``level`` for ``seat`` (a computer player, or a human in 托管).
    Should the policy ever fail, the first legal action is played: a table must not stall on
    it."""
    view, events = _snapshot(hand, seat)
    try:
        return await asyncio.to_thread(partial(player.choose, view, events, level=level))
    except Exception:
        log.exception("the policy failed for seat %s; playing its first legal action", seat)
        return view.legal[0]


async def hint(hand: Hand, seat: int, lang: str) -> tuple[str, str]:
    """(action, one-line reason) the strong player suggests to ``seat``, in ``lang``."""
    view, events = _snapshot(hand, seat)
    return await asyncio.to_thread(player.explain, view, events, lang)
