"""A table dealt by the real bot against the fake Bot API, with its live seat served on this
machine: what ``bench_webapp_open`` and ``webapp_shots`` open in Chromium."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the project before tests/bot

from support.e2e import make_config, running_bot  # noqa: E402
from support.fakebot import FakeTelegram  # noqa: E402
from support.play import start_hand  # noqa: E402
from support.webapp import free_port, init_data, page_url, webapp_config  # noqa: E402


@asynccontextmanager
async def live_table(tmp: Path, seed: int = 1, **config: Any) -> AsyncIterator[dict[str, Any]]:
    """Three people at a dealt table; ``url(seat)`` opens that seat's page."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    async with FakeTelegram() as tg:
        conf = make_config(tg, tmp / "db.sqlite3", webapp=webapp_config(port), **config)
        async with running_bot(conf, seed=seed) as app:
            users, group, lobby, svc, table = await start_hand(tg, app)
            by_seat = {s: next(u for u in users if u.id == uid)
                       for s, uid in enumerate(table.current.users)}

            def url(seat: int, **extra: Any) -> str:
                user = by_seat[seat]
                return page_url(base, init_data(tg.token, user.id, user.first_name, **extra))

            yield {"tg": tg, "app": app, "svc": svc, "table": table, "users": by_seat,
                   "url": url, "base": base, "group": group}
