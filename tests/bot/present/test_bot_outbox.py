"""The per-chat outbox: pacing at the real group interval, coalescing, 429 handling."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut

from bot.present.chats import Chats
from bot.present.outbox import Outbox
from bot.present.pacing import Pacing

REAL_INTERVAL = Pacing().group_interval


async def test_real_interval_keeps_a_group_under_20_a_minute() -> None:
    """A change every 0.1 s for 7.5 s: at most one call per 3.5 s, and the latest state last."""
    loop = asyncio.get_running_loop()
    box = Outbox(REAL_INTERVAL)
    state = {"n": 0}
    sent: list[tuple[float, int]] = []

    async def job() -> int:
        sent.append((loop.time(), state["n"]))
        return 1

    start = loop.time()
    while loop.time() - start < 7.5:
        state["n"] += 1
        box.put(("table", 1), job)
        await asyncio.sleep(0.1)
    await box.drain()
    gaps = [b[0] - a[0] for a, b in zip(sent, sent[1:], strict=False)]
    assert 3 <= len(sent) <= 4
    assert min(gaps) >= REAL_INTERVAL - 0.01
    assert 60 // REAL_INTERVAL + 1 <= 20  # so no sliding minute holds more than 20 calls
    assert sent[-1][1] == state["n"]  # the last call showed the final state


async def test_same_key_coalesces_in_place_and_notes_are_bounded() -> None:
    box = Outbox(0.0, max_notes=2)
    ran: list[str] = []

    def job(name: str):
        async def run() -> int:
            ran.append(name)
            return 1
        return run

    box.put("a", job("a1"))
    box.put("b", job("b"))
    box.put("a", job("a2"))  # replaces a1, keeps a's place before b
    assert box.put(("note", 1), job("n1")) and box.put(("note", 2), job("n2"))
    assert not box.put(("note", 3), job("n3"))  # dropped: too many one-off notes waiting
    await box.drain()
    assert ran == ["a2", "b", "n1", "n2"]


async def test_a_chat_that_says_when_its_call_went_out_is_paced_from_there() -> None:
    """A private chat's interval counts from about when Telegram took the call (halfway
    between its going out and its answer), not from the answer a round trip later."""
    loop = asyncio.get_running_loop()
    sent_at: dict[int, float] = {}
    box = Outbox(0.5, sent_at=lambda: sent_at.get(1))
    went: list[float] = []

    async def job() -> int:
        await asyncio.sleep(0.05)  # rendering before the call
        sent_at[1] = loop.time()  # the call goes out (what Courier notes)
        went.append(sent_at[1])
        await asyncio.sleep(0.3)  # the round trip
        return 1

    for n in range(3):
        box.put(("hand", n), job)
    await box.drain()
    gaps = [b - a for a, b in zip(went, went[1:], strict=False)]
    # the trip's first half, the interval and the next job's render: not 0.3 + 0.5 + 0.05
    assert all(0.15 + 0.5 <= gap < 0.15 + 0.5 + 0.05 + 0.08 for gap in gaps), gaps


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # PTB's own __init__
async def test_retry_after_requeues_at_the_front_with_the_latest_job() -> None:
    loop = asyncio.get_running_loop()
    box = Outbox(0.0)
    ran: list[tuple[str, float]] = []
    attempts = {"n": 0}

    async def limited() -> int:
        attempts["n"] += 1
        if attempts["n"] == 1:
            box.put("x", newer)  # state changed while the 429 came back
            raise RetryAfter(timedelta(seconds=0.2))
        ran.append(("old", loop.time()))
        return 1

    async def newer() -> int:
        ran.append(("new", loop.time()))
        return 1

    async def other() -> int:
        ran.append(("other", loop.time()))
        return 1

    start = loop.time()
    box.put("x", limited)
    box.put("y", other)
    await box.drain()
    assert [name for name, _ in ran] == ["new", "other"]
    assert ran[0][1] - start >= 0.2


async def test_a_failing_job_does_not_stop_the_others() -> None:
    box = Outbox(0.0)
    ran: list[str] = []

    async def broken() -> int:
        raise RuntimeError("boom")

    async def fine() -> int:
        ran.append("fine")
        return 0

    box.put("a", broken)
    box.put("b", fine)
    await box.drain()
    assert ran == ["fine"] and not box.busy


async def test_network_errors_are_retried_a_few_times_bad_requests_not(monkeypatch) -> None:
    monkeypatch.setattr("bot.present.outbox.NETWORK_RETRIES", 2)
    monkeypatch.setattr("bot.present.outbox.NETWORK_BACKOFF", 0.01)
    box = Outbox(0.0)
    attempts = {"flaky": 0, "dead": 0, "bad": 0}

    def failing(name: str, error: Exception, until: int):
        async def run() -> int:
            attempts[name] += 1
            if attempts[name] <= until:
                raise error
            return 1
        return run

    box.put("flaky", failing("flaky", TimedOut(), 1))  # recovers on the 2nd try
    box.put("dead", failing("dead", NetworkError("down"), 99))
    box.put("bad", failing("bad", BadRequest("chat not found"), 99))
    await box.drain()
    assert attempts == {"flaky": 2, "dead": 3, "bad": 1}


async def test_new_buttons_spend_the_chats_burst_the_rest_keeps_its_pace() -> None:
    """A job put as spare (a seat's new buttons) goes at once after the chat's last call
    while its bucket of 1 + burst holds one; the others keep one call per interval and leave
    the burst for it: never more than the bucket in a row, whoever asks."""
    loop = asyncio.get_running_loop()
    interval = 0.2
    box = Outbox(interval, burst=1)
    sent: list[tuple[str, float]] = []

    def job(name: str):
        async def run() -> int:
            sent.append((name, loop.time()))
            return 1
        return run

    async def call(name: str, spare: bool = False) -> float:
        box.put("hand", job(name), spare=spare)
        await box.drain()
        return sent[-1][1]

    start = await call("catch-up")
    assert await call("buttons", spare=True) - start < interval / 2  # the burst: at once
    assert await call("buttons again", spare=True) - start >= interval * 0.95  # spent
    paced = await call("catch-up")
    assert paced - sent[-2][1] >= interval * 0.95  # the steady pace, burst or not
    assert await call("catch-up") - paced >= interval * 0.95  # the others never spend it
    await asyncio.sleep(2 * interval)  # the bucket fills again
    rested = await call("catch-up")
    assert await call("buttons", spare=True) - rested < interval / 2
    times = [at for _, at in sent]
    assert all(c - a >= interval * 0.95 for a, c in zip(times, times[2:], strict=False))
    plain = Outbox(interval)  # no burst: new buttons keep the pace too
    box = plain
    start = await call("catch-up")
    assert await call("buttons", spare=True) - start >= interval * 0.95


async def test_a_group_keeps_an_admins_eight_answers_waiting_a_private_chat_three() -> None:
    """A group's answers wait for its bucket: eight commands typed 1.5 s apart are all
    answered, none dropped; a private chat, paced only by its one a second, keeps three."""
    async def on_migrated(old: int, new: int) -> None:
        raise AssertionError("no chat moves here")

    chats = Chats(None, Pacing(), "zh", on_migrated)  # type: ignore[arg-type]
    hold = asyncio.Event()

    async def job() -> int:
        await hold.wait()
        return 0
    try:
        for chat_id, kept in ((-5, Pacing().group_notes), (5, 3)):
            taken = [chats.put(chat_id, ("note", n), job) for n in range(kept + 2)]
            assert taken == [True] * kept + [False] * 2  # queued at once: none runs yet
    finally:
        hold.set()
        await chats.shutdown()


async def test_shutdown_returns_once_every_job_under_way_has_ended() -> None:
    """The store closes right after the chats' shutdown: a job still running then read a
    closed database."""
    async def on_migrated(old: int, new: int) -> None:
        raise AssertionError("no chat moves here")

    chats = Chats(None, Pacing(), "zh", on_migrated)  # type: ignore[arg-type]
    started, ended = asyncio.Event(), []

    async def job() -> int:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            ended.append(True)
        return 0
    chats.put(-5, ("card", 1), job)
    await asyncio.wait_for(started.wait(), 5)
    await chats.shutdown()
    assert ended == [True]


async def test_nothing_is_queued_after_shutdown() -> None:
    """Timed moves still being played as the bot stops change tables after the chats'
    shutdown: what they would show is dropped, not sent by an outbox made for it."""
    async def on_migrated(old: int, new: int) -> None:
        raise AssertionError("no chat moves here")

    chats = Chats(None, Pacing(), "zh", on_migrated)  # type: ignore[arg-type]
    ran = []

    async def job() -> int:
        ran.append(True)
        return 0
    await chats.shutdown()
    assert chats.put(-5, ("card", 1), job) is False
    assert chats.put(5, ("hand", 1), job) is False
    chats.put_after(0.0, 5, ("hand", 2), job)
    await asyncio.sleep(0.05)
    assert ran == []
