"""The handlers of button kinds: each kind of :data:`bot.callbacks.KINDS` is bound to exactly
one handler with :func:`on`, which also says which table state the button's mark must still
be (a lobby button of this very lobby, a settlement button of this very settlement).
:mod:`bot.telegram.buttons` dispatches every press through :data:`ROUTES`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Pressed:
    """A press of one of our buttons, parsed, with who pressed it and in which language."""

    env: Env
    query: CallbackQuery
    press: cb.Press
    user: User
    lang: str
    context: Context


# A press's answer; None when the handler answered the query itself.
PressHandler = Callable[[Pressed], Awaitable[Reply | None]]


@dataclass(frozen=True)
class Route:
    handler: PressHandler
    live: TableStatus | None  # the table status the mark must still be current in (version = mark)


ROUTES: dict[str, Route] = {}


def on(letter: str, live: TableStatus | None = None) -> Callable[[PressHandler], PressHandler]:
    """Bind the handler of the button kind ``letter``; ``live`` (``lobby``, ``between``): a
    press is refused as outdated unless its mark is that of the table's current lobby or
    settlement (``TableService.check_live``)."""
    if letter not in cb.KINDS:
        raise ValueError(f"no button kind {letter!r} in bot.callbacks.KINDS")

    def bind(handler: PressHandler) -> PressHandler:
        if letter in ROUTES:
            raise ValueError(f"button kind {letter!r} has two handlers")
        ROUTES[letter] = Route(handler, live)
        return handler
    return bind
