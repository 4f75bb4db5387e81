"""The shared live seat server (``python -m bot webapp``, :mod:`bot.webapp.multi`) keeps
nothing of a table once it is gone from its copy: a long run would otherwise hold a lock
and the 托管 marks of every table ever played."""

from __future__ import annotations

import asyncio
from typing import Any

from support.service import Counting

from bot.store import Store
from bot.table import Person, TableService
from bot.webapp.multi import KnownTrustee, Remote
from bot.webapp.server import Side, WebApp
from engine.rules import table_rules

PEOPLE = [Person(10 + i, n, "zh") for i, n in enumerate(("A", "B", "C", "D"))]


class Channels:
    async def notify(self, channel: str, payload: dict[str, Any]) -> None: ...

    async def listen(self, channel: str, on_message: Any) -> None: ...


async def press(table_id: int, user_id: int, lang: str, body: object) -> tuple[int, str]:
    raise AssertionError("nobody presses here")


async def test_a_closed_table_leaves_nothing_behind_in_the_copy(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        for p in PEOPLE:
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        bot = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5, seed=3)
        playing = await bot.open(-100, PEOPLE[0], table_rules("qq", 3))
        for p in PEOPLE[1:3]:
            await bot.join(playing.id, p)
        await bot.begin(playing.id, PEOPLE[0].user_id)
        lobby = await bot.open(-200, PEOPLE[3], table_rules("qq", 3))  # stays open

        copy = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5)
        await copy.registry.load_open()
        trustees = {0: KnownTrustee()}
        side = Side("0:token", copy, trustees[0].of, press)
        WebApp([side], "/", max_age=60, released=lambda side, user_id: None,
               default_lang="zh")
        remote = Remote(Channels(), {0: side}, trustees)
        shown = copy.registry.find(playing.id)
        assert shown is not None and shown.current is not None
        trustees[0].of(shown, shown.current)  # a page was shown the hand

        await bot.stop(playing.id, PEOPLE[0].user_id, True, playing.current.id)
        for table_id in (playing.id, lobby.id):
            remote._table_changed({"bot": 0, "table": table_id})
        while remote._tasks:
            await asyncio.gather(*remote._tasks)
        assert copy.registry.find(playing.id) is None
        assert list(remote._locks) == [(0, lobby.id)]  # the open one's is kept
        assert playing.id not in trustees[0]._known
        remote.close()
    finally:
        await store.close()
