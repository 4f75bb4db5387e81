"""A 复式挑战 survives kill -9 of the bot process mid-game: restarted, the participant's
private chat gets his deal back exactly where it was (the same picture, his buttons for his
next decision), his next press counts, and the opener's /challenge end counts what he
played."""

from __future__ import annotations

import signal
from pathlib import Path

from support.botproc import fake_env, start_bot, stop_bot
from support.challenge import current_buttons
from support.fakebot import FakeTelegram

from bot.i18n import t

PRESSES = 3


async def test_a_challenge_resumes_after_kill_9(tg: FakeTelegram, tmp_path: Path) -> None:
    # BOT_SEED: the same deals every run (random ones sometimes ended both before his third
    # decision)
    env = fake_env(tg, DB_PATH=str(tmp_path / "db.sqlite3"), BOT_SEED="3")
    ann = tg.user("Ann", language_code="zh-hans")
    group = tg.group("挑战群", members=(ann,))
    tg.start_private(ann)
    proc = await start_bot(tg, tmp_path, env)
    try:
        await tg.send_text(group, ann, "/challenge 2局 1h")  # a second deal if one ends early
        card = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                               if (m.text or "").startswith("⚔️")), None),
                                 timeout=30)
        assert (await tg.press_button(card, ann, "参加")).text == t("zh", "challenge_joined")
        for version in range(PRESSES):
            msg, data = await tg.wait_for(lambda v=version: current_buttons(tg, ann, 1, v),
                                          timeout=30)
            assert (await tg.press(ann, msg.message_id, ann, data[0])).text.startswith("✓")
        before, _ = await tg.wait_for(lambda: current_buttons(tg, ann, 1, PRESSES), timeout=30)
        shown = before.photo_bytes
    finally:
        assert await stop_bot(proc, signal.SIGKILL) == -signal.SIGKILL
    photos = len([m for m in tg.messages(ann) if m.photo_bytes])
    proc = await start_bot(tg, tmp_path, env)
    try:
        back, data = await tg.wait_for(
            lambda: (found := current_buttons(tg, ann, 1, PRESSES))
            and found[0].message_id != before.message_id and found, timeout=30)
        assert back.photo_bytes == shown  # the same position, drawn again
        assert len([m for m in tg.messages(ann) if m.photo_bytes]) == photos + 1
        assert (await tg.press(ann, back.message_id, ann, data[0])).text.startswith("✓")
        await tg.wait_for(lambda: current_buttons(tg, ann, 1, PRESSES + 1)
                          or "本局" in (tg.message(ann, back.message_id).caption or ""),
                          timeout=30)
        await tg.send_text(group, ann, "/challenge end")
        final = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                                if (m.text or "").startswith("🏆")), None),
                                  timeout=30)
        assert "Ann" in final.text.splitlines()[0]
    finally:
        assert await stop_bot(proc) == 0
