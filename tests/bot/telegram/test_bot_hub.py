"""The table observer fans each committed change out branch by branch
(``bot.telegram.app.Hub``, :mod:`bot.table.observers`): the clock is armed before anything
is shown, and a branch that fails — a picture that cannot be drawn — is logged while every
other branch is still told. So is each of the unit of work's tellings, and each of the cup
and challenge services'."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.service import PEOPLE, Clock, Counting, mover, seated

from bot.store import Store
from bot.table import Table, TableService, TableStatus
from bot.table.challenge_service import ChallengeService
from bot.telegram.app import Hub
from engine.rules import QQ

pytestmark = pytest.mark.observer_fails  # each test plants a failing observer


class _Failing:
    """A branch that raises at whatever it is told."""

    def __getattr__(self, name: str) -> object:
        def fail(*args: object) -> None:
            raise RuntimeError(f"{name}: the picture could not be drawn")
        fail.__qualname__ = f"Failing.{name}"
        return fail


class _Told:
    """A branch that notes what it is told."""

    def __init__(self, calls: list[str], name: str) -> None:
        self.calls, self.name = calls, name

    def __getattr__(self, what: str) -> object:
        return lambda *args: self.calls.append(f"{self.name}.{what}")


def _hub(calls: list[str], failing: str) -> Hub:
    hub = Hub()
    for branch in ("presenter", "timers", "notifier", "cups", "pages", "relay", "rater",
                   "reviewer"):
        setattr(hub, branch, _Failing() if branch == failing else _Told(calls, branch))
    return hub


class _Table:
    id = 7


def _failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "bot.table.observers" and r.levelno == logging.ERROR]


def test_a_failing_presenter_still_arms_the_clock_and_tells_the_others(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    _hub(calls, "presenter").changed(_Table())  # type: ignore[arg-type]
    assert calls == ["timers.arm", "pages.changed", "relay.changed", "notifier.changed"]
    [failure] = _failures(caplog)
    assert "changed" in failure and "7" in failure


def test_a_failing_presenter_still_disarms_a_closed_table(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    _hub(calls, "presenter").closed(_Table())  # type: ignore[arg-type]
    assert calls == ["timers.disarm", "pages.changed", "relay.changed", "cups.settled",
                     "rater.nudge", "reviewer.nudge"]
    assert len(_failures(caplog)) == 1


@pytest.mark.parametrize("failing", ["timers", "pages", "relay", "notifier"])
def test_any_failing_branch_leaves_the_others_told(failing: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    _hub(calls, failing).changed(_Table())  # type: ignore[arg-type]
    every = ["timers.arm", "pages.changed", "relay.changed", "presenter.changed",
             "notifier.changed"]
    assert calls == [c for c in every if not c.startswith(failing)]
    assert len(_failures(caplog)) == 1


@pytest.mark.parametrize("failing", ["cups", "presenter", "pages", "rater"])
def test_a_settled_hand_reaches_every_other_branch(failing: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    _hub(calls, failing).settled(_Table(), object())  # type: ignore[arg-type]
    every = ["pages.changed", "relay.changed", "presenter.settled", "cups.settled",
             "rater.nudge", "reviewer.nudge"]
    assert calls == [c for c in every if not c.startswith(failing)]
    assert len(_failures(caplog)) == 1


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await opened.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    yield opened
    await opened.close()


class _SettlesBadly(Counting):
    """The unit of work's observer, failing at the news of a finished hand."""

    def settled(self, table: Table, record: object) -> None:
        raise RuntimeError("the settlement could not be drawn")


async def test_the_unit_of_work_tells_the_change_after_a_failing_settled(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    observer = _SettlesBadly()
    service = TableService(store, observer, action_timeout=60, autoplay_delay=1.5,
                           clock=Clock(), rng=random.Random(3))
    table = await seated(service)
    while table.status == TableStatus.PLAYING:  # the first legal move, to the hand's end
        before, seat = observer.changes, mover(table)
        await service.act(table.id, PEOPLE[seat].user_id, table.decisions[seat].version, 0)
    assert table.status == TableStatus.BETWEEN
    assert observer.changes == before + 1  # the settled table is still shown and timed
    assert any("settled" in f for f in _failures(caplog))


async def test_a_failing_challenge_observer_does_not_undo_a_join(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    service = ChallengeService(store, lambda _: False, rng=random.Random(1))
    service.observer = _Failing()  # type: ignore[assignment]
    try:
        row = await service.open(-100, None, PEOPLE[0], QQ, 1, 600)
        await service.join(row.id, PEOPLE[1])
        players = await store.challenge_players(row.id)
        assert [p.user_id for p in players] == [PEOPLE[1].user_id]
        assert _failures(caplog)  # each telling failed, logged, and the service went on
    finally:
        service.shutdown()
