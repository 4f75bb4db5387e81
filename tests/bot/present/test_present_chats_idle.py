"""``Chats.idle`` (the tests' "everything sent") sends what is held back, waits for what that
queues, and ends even while a job keeps holding itself back (its table's change is waiting
for a database lock held by another session: nothing returns until the test lets go)."""

from __future__ import annotations

import asyncio

from bot.present.chats import Chats
from bot.present.pacing import CHANGING_WAIT, Pacing

USER = 42


def chats() -> Chats:
    return Chats(store=None, pacing=Pacing(), default_lang="zh",  # type: ignore[arg-type]
                 on_migrated=lambda old, new: None)


async def test_held_jobs_are_sent_and_what_they_queue_too() -> None:
    box, sent = chats(), []

    async def second() -> int:
        sent.append("second")
        return 1

    async def first() -> int:
        sent.append("first")
        box.put(USER, "next", second)
        return 1
    box.put_after(60, USER, "hand", first)
    await asyncio.wait_for(box.idle(), 5)
    assert sent == ["first", "second"]


async def test_a_job_that_holds_itself_back_again_does_not_keep_idle_forever() -> None:
    box, tries = chats(), []

    async def changing() -> int:  # as the seat and table jobs while Table.changing
        tries.append(asyncio.get_running_loop().time())
        box.put_after(CHANGING_WAIT, USER, "hand", changing)
        return 0
    box.put_after(CHANGING_WAIT, USER, "hand", changing)
    await asyncio.wait_for(box.idle(patience=0.5), 5)
    assert 2 <= len(tries) < 100  # tried again now and then, not in a busy loop
    assert tries[-1] - tries[0] >= 0.4
