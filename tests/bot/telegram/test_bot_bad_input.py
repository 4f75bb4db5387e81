"""Bad input everywhere, through the real bot and a fake Telegram: every command of
:data:`bot.telegram.commands.COMMANDS` sent with words no command takes (unicode digits,
numbers past any id, negative ones, a wall of text), in the group and privately, and every
button kind of :data:`bot.callbacks.KINDS` pressed with forged data (numbers of any length,
fields missing or added). Each is answered with what is allowed — never with "could not be
saved, send it again", never with a traceback in the log — and the game's record does not
change."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.play import start_hand

from bot import callbacks as cb
from bot.i18n import t
from bot.numbers import MOST, MOST_ID, positive, whole
from bot.telegram.commands import COMMANDS

WORDS = ("²", "²局", "①", "³人", "9" * 20, "1" * 40, "-5", "0", "2147483648", "x" * 300)
# the record of play and of the club: none of it changes by bad input (the users' rows do:
# a command stores its sender's name; /notify and /dissolve take no words and ignore them)
RECORD = ("tables", "seats", "hands", "actions", "results", "scores", "matches", "challenges",
          "cups", "seasons", "apart", "club_settings", "birds")
NUMBERS = ("1" * 40, str(2**31), str(2**63), "0" * 30 + "1", str(2**63 - 1))


def _record(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return {n: conn.execute(f"SELECT * FROM {n} ORDER BY 1").fetchall()  # noqa: S608
                for n in RECORD if n in names}


def _forged() -> list[str]:
    """Every kind's data with each number field forged, and with a field missing or added."""
    datas = []
    for kind in cb.KINDS.values():
        fields = cb.fields(kind)
        honest = ["1" if type_ != "str" else "m" for _, type_ in fields]
        for i, (_, type_) in enumerate(fields):
            if type_ != "int":
                continue
            for number in NUMBERS:
                datas.append(":".join((kind.letter, *honest[:i], number, *honest[i + 1:])))
        datas.append(":".join((kind.letter, *honest[:-1])))
        datas.append(":".join((kind.letter, *honest, "1")))
    return datas


FAILED = {t(lang, key) for lang in ("zh", "en")
          for key in ("command_failed", "press_failed", "store_failed")}


@pytest.mark.parametrize(("word", "value"), [
    ("12", 12), ("１２", 12), ("٣", 3), ("0", 0), (str(MOST), MOST), (str(MOST + 1), None),
    ("²", None), ("①", None), ("-5", None), ("1.5", None), ("", None), ("9" * 4000, None),
])
def test_whole_numbers_in_any_decimal_digits_and_no_larger_than_the_store_keeps(
        word: str, value: int | None) -> None:
    assert whole(word) == value
    assert positive(word) == (value or None)



def test_ids_go_as_far_as_the_store_keeps_them() -> None:
    assert whole(str(MOST + 1), MOST_ID) == MOST + 1
    assert whole(str(MOST_ID), MOST_ID) == MOST_ID
    assert whole(str(MOST_ID + 1), MOST_ID) is None


@pytest.mark.parametrize("data", _forged())
def test_a_forged_press_names_nothing_or_at_most_what_the_store_holds(data: str) -> None:
    press = cb.parse(data)
    numbers = [] if press is None else [getattr(press, name) for name, type_
                                        in cb.fields(type(press)) if type_ == "int"]
    assert all(n <= MOST_ID for n in numbers)


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.ERROR)
    return caplog


async def test_every_command_and_button_refuses_bad_input(tg: FakeTelegram, tmp_path: Path,
                                                          errors) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db)) as app:
        (alice, _, _), group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        before = _record(db)
        first = max((m.message_id for m in tg.messages(group)), default=0)
        for command in COMMANDS:
            for word in WORDS:
                await tg.send_text(group, alice, f"/{command.name} {word}")
                await tg.send_text(alice, alice, f"/{command.name} {word}")
        for payload in ("j²", "j" + "9" * 40, "²", "c" + "1" * 30):
            await tg.send_text(alice, alice, f"/start {payload}")
        answers = [await tg.press(group, lobby.message_id, alice, data) for data in _forged()]
        last = await tg.send_text(group, alice, "/club")  # answered after all the others
        await tg.wait_reply(last, match=lambda m: (m.text or "").startswith("⚙"), timeout=120)
        await tg.settle(quiet=0.5, timeout=120)
        await services(app).presenter.idle()
        said = [m.text or m.caption or "" for chat in (group, alice)
                for m in tg.messages(chat) if m.message_id > first]
        assert not FAILED & set(said)
        assert not [a.text for a in answers if a.text in FAILED]
        assert [r.getMessage() for r in errors.records if r.levelno >= logging.ERROR] == []
        assert _record(db) == before
        assert table.status == "playing" and len(table.players) == 3
