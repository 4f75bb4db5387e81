"""Watching the fake Bot API's answers: each message it sends or edits, as it is answered
(a bench's players look at their buttons this way)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from support.fakebot.methods import METHODS

Seen = Callable[[int, dict[str, Any], Any], None]  # chat id, the message, the call's params


def watch(seen: Seen, names: Iterable[str]) -> Callable[[], None]:
    """Every message one of the methods ``names`` answers with is passed to ``seen``; the
    function returned puts the methods back."""
    saved = dict(METHODS)
    for name in names:
        METHODS[name] = _watched(METHODS[name], seen)

    def unwatch() -> None:
        METHODS.clear()
        METHODS.update(saved)
    return unwatch


def _watched(handler: Callable[[Any, Any], Awaitable[Any]], seen: Seen) -> Any:
    async def watched(world: Any, p: Any) -> Any:
        result = await handler(world, p)
        try:
            chat_id = int(p.raw("chat_id"))
        except (TypeError, ValueError):
            return result
        if isinstance(result, dict):
            seen(chat_id, result, p)
        return result
    return watched
