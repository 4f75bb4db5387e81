"""A live page's press, applied through the same TableService calls as the buttons
(:mod:`bot.telegram.seat`, the lobby's): ``{"version": v, "index": i}`` as a button press, or
``{"move": "takeback"}`` / ``{"move": "again"}``. Answered ``(status, text)``: 200 with the
button's answer, 409 refused (stale, not his turn…: nothing changed), 400 malformed. In the
bot's own process (:mod:`bot.webapp.server`) or in the bot's process for the shared server
(:mod:`bot.webapp.relay`)."""

from __future__ import annotations

from bot.i18n import t
from bot.present.screens.words import refusal_text
from bot.table import Refusal, TableService
from bot.webapp.view import AGAIN, TAKE_BACK
from engine import actions as A


def checked(body: object) -> dict[str, object]:
    """The press's fields (only those), or ValueError: a small object that is safe to send
    on to another process."""
    if not isinstance(body, dict):
        raise ValueError("not an object")
    if body.get("move") in (TAKE_BACK, AGAIN):
        return {"move": body["move"]}
    version, index = body.get("version"), body.get("index")
    if not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 2**31
               for v in (version, index)):
        raise ValueError("version and index are integers")
    return {"version": version, "index": index}


async def apply(service: TableService, table_id: int, user_id: int, lang: str,
                body: object) -> tuple[int, str]:
    try:
        press = checked(body)
    except ValueError:
        return 400, t(lang, "webapp_bad_move")
    try:
        if press.get("move") == TAKE_BACK:
            await service.take_back(table_id, user_id)
            return 200, t(lang, "autoplay_off")
        if press.get("move") == AGAIN:
            await service.again(table_id, user_id)
            return 200, t(lang, "ok")
        version, index = press["version"], press["index"]
        assert isinstance(version, int) and isinstance(index, int)
        answer = await service.act(table_id, user_id, version, index)
    except Refusal as r:
        return 409, refusal_text(r, lang)
    return 200, t(lang, answer.key, move=A.label(answer.move, lang))
