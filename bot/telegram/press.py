"""The handlers of button kinds: each kind of :data:`bot.callbacks.KINDS` is bound to exactly
one handler with :func:`on`, which also says which table state the button's mark must still
be (a lobby button of this very lobby, a settlement button of this very settlement). A
handler gets the press typed as its kind (``Pressed[cb.Act]``: ``p.press.table``).
:mod:`bot.telegram.buttons` dispatches every press through :data:`ROUTES`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from telegram import CallbackQuery, User

from bot import callbacks as cb
from bot.table import TableStatus
from bot.telegram.env import Context, Env


@dataclass(frozen=True)
class Reply:
    """How a press is answered: a toast (an alert when ``alert``), or a link to open."""

    text: str | None
    url: str | None = None
    alert: bool = False


K = TypeVar("K", bound=cb.Button, covariant=True)


@dataclass(frozen=True)
class Pressed(Generic[K]):
    """A press of one of our buttons, parsed, with who pressed it and in which language."""

    env: Env
    query: CallbackQuery
    press: K
    user: User
    lang: str
    context: Context


# A press's answer; None when the handler answered the query itself.
PressHandler = Callable[[Pressed[Any]], Awaitable[Reply | None]]
B = TypeVar("B", bound=cb.Button)


@dataclass(frozen=True)
class Route:
    handler: PressHandler
    live: TableStatus | None  # the table status the mark must still be current in


ROUTES: dict[type[cb.Button], Route] = {}


def on(kind: type[B], live: TableStatus | None = None
       ) -> Callable[[Callable[[Pressed[B]], Awaitable[Reply | None]]],
                     Callable[[Pressed[B]], Awaitable[Reply | None]]]:
    """Bind the handler of the button kind ``kind``; ``live`` (``lobby``, ``between``; only
    for a :class:`bot.callbacks.Marked` kind): a press is refused as outdated unless its mark
    is that of the table's current lobby or settlement (``TableService.check_live``)."""
    if cb.KINDS.get(kind.letter) is not kind:
        raise ValueError(f"{kind.__name__} is no button kind of bot.callbacks.KINDS")
    if live is not None and not issubclass(kind, cb.Marked):
        raise ValueError(f"{kind.__name__} carries no mark to check as live")

    def bind(handler: Callable[[Pressed[B]], Awaitable[Reply | None]]
             ) -> Callable[[Pressed[B]], Awaitable[Reply | None]]:
        if kind in ROUTES:
            raise ValueError(f"button kind {kind.__name__} has two handlers")
        ROUTES[kind] = Route(handler, live)
        return handler
    return bind
