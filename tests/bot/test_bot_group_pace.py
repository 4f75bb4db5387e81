"""The group's pace never holds back what people touch: with Telegram's 20 a minute per group
enforced by the fake (on a clock ``PACE_SCALE`` times the real one), a ⚙ press is told at once
what it did and its keyboard follows within 3 s, and command replies right after a settlement
come in the order asked, each within 3 s, ahead of the table picture's catch-up edits."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.e2e import make_config, paced, running_bot, scaled_clock, services
from support.fakebot import FakeTelegram, RateLimits
from support.play import play_hand, seat_three, start_hand

from bot.config import Config
from bot.i18n import t

# the group's budget as Telegram counts it; private chats and the bot as a whole unlimited
GROUPS_ONLY = RateLimits(private_per_second=1e6, private_burst=10**6, global_per_second=10**6)
SOON = 3.0  # seconds (scaled) an answer may take
# Telegram's pace 10 times faster: the group interval (3.5 s) takes 0.35 s, so what the bot
# computes for an answer (a picture: some 50 ms, more on a busy machine) stays well within
# SOON on the scaled clock, and a reply held for the group's interval still exceeds it.
PACE_SCALE = 10.0


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(clock=scaled_clock(PACE_SCALE)) as fake:
        yield fake


def config(tg: FakeTelegram, tmp_path: Path) -> Config:
    return make_config(tg, tmp_path / "db.sqlite3", pacing=paced(PACE_SCALE))


async def test_a_settings_press_is_told_at_once_and_its_keyboard_follows(
        tg: FakeTelegram, tmp_path) -> None:
    tg.rate_limits = GROUPS_ONLY
    async with running_bot(config(tg, tmp_path)) as app:
        users, group, lobby = await seat_three(tg)
        await services(app).presenter.idle()
        alice = users[0]
        assert (await tg.press_button(lobby, alice, t("zh", "btn_settings"))).text == \
            t("zh", "settings_shown")
        await tg.wait_for(lambda: any(text == "底分 5" for text, _ in lobby.buttons))
        for base in (5, 2, 10):
            answer = await tg.press_button(lobby, alice, f"底分 {base}")
            assert answer.text == f"底分 → {base}"  # what it did, at once (the change is in)
            pressed_at = tg.world.clock()
            await tg.wait_for(lambda b=base: any(text == f"✓ 底分 {b}"
                                                 for text, _ in lobby.buttons))
            assert tg.world.clock() - pressed_at <= SOON
        assert (await tg.press_button(lobby, alice, t("zh", "btn_settings_back"))).text == \
            t("zh", "settings_hidden")
        assert not tg.rejections


async def test_replies_right_after_a_settlement_go_first_in_order(tg: FakeTelegram,
                                                                  tmp_path) -> None:
    tg.rate_limits = GROUPS_ONLY
    async with running_bot(config(tg, tmp_path), seed=2) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await play_hand(tg, app, users, group, random.Random(4))
        assert table.status == "between"
        posts = ("sendMessage", "sendDocument", "sendPhoto")
        before = len([c for c in tg.calls if c.chat_id == group.id and c.method in posts])
        first = None
        asked = []
        for command in ("/help", "/rules", "/rank"):
            sent = await tg.send_text(group, users[1], command)
            first = first or sent
            asked.append(tg.world.clock())
        await tg.wait_for(lambda: len([m for m in tg.messages(group)
                                       if m.message_id > first.message_id]) >= 3)
        replies = [m for m in tg.messages(group) if m.message_id > first.message_id][:3]
        assert "/replay" in (replies[0].text or "")  # /help, /rules, /rank in the order asked
        assert replies[1].document_bytes is not None
        assert replies[2].photo_bytes is not None
        sent_at = [c.time for c in tg.calls if c.chat_id == group.id and c.method in posts]
        # /rank's picture is drawn first (~50 ms, which the scaled clock makes ~0.5 s): its
        # allowance has more on top; the old single queue sent these 3.5 s apart, after the
        # settlement's own
        allowed = (SOON, SOON, 2 * SOON)
        waited = [when - at for at, when in zip(asked, sent_at[before:before + 3], strict=True)]
        assert all(w <= a for w, a in zip(waited, allowed, strict=True)), waited
        await svc.presenter.idle()
        assert tg.max_per_minute(group) <= 20 and not tg.rejections
