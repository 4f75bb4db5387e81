"""The turn timers (bot.present.timers) on the event loop: one per table, set again after
every change, silent when the store did not take the move, and none after the bot stops."""

import asyncio
import logging
from types import SimpleNamespace

from bot.present.timers import Timers
from bot.table import Refusal

SOON = 0.02  # seconds


class Service:
    """What the timers ask of the table service: when a table is due, and its due move."""

    def __init__(self) -> None:
        self.due: dict[int, float | None] = {}
        self.played: list[int] = []
        self.refuse: Refusal | None = None
        self.clock = asyncio.get_running_loop().time

    def due_at(self, table: SimpleNamespace) -> float | None:
        return self.due.get(table.id)

    async def play_due(self, table_id: int) -> None:
        self.played.append(table_id)
        if self.refuse is not None:
            raise self.refuse


async def test_a_table_has_one_timer_set_again_after_each_change() -> None:
    service = Service()
    timers = Timers(service)  # type: ignore[arg-type]
    one, two = SimpleNamespace(id=1), SimpleNamespace(id=2)
    service.due[1] = service.clock() + SOON
    timers.arm(one)
    service.due[1] = service.clock() + 3 * SOON  # a change: the earlier timer is gone
    timers.arm(one)
    service.due[2] = None  # nothing awaited
    timers.arm(two)
    await asyncio.sleep(2 * SOON)
    assert service.played == []
    await asyncio.sleep(2 * SOON)
    assert service.played == [1]
    timers.disarm(one)  # fired already: nothing to cancel
    await timers.idle()


async def test_a_refused_due_move_is_logged_unless_the_store_did_not_take_it(caplog) -> None:
    service = Service()
    timers = Timers(service)  # type: ignore[arg-type]
    table = SimpleNamespace(id=7)
    for code, logged in (("store_unavailable", False), ("stale", True)):
        caplog.clear()
        service.refuse = Refusal(code)
        service.due[7] = service.clock()
        with caplog.at_level(logging.ERROR):
            timers.arm(table)
            await asyncio.sleep(SOON)
            await timers.idle()
        assert bool(caplog.records) == logged, code


async def test_no_timer_fires_once_the_bot_stops() -> None:
    service = Service()
    timers = Timers(service)  # type: ignore[arg-type]
    table = SimpleNamespace(id=3)
    service.due[3] = service.clock() + SOON
    timers.arm(table)
    timers.stop()
    timers.arm(table)  # a change while stopping sets none
    await asyncio.sleep(3 * SOON)
    await timers.idle()
    assert service.played == []
