"""The live seat's server against strangers, on loopback (no bot needed: nobody is seated):
sockets that do not sign in get two seconds and are capped per address and in all; a
first message, a header or a body too big is refused without a traceback; bad paths are
404; every answer carries the CSP (Telegram's web clients may frame the page) and
``nosniff``; noise is counted into one WARNING now and then."""

import asyncio
import contextlib
import errno
import logging
import socket
import time
from types import SimpleNamespace

import aiohttp
import pytest
from support.webapp import free_port, init_data

from bot.config import ConfigError, _proxies
from bot.webapp.door import LOOPBACK, Door
from bot.webapp.limits import Noise, SignIns
from bot.webapp.server import Server, Side, WebApp

TOKEN = "123456:" + "A" * 35


def _webapp() -> WebApp:
    nobody = SimpleNamespace(table_of_user=lambda user_id: None)
    side = Side(TOKEN, nobody, lambda record: frozenset(), None)  # type: ignore[arg-type]
    return WebApp([side], "/app/", max_age=3600, released=lambda side, user_id: None,
                  default_lang="zh")


@pytest.fixture
async def served():
    port = free_port()
    server = Server(_webapp(), port)
    await server.start()
    try:
        yield server, f"http://127.0.0.1:{port}/app/"
    finally:
        await server.stop()


def _no_tracebacks(caplog) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_headers_and_bad_paths(served, caplog):
    server, base = served
    async with aiohttp.ClientSession() as http:
        for path, status in (("", 200), ("card/5.png", 200), ("card/back.png", 200), ("card/sprite.png", 200),
                             ("card/².png", 404), ("card/%C2%B2.png", 404),
                             ("card/٣.png", 404), ("card/20.png", 404), ("font/../x", 404),
                             ("nope", 404), ("api/nope", 404), ("../etc/passwd", 404),
                             ("api/seat", 401)):
            async with http.get(base + path) as r:
                assert r.status == status, path
                csp = r.headers["Content-Security-Policy"]
                assert "frame-ancestors https://web.telegram.org" in csp, path
                assert "default-src 'self'" in csp
                assert r.headers["X-Content-Type-Options"] == "nosniff", path
        async with http.ws_connect(base + "ws") as ws:  # the handshake too
            assert ws._response.headers["X-Content-Type-Options"] == "nosniff"
    _no_tracebacks(caplog)


async def test_a_header_or_body_too_big_is_refused_quietly(served, caplog):
    server, base = served
    port = int(base.split(":")[2].split("/")[0])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /app/ HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
    await writer.drain()
    assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"HTTP/1.0 400")
    writer.close()
    async with aiohttp.ClientSession() as http, http.post(
            base + "api/move", data=b"x" * 100_000, headers={"Authorization": "tma x"}) as r:
        assert r.status in (401, 413)  # the init data is checked first
    assert server.webapp.noise.counts["malformed requests answered 400"] == 1
    _no_tracebacks(caplog)


async def test_a_silent_socket_is_closed_after_two_seconds(served, caplog):
    server, base = served
    async with aiohttp.ClientSession() as http, http.ws_connect(base + "ws") as ws:
        start = time.monotonic()
        msg = await asyncio.wait_for(ws.receive(), 5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4408
        assert 1.5 < time.monotonic() - start < 3.5
    assert len(server.webapp.sign_ins) == 0
    _no_tracebacks(caplog)


async def test_a_huge_first_message_is_refused(served, caplog):
    server, base = served
    async with aiohttp.ClientSession() as http, http.ws_connect(base + "ws") as ws:
        start = time.monotonic()
        with contextlib.suppress(ConnectionError):  # closed before it was all sent
            await ws.send_str("a" * (4 << 20))
            msg = await asyncio.wait_for(ws.receive(), 5)
            assert msg.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1009
        assert time.monotonic() - start < 1
    assert server.webapp.noise.counts["sockets closed: a first message too big"] == 1
    assert len(server.webapp.sign_ins) == 0
    _no_tracebacks(caplog)


async def test_sockets_waiting_to_sign_in_are_capped_per_address_and_in_all(served, caplog):
    server, base = served
    server.webapp.sign_ins.total = 24
    per_address = server.webapp.sign_ins.per_address
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        async def connect(address: str | None = None) -> aiohttp.ClientWebSocketResponse:
            headers = {"X-Forwarded-For": f"198.51.100.1, {address}"} if address else {}
            return await http.ws_connect(base + "ws", headers=headers)

        mine = [await connect() for _ in range(per_address)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await connect()
        assert refused.value.status == 503
        # another address (as the operator's proxy says) is let in, up to the cap in all
        theirs = [await connect("203.0.113.5") for _ in range(24 - per_address)]
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await connect("203.0.113.6")
        # a page that signs in frees its place at once (refused here: nobody is seated)
        await mine[0].send_str(init_data(TOKEN, 42))
        assert (await asyncio.wait_for(mine[0].receive(), 5)).type == aiohttp.WSMsgType.CLOSE
        assert mine[0].close_code == 4403
        again = await connect()
        for ws in (*mine, *theirs, again):
            await ws.close()
    counted = server.webapp.noise.counts["sockets refused: too many waiting to sign in"]
    assert counted == 2
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1  # the second refusal is counted, not logged
    _no_tracebacks(caplog)


async def test_a_full_file_table_is_counted_not_logged_each_time(served, caplog):
    loop = asyncio.get_running_loop()
    for _ in range(50):
        loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                     "exception": OSError(errno.EMFILE, "Too many open files"),
                                     "socket": socket.socket()})
    server, _ = served
    assert server.webapp.noise.counts["connections not accepted: too many open files"] == 50
    assert len(caplog.records) == 1 and caplog.records[0].levelno == logging.WARNING


def test_noise_is_one_warning_a_kind_a_minute(caplog):
    now = [0.0]
    noise = Noise(logging.getLogger("test"), every=60, clock=lambda: now[0])
    for second in range(180):
        now[0] = float(second)
        noise.count("a")
        noise.count("b")
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 6 and noise.counts == {"a": 180, "b": 180}
    assert said[2].endswith("a (60 since the last report, 61 in all)")


def test_sign_ins_cap():
    sign_ins = SignIns(per_address=2, total=3)
    assert sign_ins.admit("a") and sign_ins.admit("a") and not sign_ins.admit("a")
    assert sign_ins.admit("b") and not sign_ins.admit("c")
    sign_ins.done("a")
    assert sign_ins.admit("c") and len(sign_ins) == 3



class Transport:
    """A connection's transport as the door sees it: its peer's address."""

    def __init__(self, peer: str) -> None:
        self.peer = peer

    def get_extra_info(self, name: str):
        return (self.peer, 4242) if name == "peername" else None


def test_the_door_caps_connections_per_address_but_not_the_proxys():
    door = Door(Noise(logging.getLogger("test")), per_peer=2, total=5)
    a = [object() for _ in range(3)]
    assert [door.admit(c, Transport("198.51.100.7")) for c in a] == [True, True, False]
    proxied = [object() for _ in range(4)]
    assert [door.admit(c, Transport("127.0.0.1")) for c in proxied] == [True] * 3 + [False]
    door.left(a[0])
    door.left(a[2])  # never let in: nothing to forget
    assert door.admit(object(), Transport("198.51.100.7")) and len(door) == 5
    assert door.noise.counts == {
        "connections closed at the door: too many from one address": 1,
        "connections closed at the door: too many in all": 1}


def test_the_door_does_not_cap_the_operators_proxies_per_address():
    """A container's pages all come from its network's gateway (WEBAPP_PROXIES)."""
    proxies = _proxies("172.16.0.0/12, ::1")
    door = Door(Noise(logging.getLogger("test")), per_peer=2, total=10, proxies=proxies)
    assert all(door.admit(object(), Transport("172.18.0.1")) for _ in range(5))
    assert [door.admit(object(), Transport("127.0.0.1")) for _ in range(3)] == [True, True, False]
    assert [door.admit(object(), Transport("")) for _ in range(3)] \
        == [True, True, False]  # no address (a Unix socket): never a proxy


def test_webapp_proxies_are_read_from_the_environment():
    assert _proxies("") == LOOPBACK
    assert [str(n) for n in _proxies("10.0.0.1,192.168.0.0/16 ::1")] \
        == ["10.0.0.1/32", "192.168.0.0/16", "::1/128"]
    with pytest.raises(ConfigError, match="WEBAPP_PROXIES"):
        _proxies("the proxy")
