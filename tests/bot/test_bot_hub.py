"""The table observer arms a table's clock before anything is shown, so a fault in showing a
committed change never leaves the table without its timer (``bot.telegram.app.Hub``)."""

from __future__ import annotations

import pytest

from bot.telegram.app import Hub


class _Failing:
    def changed(self, table: object) -> None:
        raise RuntimeError("the picture could not be drawn")

    closed = changed


class _Timers:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def arm(self, table: object) -> None:
        self.calls.append("arm")

    def disarm(self, table: object) -> None:
        self.calls.append("disarm")


def _hub(timers: _Timers) -> Hub:
    hub = Hub()
    hub.presenter = _Failing()  # type: ignore[assignment]
    hub.timers = timers  # type: ignore[assignment]
    return hub


def test_a_failing_presenter_still_arms_the_clock() -> None:
    timers = _Timers()
    with pytest.raises(RuntimeError):
        _hub(timers).changed(object())  # type: ignore[arg-type]
    assert timers.calls == ["arm"]


def test_a_failing_presenter_still_disarms_a_closed_table() -> None:
    timers = _Timers()
    with pytest.raises(RuntimeError):
        _hub(timers).closed(object())  # type: ignore[arg-type]
    assert timers.calls == ["disarm"]
