"""bench_load's ``--webapp-seats K``: K of each table's three players play through the live
seat (bot.webapp) instead of their pictures: a WebSocket each, fed the seat's view after
every change, and a POST to ``api/move`` for each press (seeded random choice, after the
same think time as the picture players). Measured here: from a move made (posted by a page
seat or pressed on a picture) to each other page seat of its table receiving the next view
(``move -> other pages``), so one page seat a table is measured too."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import aiohttp
from support.webapp import init_data


class PageSeats:
    def __init__(self, load: Any, per_table: int, base: str, token: str,
                 rng: random.Random) -> None:
        self.load, self.per_table, self.base, self.token, self.rng = \
            load, per_table, base, token, rng
        self.users: set[int] = set()  # who plays by his page
        self.auth: dict[int, str] = {}
        self.base_of: dict[int, str] = {}  # user -> the page's address (its bot's server)
        self.views: dict[int, dict] = {}  # user -> his latest view
        self.pressed: set[tuple[int, int]] = set()  # (user, version) pressed already
        self.moved: dict[int, tuple[float, int, set[int]]] = {}  # group -> (t, presser, seen)
        self.updates: list[float] = []  # move -> another page seat's next view (seconds)
        self.update_groups: list[int] = []  # the table (group id) of each of ``updates``
        self.retried = 0  # page opens refused (503) and presses whose connection failed, retried
        self.session: aiohttp.ClientSession | None = None

    def chosen(self, users: list[Any]) -> list[Any]:
        """The table's players who use the page (the first K)."""
        picked = users[:self.per_table]
        self.users.update(u.id for u in picked)
        return picked

    async def open(self, users: list[Any], base: str | None = None,
                   token: str | None = None) -> None:
        """The table's page seats open their pages: at ``base`` signed by ``token`` (their
        bot's; by default those given at construction)."""
        if self.session is None:
            # no pool limit: each page seat holds its WebSocket connection open
            self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        for user in self.chosen(users):
            self.auth[user.id] = "tma " + init_data(token or self.token, user.id,
                                                    user.first_name)
            self.base_of[user.id] = base or self.base
            self.load._spawn(self._page(user.id))

    async def _page(self, user_id: int, tries: int = 20) -> None:
        """The seat's page, open while the run lasts. A shared page server (``python -m bot
        webapp``) learns of a new table from its bot a moment after the deal: a page refused
        before it has shown anything is opened again, 0.5 s later."""
        assert self.session is not None
        for _ in range(tries):
            try:
                ws = await self.session.ws_connect(self.base_of[user_id] + "ws", max_msg_size=0)
            except aiohttp.WSServerHandshakeError as refused:  # 503: too many signing in now
                self.retried += 1
                await asyncio.sleep(float((refused.headers or {}).get("Retry-After", 1)))
                continue
            await ws.send_str(self.auth[user_id][4:])
            await self._read(user_id, ws)
            if user_id in self.views:
                return
            await asyncio.sleep(0.5)

    async def _read(self, user_id: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            view = json.loads(msg.data)
            if view is None:
                continue
            self.views[user_id] = view
            group = self.load.table_of[user_id]
            moved = self.moved.get(group)
            if moved is not None and user_id != moved[1] and user_id not in moved[2]:
                moved[2].add(user_id)
                self.updates.append(time.perf_counter() - moved[0])
                self.update_groups.append(group)
            self.react(user_id)

    def react(self, user_id: int) -> None:
        """Press one of the view's moves, once per decision."""
        view = self.views.get(user_id)
        if view is None or not self.load.playing:
            return
        moves = [m for m in view["moves"] if "index" in m or m.get("move") == "again"]
        key = (user_id, view["version"] if view["version"] is not None else -1)
        if not moves or key in self.pressed:
            return
        self.pressed.add(key)
        self.load._spawn(self._press(user_id, view["version"], self.rng.choice(moves)))

    async def _press(self, user_id: int, version: int | None, move: dict) -> None:
        load = self.load
        if load.accepted >= load.target or self.session is None:
            return
        if load.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * load.think)
        body = {"move": "again", "mark": move.get("mark")} if move.get("move") == "again" else \
            {"version": version, "index": move["index"]}
        if "index" in move:
            self.move_made(load.table_of[user_id], user_id)
        for attempt in range(3):  # as a page's fetch is tried again: a kept-alive connection
            try:                  # the server closed (its idle limit) fails the first try
                async with self.session.post(self.base_of[user_id] + "api/move", json=body,
                                             headers={"Authorization": self.auth[user_id]}) as r:
                    answer = await r.json()
                break
            except aiohttp.ClientError:
                self.retried += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(0.2)
        if "index" not in move:
            return
        if r.status == 200 and answer["text"].startswith("✓"):
            load.accepted += 1
            load.accepted_at[load.table_of[user_id]] += 1
            if load.accepted >= load.target:
                load.done.set()
        else:
            load.refused += 1

    def move_made(self, group: int, user_id: int) -> None:
        """A move of ``user_id``'s is on its way: the table's other page seats' next views
        are timed from now."""
        self.moved[group] = (time.perf_counter(), user_id, set())

    def start(self) -> None:
        """Play begins: every page seat answers what it shows."""
        for user_id in list(self.views):
            self.react(user_id)

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
