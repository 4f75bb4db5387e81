"""Fixtures of the bot tests.

``fake_tg``: a running fake Telegram Bot API (see tests/support/fakebot) on the real clock;
``tg``: the same on the scaled clock of :data:`support.e2e.SCALE`; ``played_db`` / ``played``:
the hands of :func:`support.stats.play_all`, played once per module, and the store holding them.
Every bot test fails when an observer raised (:mod:`bot.table.observers` logs it and tells the
others on), unless it is marked ``observer_fails``: it planted the failure; and when the fake
Bot API crashed (a bug of the test's, say a watcher reading a name not bound yet: the bot saw
a 500 and sent again seconds later, and the test's timing failed elsewhere).
"""

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from support.e2e import SCALE, scaled_clock
from support.fakebot import FakeTelegram
from support.stats import play_all

from bot.store import Store
from bot.table import HandRecord


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "observer_fails: the test makes an observer raise")


@pytest.fixture(autouse=True)
def _observers_told_cleanly(request: pytest.FixtureRequest,
                            caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    yield
    if request.node.get_closest_marker("observer_fails") is None:
        failed = [r.getMessage() for r in caplog.get_records("call")
                  if r.name == "bot.table.observers"]
        assert failed == [], "an observer raised (its traceback is in the log)"
    crashed = [r.getMessage() for r in caplog.get_records("call")
               if r.name == "support.fakebot.server" and r.getMessage().startswith("fake Bot API")]
    assert crashed == [], "the fake Bot API crashed: a bug of the test's or the fake's (see log)"


@pytest.fixture
async def fake_tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as tg:
        yield tg


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(clock=scaled_clock(SCALE)) as fake:
        yield fake


@pytest.fixture(scope="module")
def played_db(tmp_path_factory) -> tuple[Path, list[tuple[int, HandRecord]]]:
    """Played once per module (a few seconds); each test opens the database afresh."""
    path = tmp_path_factory.mktemp("stats") / "db.sqlite3"
    return path, asyncio.run(play_all(path))


@pytest.fixture
async def played(played_db):
    path, hands = played_db
    store = await Store.open(path)
    yield store, hands
    await store.close()
