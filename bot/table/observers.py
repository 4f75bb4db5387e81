"""Telling observers what happened: each one told on its own, so that one that fails is
logged and the others are still told (a picture that cannot be drawn must not keep the
clock from being armed, the live pages from updating, or a cup from seeing its table end).

``with isolated("changed", table.id): observer.changed(table)``, or for one call
``tell(observer.cup_card, row)``: the observer is called by name, and whatever it raises is
logged and the caller goes on. What the table room does for itself after a change
(forgetting a closed table) is not an observer's and stays outside.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import ParamSpec

P = ParamSpec("P")

log = logging.getLogger(__name__)


@contextlib.contextmanager
def isolated(what: str, about: object = None) -> Iterator[None]:
    """Run the block; an exception in it is logged (``what`` failed, ``about``: an id) and
    swallowed, so the code after the block — the next observer — still runs."""
    try:
        yield
    except Exception:
        log.exception("telling %s failed (%s)", what, about)


def tell(call: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
    """Call the observer's method ``call``, isolated (:func:`isolated`; the log names the
    method and the id of what it was told of)."""
    with isolated(getattr(call, "__qualname__", repr(call)),
                  getattr(args[0], "id", None) if args else None):
        call(*args, **kwargs)
