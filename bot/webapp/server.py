"""The live page's HTTP server, in the bot's process (aiohttp), on 127.0.0.1:``WEBAPP_PORT``
behind the operator's HTTPS proxy, serving ``WEBAPP_URL``'s path:

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
a valid user who is not seated, 403; too many requests, 429."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSMsgType, web

from bot.i18n import lang_of, t
from bot.present.screens.words import refusal_text
from bot.table import HandRecord, Refusal, Table, TableService, TableStatus
from bot.webapp import faces
from bot.webapp.initdata import BadInitData, WebUser, validate
from bot.webapp.limits import RateLimit
from bot.webapp.live import LivePages
from bot.webapp.view import AGAIN, TAKE_BACK, seat_view

log = logging.getLogger(__name__)
PAGE = Path(__file__).with_name("static") / "index.html"
FIRST_MESSAGE_TIMEOUT = 10.0  # seconds a WebSocket may take to send its init data
CLOSE_UNAUTHORIZED, CLOSE_FORBIDDEN = 4401, 4403


@dataclass(frozen=True)
class Seated:
    table: Table
    record: HandRecord
    seat: int
    lang: str


class WebApp:
    """The routes; ``trustee_of`` and ``released`` are the presenter's (``public_trustee``,
    ``seat_released``)."""

    def __init__(self, service: TableService, token: str, path: str, *, max_age: float,
                 trustee_of: Callable[[HandRecord], frozenset[int]],
                 released: Callable[[Table, int], None], default_lang: str,
                 clock: Callable[[], float] = time.time,
                 limit: RateLimit | None = None) -> None:
        self.service, self.token, self.max_age = service, token, max_age
        self.path = "/" + path.strip("/") + "/" if path.strip("/") else "/"
        self.trustee_of, self.default_lang, self.clock = trustee_of, default_lang, clock
        self.limit = limit or RateLimit()
        self.pages = LivePages(self._view_text, lambda user_id: self._release(user_id, released))
        self._page = PAGE.read_bytes()

    # --- who asks --------------------------------------------------------------------

    def user_of(self, init_data: str) -> WebUser:
        return validate(init_data, self.token, max_age=self.max_age, now=self.clock())

    def _auth(self, request: web.Request) -> WebUser:
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        try:
            if scheme != "tma":
                raise BadInitData("no tma authorization")
            user = self.user_of(init_data.strip())
        except BadInitData:
            raise web.HTTPUnauthorized(text="") from None
        if not self.limit.allow(user.id):
            raise web.HTTPTooManyRequests(text="")
        return user

    def seated(self, user_id: int) -> Seated | None:
        table = self.service.table_of_user(user_id)
        if table is None or table.current is None:
            return None
        seat = table.seat_of(user_id)
        record = table.current
        if seat is None or record.users[seat] != user_id:
            return None
        return Seated(table, record, seat, table.players[seat].lang)

    def _seated(self, user: WebUser) -> Seated:
        seated = self.seated(user.id)
        if seated is None:
            raise web.HTTPForbidden(text=json.dumps(
                {"text": t(lang_of(user.language_code, self.default_lang), "webapp_not_seated")},
                ensure_ascii=False), content_type="application/json")
        return seated

    # --- views -----------------------------------------------------------------------

    def view(self, s: Seated) -> dict[str, object]:
        seconds = None
        decision, player = s.table.decisions.get(s.seat), s.table.players[s.seat]
        if s.table.status == TableStatus.PLAYING and decision is not None and decision.legal \
                and not player.autoplay:
            seconds = max(0, round(self.service.deadline(s.table, s.seat) - self.service.clock()))
        return seat_view(s.table, s.record, s.seat, s.lang,
                         trustee=self.trustee_of(s.record), seconds_left=seconds)

    def _view_text(self, user_id: int) -> str | None:
        seated = self.seated(user_id)
        return None if seated is None else json.dumps(self.view(seated), ensure_ascii=False)

    def _release(self, user_id: int, released: Callable[[Table, int], None]) -> None:
        table = self.service.table_of_user(user_id)
        if table is not None:
            released(table, user_id)

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
        seated = self._seated(self._auth(request))
        return web.json_response(self.view(seated), dumps=_dumps)

    async def move(self, request: web.Request) -> web.Response:
        user = self._auth(request)
        seated = self._seated(user)
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("not an object")
            text = await self._apply(seated, user.id, body)
        except Refusal as r:
            return web.json_response({"text": refusal_text(r, seated.lang)}, status=409,
                                     dumps=_dumps)
        except (ValueError, TypeError, KeyError):
            return web.json_response({"text": t(seated.lang, "webapp_bad_move")}, status=400,
                                     dumps=_dumps)
        return web.json_response({"text": text}, dumps=_dumps)

    async def _apply(self, s: Seated, user_id: int, body: dict[str, object]) -> str:
        """The same TableService calls as the buttons (bot.telegram.seat, lobby_buttons)."""
        from engine import actions as A

        move = body.get("move")
        if move == TAKE_BACK:
            await self.service.take_back(s.table.id, user_id)
            return t(s.lang, "autoplay_off")
        if move == AGAIN:
            await self.service.again(s.table.id, user_id)
            return t(s.lang, "ok")
        version, index = body["version"], body["index"]
        if not isinstance(version, int) or not isinstance(index, int) or isinstance(version, bool):
            raise TypeError("version and index are integers")
        answer = await self.service.act(s.table.id, user_id, version, index)
        return t(s.lang, answer.key, move=A.label(answer.move, s.lang))

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20.0)
        await ws.prepare(request)
        try:
            msg = await asyncio.wait_for(ws.receive(), FIRST_MESSAGE_TIMEOUT)
            user = self.user_of(msg.data.strip()) if msg.type == WSMsgType.TEXT else None
        except (TimeoutError, BadInitData):
            user = None
        if user is None or not self.limit.allow(user.id):
            await ws.close(code=CLOSE_UNAUTHORIZED)
            return ws
        if self.seated(user.id) is None:
            await ws.close(code=CLOSE_FORBIDDEN)
            return ws
        self.pages.opened(user.id, ws)
        try:
            async for _ in ws:  # the page sends nothing more; this waits for it to close
                pass
        finally:
            self.pages.closed_page(user.id, ws)
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
        await self.webapp.pages.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
