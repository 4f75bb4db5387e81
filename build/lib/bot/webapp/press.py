"""A live page's press, applied through the same TableService calls as the buttons
(:mod:`bot.telegram.seat`, the lobby's): ``{"version": v, "index": i}`` as a button press, or
``{"move": "takeback"}`` / ``{"move": "again", "mark": m}`` (``m``: the hand whose
settlement it was pressed on, checked as the settlement button's mark is). Answered ``(status, text)``: 200 with the
button's answer, 409 refused (stale, not his turn…: nothing changed), 400 malformed. In the
bot's own process (:mod:`bot.webapp.server`) or in the bot's process for the shared server
(:mod:`bot.webapp.relay`)."""

from __future__ import annotations

from bot.i18n import t
from bot.present.screens.words import refusal_text
from bot.table import Refusal, TableService, TableStatus
from bot.webapp.view import AGAIN, TAKE_BACK
from engine import actions as A


def checked(body: object) -> dict[str, object]:
    """The press's fields (only those), or ValueError: a small object that is safe to send
    on to another process."""
    if not isinstance(body, dict):
        raise ValueError("not an object")
    if body.get("move") == TAKE_BACK:
        return {"move": TAKE_BACK}
    if body.get("move") == AGAIN:
        mark = body.get("mark")
        if not _small_int(mark):
            raise ValueError("again needs its settlement's mark")
        return {"move": AGAIN, "mark": mark}
    version, index = body.get("version"), body.get("index")
    if not (_small_int(version) and _small_int(index)):
        raise ValueError("version and index are integers")
    return {"version": version, "index": index}


def _small_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) < 2**53


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
        if press.get("move") == AGAIN:  # as the settlement's button (bot.telegram.press)
            mark = press["mark"]
            assert isinstance(mark, int)
            service.check_live(table_id, TableStatus.BETWEEN, mark)
            await service.again(table_id, user_id)
            return 200, t(lang, "ok")
        version, index = press["version"], press["index"]
        assert isinstance(version, int) and isinstance(index, int)
        answer = await service.act(table_id, user_id, version, index)
    except Refusal as r:
        return 409, refusal_text(r, lang)
    return 200, t(lang, answer.key, move=A.label(answer.move, lang))
