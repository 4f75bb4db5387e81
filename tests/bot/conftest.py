"""Shared fixtures. ``fake_tg``: a running fake Telegram Bot API (see tests/support/fakebot)."""

from collections.abc import AsyncIterator

import pytest
from support.fakebot import FakeTelegram


@pytest.fixture
async def fake_tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as tg:
        yield tg
