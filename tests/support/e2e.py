"""The real bot against the fake Bot API: its test configuration (fast pacing, ``SCALE`` for
the fake's clock, or a pace and a clock of another scale), the bot started and stopped as
``run_polling`` does, and what a user sees.
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from telegram.ext import AIORateLimiter, Application

from bot.config import Config
from bot.present.pacing import Pacing
from bot.telegram.app import Services, build_application
from support.fakebot import FakeMessage, FakeTelegram, FakeUser


def paced(scale: float) -> Pacing:
    """The group's pace ``scale`` times faster than Telegram's (its intervals, its lags and
    its 20 a minute window), private chats unpaced: what a fake on :func:`scaled_clock` ``(scale)``
    counts as Telegram's limits."""
    real = Pacing()
    return Pacing(group_interval=real.group_interval / scale, dm_interval=0.0,
                  send_interval=0.0, group_window=real.group_window / scale,
                  onlooker_pace=real.onlooker_pace / scale,
                  answer_lag=real.answer_lag / scale, card_lag=real.card_lag / scale,
                  picture_lag=real.picture_lag / scale,
                  card_interval=real.card_interval / scale,
                  lobby_interval=real.lobby_interval / scale)


def scaled_clock(scale: float) -> Callable[[], float]:
    """A clock from 0 now, running ``scale`` times faster than the real one."""
    started = time.monotonic()
    return lambda: (time.monotonic() - started) * scale


SCALE = 70.0  # the tests' usual pace: a group's 3.5 s between pictures in 50 ms
FAST_PACING = paced(SCALE)
# pictures painted on the bot's thread: a painting process per test bot would cost each its
# start; the bot started as ``python -m bot`` (tests/bot/telegram/test_restart.py) paints in one
FAST = dict(pacing=FAST_PACING, autoplay_delay=0.05, render_process=False, review_seats=False)


def make_config(tg: FakeTelegram, db: Path, **overrides: object) -> Config:
    fields: dict[str, object] = {"action_timeout": 30.0, **FAST, **overrides}
    return Config(token=tg.token, api_base_url=tg.base_url, db_path=db, **fields)  # type: ignore[arg-type]


@asynccontextmanager
async def running_bot(config: Config, seed: int = 1) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """The bot as ``run_polling`` runs it (post_init / post_shutdown included); its deals
    and first dealer come from ``random.Random(seed)``."""
    # Telegram's limits are the fake's to enforce here (off unless a test sets them).
    app = build_application(config, rate_limiter=AIORateLimiter(0, group_max_rate=0),
                            rng=random.Random(seed))
    await app.initialize()
    assert app.post_init is not None
    await app.post_init(app)
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1)
    await app.start()
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        assert app.post_shutdown is not None
        await app.post_shutdown(app)
        await app.shutdown()


def services(app: Application) -> Services:  # type: ignore[type-arg]
    return app.bot_data["services"]


def hand_message(tg: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The newest photo in the user's DM: the current hand message."""
    photos = [m for m in tg.messages(user) if m.photo_bytes]
    return photos[-1] if photos else None


def action_buttons(msg: FakeMessage | None) -> list[tuple[str, str]]:
    if msg is None:
        return []
    return [(text, data) for row in msg.keyboard for text, data in row
            if data and data.startswith("a:")]


def settlement_closed(msg: FakeMessage | None) -> bool:
    """A settlement whose 再来一局 / 离开 (and 打鸟) are gone: only its 🔒 验证 is left."""
    return msg is not None and [[data.split(":")[0] for _, data in row if data]
                                for row in msg.keyboard] == [["c"]]

