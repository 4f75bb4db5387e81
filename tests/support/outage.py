"""What an outage of the store must leave true, on either backend, for a hand of Alice (in
托管) and two computers: the hand's stored log has every move once, in order; the group and
Alice's private chat show what the stored moves make of the hand, picture and caption, not
more; and the store says it went and came back once each, with no traceback.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest
from telegram.ext import Application

from bot.present.screens.group import draw_table, table_screen
from bot.present.screens.seat import SeatMarks, draw_hand, hand_caption, robots_of
from bot.table import Table
from engine.state import Hand
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.posted import picture_id, seat_picture_id
from support.robots import one_human_two_computers

# the stored log of a table's latest hand: (seq, seat, action) in order of seq
LOG_SQL = ("SELECT seq, seat, action FROM actions WHERE hand_id ="
           " (SELECT MAX(id) FROM hands WHERE table_id = {}) ORDER BY seq")


async def hand_with_tuoguan(tg: FakeTelegram, app) -> tuple[object, object, Table]:  # type: ignore[no-untyped-def]
    """Alice and two computers, a few moves into a hand with Alice in 托管."""
    alice, group, _lobby, table = await one_human_two_computers(tg, app)
    await tg.wait_for(lambda: table.players[0].autoplay and table.current is not None
                      and len(table.current.hand.log) >= 6 or None, timeout=20)
    return alice, group, table


def moves_of(log: list[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """The moves of a stored log, checked to have no hole and no double in its sequence."""
    assert [seq for seq, _, _ in log] == list(range(len(log))), log
    return [(seat, action) for _, seat, action in log]


def replayed(table: Table, moves: list[tuple[int, str]]) -> Hand:
    """The table's running hand after ``moves``."""
    assert table.current is not None
    hand = table.current.hand
    return Hand.replay(hand.rules, seed=hand.seed, dealer=hand.dealer, base=hand.base,
                       log=moves)


def _caption_after(table: Table, moves: list[tuple[int, str]]) -> set[str]:
    """The lines of the group's table caption for the hand after ``moves`` (its 托管 line
    aside, which the group learns when that gives nothing away)."""
    assert table.current is not None
    record = dataclasses.replace(table.current, hand=replayed(table, moves))
    return set(table_screen(table, record, (), "zh")[1].split("\n"))


@dataclasses.dataclass(frozen=True)
class Screens:
    """What the group's table message and Alice's private hand message show: their pictures
    and their captions' lines."""

    group_photo: bytes
    group_lines: frozenset[str]
    dm_photo: bytes
    dm_lines: frozenset[str]


def screens(tg: FakeTelegram, app: Application, group: FakeChat,  # type: ignore[type-arg]
            alice: FakeUser, table: Table) -> Screens:
    """What the group and Alice are shown now of the table's running hand."""
    assert table.current is not None
    shown = tg.message(group, picture_id(app, table))
    dm = tg.message(alice, seat_picture_id(app, table, 0))
    assert shown is not None and dm is not None
    assert shown.photo_bytes and shown.caption and dm.photo_bytes and dm.caption
    return Screens(shown.photo_bytes, frozenset(shown.caption.split("\n")),
                   dm.photo_bytes, frozenset(dm.caption.split("\n")))


def check_screens(shown: Screens, table: Table, moves: list[tuple[int, str]]) -> None:
    """``shown`` is what the hand after ``moves`` looks like: the group's picture and caption,
    and Alice's (seat 0) private picture and caption, drawn here from the replayed hand as the
    bot draws them. Either picture may mark her 托管 or not (the group learns it when that
    gives nothing away, :mod:`bot.present.seats`)."""
    assert table.current is not None
    record = dataclasses.replace(table.current, hand=replayed(table, moves))
    hand, names = record.hand, record.names
    marks = [SeatMarks(trustee, robots_of(record)) for trustee in (frozenset(), frozenset({0}))]
    assert _caption_after(table, moves) <= shown.group_lines, (moves, shown.group_lines)
    assert shown.group_photo in {draw_table(hand.public_view(), names, "zh", m) for m in marks}
    view = hand.private_view(0)
    # all but the line naming who took the card she was last asked about, which follows
    # what her chat was shown rather than the log
    caption = hand_caption(table, record, 0, view, "zh", asked_at=None)
    assert set(caption.split("\n")) <= shown.dm_lines, (caption, shown.dm_lines)
    assert shown.dm_photo in {draw_hand(view, names, "zh", m, hand.rules) for m in marks}


def check_shown_stored(caption: str | None, table: Table, moves: list[tuple[int, str]]) -> None:
    """The group's table caption is the one of the hand after ``moves`` or after fewer of them:
    nothing not stored is shown, though the last stored moves may wait to be drawn while
    a change of the table is under way (``Table.changing``)."""
    assert caption is not None
    lines = set(caption.split("\n"))
    assert any(_caption_after(table, moves[:n]) <= lines for n in range(len(moves), -1, -1)), \
        (caption, moves)


def check_said_once(caplog: pytest.LogCaptureFixture, outages: tuple[int, int] = (1, 1)) -> None:
    """Each outage said when the store went and when it came back (between ``outages``
    of them), and no traceback or error anywhere in the bot (its driver and libraries
    included)."""
    lines = [r.getMessage().split(" (")[0] for r in caplog.records if r.name == "bot.store"]
    went, back = lines.count("the store is unavailable"), lines.count("the store is back")
    assert went == back and outages[0] <= back <= outages[1], lines
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records
              if (r.exc_info or r.levelno >= logging.ERROR)
              and not r.name.startswith("support.")  # the fake Bot API's are its own
              and not (r.exc_info and r.exc_info[0] is asyncio.CancelledError)  # stopping
              and not _last_poll_at_stop(r)]
    assert not errors, errors


def _last_poll_at_stop(record: logging.LogRecord) -> bool:
    """PTB's updater, stopping, polls once more to mark the updates it fetched and logs it
    as an error (suppressed) when that poll finds the connection pool still busy, as on a
    loaded machine: the stop of the test, not the bot's work under the outage."""
    return record.name == "telegram.ext.Updater" and "graceful shutdown" in record.getMessage()
