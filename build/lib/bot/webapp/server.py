"""The live page's HTTP server (aiohttp), in the bot's process or in the one serving several
bots (:mod:`bot.webapp.multi`), on 127.0.0.1:``WEBAPP_PORT`` behind the operator's HTTPS
proxy, serving ``WEBAPP_URL``'s path:

- ``GET  <path>``            the page (:file:`bot/webapp/static/index.html`)
- ``GET  <path>card/N.png``  a card face of the pictures (:mod:`bot.webapp.faces`)
- ``GET  <path>font/F.otf``  their font (``regular``)
- ``GET  <path>api/seat``    the user's seat view (:mod:`bot.webapp.view`)
- ``POST <path>api/move``    a move: ``{"version": v, "index": i}`` as a button press, or
  ``{"move": "takeback"}`` / ``{"move": "again"}``
- ``GET  <path>ws``          a WebSocket: its first message is the init data; then each view
  as JSON whenever it changes. Refused: closed with 4401 (bad init data) or 4403 (not seated).

Every API request carries Telegram's init data as ``Authorization: tma <initData>``
(:mod:`bot.webapp.initdata`): bad, stale or another bot's is answered 401 with an empty body;
a valid user who is not seated (at the table of its ``start_param``, if any), 403; too many
requests, 429."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from aiohttp import WSMsgType, web

from bot.i18n import lang_of, t
from bot.table import HandRecord, Table, TableService
from bot.webapp import faces, page
from bot.webapp.initdata import BadInitData, WebUser, validate
from bot.webapp.limits import RateLimit
from bot.webapp.live import LivePages
from bot.webapp.press import apply
from bot.webapp.settled import SettledFacts
from bot.webapp.view import clocks, seat_view

log = logging.getLogger(__name__)
FIRST_MESSAGE_TIMEOUT = 10.0  # seconds a WebSocket may take to send its init data
CLOSE_UNAUTHORIZED, CLOSE_FORBIDDEN = 4401, 4403


@dataclass(frozen=True)
class Seated:
    table: Table
    record: HandRecord
    seat: int
    lang: str


# a press, sent where the table is played: (table id, user id, his language, the request's
# body) -> (HTTP status, the answer's text) (:func:`bot.webapp.press.apply`)
Press = Callable[[int, int, str, object], Awaitable[tuple[int, str]]]


@dataclass
class Side:
    """One bot the server serves: its token, its tables (``service``: the bot's own, or a
    copy the shared server keeps from the store, :mod:`bot.webapp.multi`), the seats in 托管
    as the group was told (``trustee_of``), where a press goes and its open pages."""

    token: str
    service: TableService
    trustee_of: Callable[[HandRecord], frozenset[int]]
    press: Press
    pages: LivePages = field(init=False)
    settled: SettledFacts = field(init=False)


class WebApp:
    """The routes, for one bot (its own process) or several (``python -m bot webapp``): the
    init data's signature tells whose page asks. ``held(side, user_id)``: a user's first page
    of that bot opened (his picture waits); ``released``: his last closed (it catches up)."""

    def __init__(self, sides: Sequence[Side], path: str, *, max_age: float,
                 released: Callable[[Side, int], None], default_lang: str,
                 held: Callable[[Side, int], None] = lambda side, user_id: None,
                 clock: Callable[[], float] = time.time,
                 limit: RateLimit | None = None) -> None:
        self.sides, self.max_age = list(sides), max_age
        self.path = "/" + path.strip("/") + "/" if path.strip("/") else "/"
        self.default_lang, self.clock = default_lang, clock
        self.limit = limit or RateLimit()
        for side in self.sides:
            side.pages = LivePages(partial(self._view_text, side),
                                   partial(released, side), partial(held, side))
            side.settled = SettledFacts(side.service, side.pages.changed)
        self._page = page.html()

    @classmethod
    def local(cls, service: TableService, token: str, path: str, *, max_age: float,
              trustee_of: Callable[[HandRecord], frozenset[int]],
              released: Callable[[int], None], default_lang: str) -> WebApp:
        """The server in the bot's own process: presses go straight to its service."""
        side = Side(token, service, trustee_of, partial(apply, service))
        return cls([side], path, max_age=max_age, released=lambda side, user_id:
                   released(user_id), default_lang=default_lang)

    @property
    def pages(self) -> LivePages:
        """The only bot's open pages (the server in the bot's own process)."""
        assert len(self.sides) == 1
        return self.sides[0].pages

    # --- who asks --------------------------------------------------------------------

    def user_of(self, init_data: str) -> tuple[WebUser, Side]:
        for side in self.sides:
            try:
                return validate(init_data, side.token, max_age=self.max_age,
                                now=self.clock()), side
            except BadInitData:
                continue
        raise BadInitData("signed by none of the bots served here")

    def _auth(self, request: web.Request) -> tuple[WebUser, Side]:
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        try:
            if scheme != "tma":
                raise BadInitData("no tma authorization")
            user, side = self.user_of(init_data.strip())
        except BadInitData:
            raise web.HTTPUnauthorized(text="") from None
        if not self.limit.allow(user.id):
            raise web.HTTPTooManyRequests(text="")
        return user, side

    def seated(self, side: Side, user_id: int, table_id: int | None = None) -> Seated | None:
        """The user's seat at ``side``'s table (at table ``table_id`` only, when the page was
        opened for it: a group's link)."""
        table = side.service.table_of_user(user_id)
        if table is None or table.current is None or table_id not in (None, table.id):
            return None
        seat = table.seat_of(user_id)
        record = table.current
        if seat is None or record.users[seat] != user_id:
            return None
        return Seated(table, record, seat, table.players[seat].lang)

    def _seated(self, user: WebUser, side: Side) -> Seated:
        seated = self.seated(side, user.id, user.table_id)
        if seated is None:
            raise web.HTTPForbidden(text=json.dumps(
                {"text": t(lang_of(user.language_code, self.default_lang), "webapp_not_seated")},
                ensure_ascii=False), content_type="application/json")
        return seated

    # --- views -----------------------------------------------------------------------

    def view(self, side: Side, s: Seated) -> dict[str, object]:
        return seat_view(s.table, s.record, s.seat, s.lang, trustee=side.trustee_of(s.record),
                         clocks=clocks(side.service, s.table, s.record, s.seat),
                         settled=side.settled.of(s.table, s.record))

    def _view_text(self, side: Side, user_id: int) -> str | None:
        seated = self.seated(side, user_id)
        return None if seated is None else json.dumps(self.view(side, seated),
                                                      ensure_ascii=False)

    # --- routes ----------------------------------------------------------------------

    def routes(self) -> web.Application:
        app = web.Application()
        p = self.path
        app.router.add_get(p, self.page)
        if p != "/":
            app.router.add_get(p.rstrip("/"), self.page)
        app.router.add_get(p + "card/{name}.png", self.card)
        app.router.add_get(p + "font/{name}", self.font)
        app.router.add_get(p + "api/seat", self.seat)
        app.router.add_post(p + "api/move", self.move)
        app.router.add_get(p + "ws", self.socket)
        return app

    async def page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._page, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def card(self, request: web.Request) -> web.Response:
        return _asset(faces.png(request.match_info["name"]), "image/png")

    async def font(self, request: web.Request) -> web.Response:
        return _asset(faces.font(request.match_info["name"]), "font/otf")

    async def seat(self, request: web.Request) -> web.Response:
        user, side = self._auth(request)
        return web.json_response(self.view(side, self._seated(user, side)), dumps=_dumps)

    async def move(self, request: web.Request) -> web.Response:
        user, side = self._auth(request)
        seated = self._seated(user, side)
        try:
            body = await request.json()
        except ValueError:
            body = None
        status, text = await side.press(seated.table.id, user.id, seated.lang, body)
        return web.json_response({"text": text}, status=status, dumps=_dumps)

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20.0)
        await ws.prepare(request)
        try:
            msg = await asyncio.wait_for(ws.receive(), FIRST_MESSAGE_TIMEOUT)
            found = self.user_of(msg.data.strip()) if msg.type == WSMsgType.TEXT else None
        except (TimeoutError, BadInitData):
            found = None
        if found is None or not self.limit.allow(found[0].id):
            await ws.close(code=CLOSE_UNAUTHORIZED)
            return ws
        user, side = found
        if self.seated(side, user.id, user.table_id) is None:
            await ws.close(code=CLOSE_FORBIDDEN)
            return ws
        side.pages.opened(user.id, ws)
        try:
            async for _ in ws:  # the page sends nothing more; this waits for it to close
                pass
        finally:
            side.pages.closed_page(user.id, ws)
        return ws


def _asset(data: bytes | None, content_type: str) -> web.Response:
    """A file of render/'s, cached by the browser a day; 404 for a name it does not have."""
    if data is None:
        raise web.HTTPNotFound()
    return web.Response(body=data, content_type=content_type,
                        headers={"Cache-Control": "max-age=86400"})


def _dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


class Server:
    """The aiohttp runner on 127.0.0.1:``port``; started and stopped with the bot."""

    def __init__(self, webapp: WebApp, port: int, host: str = "127.0.0.1") -> None:
        self.webapp, self.port, self.host = webapp, port, host
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.webapp.routes(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("live seat pages on http://%s:%s%s", self.host, self.port, self.webapp.path)

    async def stop(self) -> None:
        for side in self.webapp.sides:
            await side.pages.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
