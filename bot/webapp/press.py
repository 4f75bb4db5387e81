"""A live page's press, checked and answered as the buttons are, by the one table of a
seat's presses (:mod:`bot.present.screens.seat_presses`): ``{"version": v, "index": i}`` as
a move's button, or ``{"move": "takeback"}`` / ``{"move": "again", "mark": m}`` (``m``: the
hand whose settlement it was pressed on, checked as the settlement button's mark is).
Answered ``(status, text)``: 200 with the button's answer, 409 refused (stale, not his
turn…: nothing changed), 400 malformed. In the
bot's own process (:mod:`bot.webapp.server`) or in the bot's process for the shared server
(:mod:`bot.webapp.relay`)."""

from __future__ import annotations

from bot.i18n import t
from bot.present.screens.seat_presses import Move, Press, answer
from bot.present.screens.words import refusal_text
from bot.table import Refusal, TableService


def checked(body: object) -> dict[str, object]:
    """The press's fields (only those), or ValueError: a small object that is safe to send
    on to another process."""
    if not isinstance(body, dict):
        raise ValueError("not an object")
    if body.get("move") == Move.TAKE_BACK:
        return {"move": Move.TAKE_BACK.value}
    if body.get("move") == Move.AGAIN:
        mark = body.get("mark")
        if not _small_int(mark):
            raise ValueError("again needs its settlement's mark")
        return {"move": Move.AGAIN.value, "mark": mark}
    version, index = body.get("version"), body.get("index")
    if not (_small_int(version) and _small_int(index)):
        raise ValueError("version and index are integers")
    return {"version": version, "index": index}


def _small_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) < 2**53


def press_of(fields: dict[str, object]) -> Press:
    """The :class:`Press` of :func:`checked`'s fields."""
    def number(key: str) -> int | None:
        value = fields.get(key)
        return value if isinstance(value, int) else None
    return Press(Move(str(fields.get("move", Move.ACT))), number("version"), number("index"),
                 number("mark"))


async def apply(service: TableService, table_id: int, user_id: int, lang: str,
                body: object) -> tuple[int, str]:
    try:
        press = press_of(checked(body))
    except ValueError:
        return 400, t(lang, "webapp_bad_move")
    try:
        return 200, await answer(service, table_id, user_id, lang, press)
    except Refusal as r:
        return 409, refusal_text(r, lang)
