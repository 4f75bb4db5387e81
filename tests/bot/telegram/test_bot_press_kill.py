"""Presses in flight at a kill -9 are answered after the restart, and count once
(bot.telegram.journal): one whose move was made but whose answer was lost on the way, and
one the bot had fetched (Telegram told it arrived) but not handled yet."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from contextlib import closing
from pathlib import Path

from support.botproc import fake_env, start_bot, stop_bot
from support.challenge import current_buttons
from support.fakebot import FakeTelegram

from bot.i18n import t


def _count(db: Path, sql: str) -> int:
    with closing(sqlite3.connect(db)) as conn:
        return int(conn.execute(sql).fetchone()[0])


async def test_presses_in_flight_at_kill_9_are_answered_once_after_the_restart(
        tg: FakeTelegram, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    env = fake_env(tg, DB_PATH=str(db), BOT_SEED="3")
    moves = "SELECT COUNT(*) FROM challenge_moves"
    kept = "SELECT COUNT(*) FROM pending_presses"
    ann = tg.user("Ann", language_code="zh-hans")
    group = tg.group("挑战群", members=(ann,))
    tg.start_private(ann)
    proc = await start_bot(tg, tmp_path, env)
    try:
        await tg.send_text(group, ann, "/challenge 2局 1h")
        card = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                               if (m.text or "").startswith("⚔️")), None),
                                 timeout=30)
        assert (await tg.press_button(card, ann, "参加")).text == t("zh", "challenge_joined")
        first, data = await tg.wait_for(lambda: current_buttons(tg, ann, 1, 0), timeout=30)
        # the first press's move is made, its answer lost on the way: the bot waits for it
        # (up to its read timeout, 5 s), holding Ann's later presses behind it
        tg.lose_calls("answerCallbackQuery")
        answers = len([c for c in tg.calls if c.method == "answerCallbackQuery"])
        made = asyncio.create_task(tg.press(ann, first.message_id, ann, data[0], timeout=60))
        await tg.wait_for(lambda: len([c for c in tg.calls
                                       if c.method == "answerCallbackQuery"]) > answers,
                          timeout=30)
        second, data = await tg.wait_for(lambda: current_buttons(tg, ann, 1, 1), timeout=30)
        waiting = asyncio.create_task(tg.press(ann, second.message_id, ann, data[0],
                                               timeout=60))
        await asyncio.sleep(0)  # the press is sent (its update queued for the bot)
        assert tg.world.updates
        # fetched and acknowledged (the next poll's offset passed it), not handled
        await tg.wait_for(lambda: not tg.world.updates, timeout=30)
        assert _count(db, moves) == 1 and not made.done() and not waiting.done()
        assert _count(db, kept) == 2
    finally:
        assert await stop_bot(proc, signal.SIGKILL) == -signal.SIGKILL
    tg.lose_calls()
    proc = await start_bot(tg, tmp_path, env)
    try:
        late = await waiting  # handled now: its move is made
        assert late.text is not None and late.text.startswith("✓"), late
        outdated = await made  # its move was made before the kill: refused as outdated now
        assert outdated.text == t("zh", "stale"), outdated
        await tg.wait_for(lambda: current_buttons(tg, ann, 1, 2), timeout=30)
        assert _count(db, moves) == 2  # each press counted once
        await tg.wait_for(lambda: _count(db, kept) == 0, timeout=30)
    finally:
        assert await stop_bot(proc) == 0
