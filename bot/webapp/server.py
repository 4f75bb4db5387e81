"""The live page's HTTP server (aiohttp), in the bot's process or in the one serving several
bots (:mod:`bot.webapp.multi`), on 127.0.0.1:``WEBAPP_PORT`` behind the operator's HTTPS
proxy, serving ``WEBAPP_URL``'s path:

- ``GET  <path>``            the page (:file:`bot/webapp/static/index.html`)
- ``GET  <path>card/N.png``  a card face of the pictures, or ``sprite`` (:mod:`bot.webapp.faces`)
- ``GET  <path>font/F.otf``  their font (``regular``)
- ``GET  <path>api/seat``    the user's seat view (:mod:`bot.webapp.view`)
- ``POST <path>api/move``    a move: ``{"version": v, "index": i}`` as a button press, or
  ``{"move": "takeback"}`` / ``{"move": "again"}``
- ``GET  <path>ws``          a WebSocket: its first message is the init data, within
  ``SIGN_IN_TIMEOUT`` seconds; then each view as JSON whenever it changes. Closed with
  4401 (init data it cannot take; the close reason says ``expired`` for init data older
  than ``WEBAPP_MAX_AGE``, signed by the bot: open the page again from the chat, and
  ``invalid`` for forged, malformed or another bot's), 4403 (not seated), 4408 (no init
  data in time), 4429 (too many sign-ins or pages of the user: try again later), 1009 (a
  first message over ``initdata.MAX_LENGTH``). Refused before the handshake (HTTP 503, with
  ``Retry-After``) while too many sockets wait to sign in from its address or in all
  (:class:`bot.webapp.limits.SignIns`).

Every API request carries Telegram's init data as ``Authorization: tma <initData>``
(:mod:`bot.webapp.initdata`): bad, stale or another bot's is answered 401 with an empty body
(``WWW-Authenticate: tma error="expired"`` for stale, ``error="invalid"`` else); a valid user
who is not seated (at the table of its ``start_param``, if any), 403; too many requests, 429.

Strangers cannot take the server down: the init data is checked before anything else is
done for a request; sockets still to sign in are capped and get two seconds; bodies,
messages and headers are small (a header over 8 KB, a body over ``MAX_BODY``: 400/413); a
malformed request, a refused socket, a full file table are counted and logged as one WARNING
now and then (:class:`bot.webapp.limits.Noise`), never a traceback each. Every answer says
``X-Content-Type-Options: nosniff`` and a Content-Security-Policy that lets only Telegram's
web clients frame the page (``FRAME_ANCESTORS``); any other path is 404."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from bot.i18n import lang_of, t
from bot.present.screens.seat import clocks, seat_model
from bot.table import HandRecord, Table, TableService
from bot.webapp import faces, page
from bot.webapp.door import LOOPBACK, Door, Network, is_proxy
from bot.webapp.initdata import MAX_LENGTH, BadInitData, StaleInitData, WebUser, validate
from bot.webapp.limits import Noise, RateLimit, SignIns
from bot.webapp.live import LivePages
from bot.webapp.press import apply
from bot.webapp.settled import SettledFacts
from bot.webapp.view import seat_view

log = logging.getLogger(__name__)
SIGN_IN_TIMEOUT = 2.0  # seconds a WebSocket may take to send its init data
PAGES_PER_USER = 8  # a user's open pages of one bot (a ninth is refused, 4429)
MAX_BODY = 4096  # bytes of a request's body (a move is a few dozen)
KEEPALIVE = 15.0  # seconds an idle connection is kept (one that never asks, too)
BACKLOG = 1024  # connections the kernel queues for accept(): a page's waits in a flood
CLOSE_UNAUTHORIZED, CLOSE_FORBIDDEN, CLOSE_TIMEOUT, CLOSE_TOO_MANY = 4401, 4403, 4408, 4429
EXPIRED, INVALID = "expired", "invalid"  # why init data was refused: the close's reason
# Telegram's web clients, the only pages that may frame this one (its apps open it in a view
# of their own, where frame-ancestors does not apply)
FRAME_ANCESTORS = ("https://web.telegram.org", "https://webk.telegram.org",
                   "https://webz.telegram.org")
SECURITY_HEADERS = {
    "Content-Security-Policy": "; ".join((
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://telegram.org",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",  # the same host's ws:/wss: too (CSP level 3)
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors " + " ".join(FRAME_ANCESTORS))),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


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
    as the group was told (``trustee_of``: :func:`bot.present.screens.seat.trustee_known`),
    where a press goes and its open pages."""

    token: str
    service: TableService
    trustee_of: Callable[[Table, HandRecord], frozenset[int]]
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
        self.sign_ins = SignIns()
        self.noise = Noise(log)
        self.proxies = LOOPBACK  # whose X-Forwarded-For is believed: the Server's
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
        side = Side(token, service, lambda table, record: trustee_of(record),
                    partial(apply, service))
        return cls([side], path, max_age=max_age, released=lambda side, user_id:
                   released(user_id), default_lang=default_lang)

    @property
    def pages(self) -> LivePages:
        """The only bot's open pages (the server in the bot's own process)."""
        assert len(self.sides) == 1
        return self.sides[0].pages

    # --- who asks --------------------------------------------------------------------

    def user_of(self, init_data: str) -> tuple[WebUser, Side]:
        """The user and bot whose key signed ``init_data``; :class:`StaleInitData` if one
        did but long ago."""
        stale = None
        for side in self.sides:
            try:
                return validate(init_data, side.token, max_age=self.max_age,
                                now=self.clock()), side
            except StaleInitData as e:
                stale = e
            except BadInitData:
                continue
        raise stale or BadInitData("signed by none of the bots served here")

    def _auth(self, request: web.Request) -> tuple[WebUser, Side]:
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        try:
            if scheme != "tma":
                raise BadInitData("no tma authorization")
            user, side = self.user_of(init_data.strip())
        except BadInitData as e:
            error = EXPIRED if isinstance(e, StaleInitData) else INVALID
            raise web.HTTPUnauthorized(text="", headers={
                "WWW-Authenticate": f'tma error="{error}"'}) from None
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
        return seat_view(seat_model(s.table, s.record, s.seat, s.lang,
                                    trustee=side.trustee_of(s.table, s.record),
                                    clocks=clocks(side.service, s.table, s.record, s.seat),
                                    settled=side.settled.of(s.table, s.record)))

    def _view_text(self, side: Side, user_id: int) -> str | None:
        seated = self.seated(side, user_id)
        return None if seated is None else json.dumps(self.view(side, seated),
                                                      ensure_ascii=False)

    # --- routes ----------------------------------------------------------------------

    def routes(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.on_response_prepare.append(_secure)
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

    async def socket(self, request: web.Request) -> web.StreamResponse:
        address = client_address(request, self.proxies)
        if not self.sign_ins.admit(address):
            self.noise.count("sockets refused: too many waiting to sign in")
            refused = web.Response(status=503, headers={"Retry-After": "5"})
            refused.force_close()
            return refused
        try:
            ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=MAX_LENGTH)
            await ws.prepare(request)
            signed = await self._sign_in(ws)
        finally:
            self.sign_ins.done(address)
        if isinstance(signed, tuple) and isinstance(signed[0], int):
            await ws.close(code=signed[0], message=signed[1].encode())
            return ws
        user, side = signed
        if self.seated(side, user.id, user.table_id) is None:
            await ws.close(code=CLOSE_FORBIDDEN)
            return ws
        if side.pages.count(user.id) >= PAGES_PER_USER:
            await ws.close(code=CLOSE_TOO_MANY)
            return ws
        side.pages.opened(user.id, ws)
        try:
            async for _ in ws:  # the page sends nothing more; this waits for it to close
                pass
        finally:
            side.pages.closed_page(user.id, ws)
        return ws

    async def _sign_in(self, ws: web.WebSocketResponse) -> tuple[WebUser, Side] | tuple[int, str]:
        """The socket's user (its first message, in time), or the code and reason to close
        it with."""
        try:
            async with asyncio.timeout(SIGN_IN_TIMEOUT):  # not wait_for: bot.waits says why
                msg = await ws.receive()
        except TimeoutError:
            self.noise.count("sockets closed: no init data in time")
            return CLOSE_TIMEOUT, ""
        if msg.type != WSMsgType.TEXT:
            if msg.type == WSMsgType.ERROR:  # a message too big (aiohttp closes it: 1009)
                self.noise.count("sockets closed: a first message too big")
            return CLOSE_UNAUTHORIZED, INVALID
        try:
            user, side = self.user_of(msg.data.strip())
        except StaleInitData:
            return CLOSE_UNAUTHORIZED, EXPIRED
        except BadInitData:
            return CLOSE_UNAUTHORIZED, INVALID
        if not self.limit.allow(user.id):
            return CLOSE_TOO_MANY, ""
        return user, side


def client_address(request: web.Request, proxies: tuple[Network, ...]) -> str:
    """Who asks: the address the operator's proxy saw (the last in ``X-Forwarded-For``,
    the one it added) when the connection comes from one of ``proxies``, else the peer's."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and is_proxy(peer, proxies):
        return forwarded.rsplit(",", 1)[-1].strip()[:64]
    return peer


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)


def _asset(data: bytes | None, content_type: str) -> web.Response:
    """A file of render/'s, cached by the browser a day; 404 for a name it does not have."""
    if data is None:
        raise web.HTTPNotFound()
    return web.Response(body=data, content_type=content_type,
                        headers={"Cache-Control": "max-age=86400"})


def _dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


class _Malformed(logging.Filter):
    """aiohttp's traceback for a request it could not parse (a header over 8 KB, bad
    HTTP…), answered 400 already: counted instead."""

    def __init__(self, noise: Noise) -> None:
        super().__init__()
        self.noise = noise

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], HttpProcessingError):
            self.noise.count("malformed requests answered 400")
            return False
        return True


class Server:
    """The aiohttp runner on 127.0.0.1:``port``; started and stopped with the bot. While it
    runs, a full file table (``accept()`` failing with EMFILE, asyncio's traceback each
    time) is counted (:class:`bot.webapp.limits.Noise`)."""

    def __init__(self, webapp: WebApp, port: int, host: str = "127.0.0.1",
                 proxies: tuple[Network, ...] = LOOPBACK) -> None:
        self.webapp, self.port, self.host = webapp, port, host
        self._runner: web.AppRunner | None = None
        self._malformed = _Malformed(webapp.noise)
        self.door = Door(webapp.noise, proxies=proxies)
        webapp.proxies = proxies
        self._listening: asyncio.Server | None = None
        self._handler: Callable[[asyncio.AbstractEventLoop, dict[str, object]], object] \
            | None = None  # the loop's exception handler before

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
            self.webapp.noise.count("connections not accepted: too many open files")
        elif self._handler is not None:
            self._handler(loop, context)
        else:
            loop.default_exception_handler(context)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        logging.getLogger("aiohttp.server").addFilter(self._malformed)
        self._runner = web.AppRunner(self.webapp.routes(), access_log=None,
                                     keepalive_timeout=KEEPALIVE)
        await self._runner.setup()
        assert self._runner.server is not None
        self._listening = await loop.create_server(
            self.door.guarding(self._runner.server), self.host, self.port, backlog=BACKLOG,
            reuse_address=True)
        log.info("live seat pages on http://%s:%s%s", self.host, self.port, self.webapp.path)

    async def stop(self) -> None:
        for side in self.webapp.sides:
            await side.pages.shutdown()
        if self._listening is not None:
            self._listening.close()
        if self._runner is not None:
            await self._runner.cleanup()  # closes the connections still open
            self._runner = None
        if self._listening is not None:
            await self._listening.wait_closed()
            self._listening = None
        logging.getLogger("aiohttp.server").removeFilter(self._malformed)
        loop = asyncio.get_running_loop()
        if loop.get_exception_handler() == self._loop_error:
            loop.set_exception_handler(self._handler)
