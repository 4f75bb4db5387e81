"""Shared fixtures. ``fake_tg``: a running fake Telegram Bot API (see tests/fakebot)."""

from collections.abc import AsyncIterator

import pytest
from fakebot import FakeTelegram

pytest_plugins = ["support.postgres"]  # postgres_server, fresh_postgres_url, store_url


@pytest.fixture
async def fake_tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as tg:
        yield tg
