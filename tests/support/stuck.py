"""A test stuck on an await fails with every task's stack instead of hanging its worker.

pytest-timeout (pyproject) kills a stuck worker with nothing said of where it waited; a little
earlier, this cancels the test's tasks with a message holding each one's stack, so the report
names the await that never returned. A test whose event loop is blocked (or a test that is not
a coroutine) is left to pytest-timeout.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest

STUCK_AFTER = 240.0  # seconds: below pytest-timeout's 300


def _fail_stuck(loop: asyncio.AbstractEventLoop, nodeid: str) -> None:
    tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
    stacks = []
    for task in tasks:
        out = io.StringIO()
        task.print_stack(file=out)
        stacks.append(out.getvalue())
    message = f"{nodeid} waited {STUCK_AFTER:.0f} s; its tasks:\n" + "\n".join(stacks)
    for task in tasks:
        task.cancel(msg=message)


@pytest.fixture(autouse=True)
async def stuck_test_fails_with_its_tasks(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    timer = asyncio.get_running_loop().call_later(
        STUCK_AFTER, _fail_stuck, asyncio.get_running_loop(), request.node.nodeid)
    yield
    timer.cancel()
