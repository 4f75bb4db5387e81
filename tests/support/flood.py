"""A stranger's flood of the live seat's server (bot.webapp.server): ``size`` WebSockets from
an address of their own on loopback (``127.0.0.2``: Linux answers all of 127/8) that finish
the handshake and never sign in; each one closed or refused is opened again after ``pause``
seconds, so the server is offered ``size`` silent sockets all the time. And a seated
user's page opened meanwhile, timed: the page, its WebSocket, its first view."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from dataclasses import dataclass, field

import aiohttp

STRANGER = "127.0.0.2"


@dataclass
class Flood:
    url: str  # the server's ws address
    size: int = 1100
    pause: float = 1.0
    source: str = STRANGER
    opened: int = 0  # handshakes that went through
    refused: int = 0  # answered 503 (or another refusal of the handshake)
    failed: int = 0  # connections that failed (reset, refused by the kernel…)
    held: int = 0  # open now
    most_held: int = 0
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, local_addr=(self.source, 0)),
            timeout=aiohttp.ClientTimeout(total=None, connect=10))
        self._tasks = [asyncio.create_task(self._one()) for _ in range(self.size)]

    async def _one(self) -> None:
        assert self._session is not None
        while True:
            try:
                async with self._session.ws_connect(self.url, heartbeat=None,
                                                    autoping=True) as ws:
                    self.opened += 1
                    self.held += 1
                    self.most_held = max(self.most_held, self.held)
                    try:
                        await ws.receive()  # silent until the server closes it
                    finally:
                        self.held -= 1
            except aiohttp.WSServerHandshakeError:
                self.refused += 1
            except (TimeoutError, aiohttp.ClientError, OSError):
                self.failed += 1
            await asyncio.sleep(self.pause)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._session is not None:
            await self._session.close()

    def figures(self) -> str:
        return (f"{self.opened} handshakes, {self.refused} refused, {self.failed} failed, "
                f"at most {self.most_held} held at once")


async def open_page(base: str, init_data: str, timeout: float = 30.0) -> float:
    """Seconds for a seated user's page to open under the flood: the page itself, then its
    WebSocket signed in and the seat's first view (raises if it does not)."""
    start = time.monotonic()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http:
        async with http.get(base) as r:
            assert r.status == 200, r.status
            await r.read()
        while True:  # the page reconnects after a refusal, as index.html does
            try:
                async with http.ws_connect(base + "ws") as ws:
                    await ws.send_str(init_data)
                    msg = await ws.receive()
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        assert msg.data.startswith("{"), msg.data[:40]
                        return time.monotonic() - start
            except aiohttp.WSServerHandshakeError:
                pass
            if time.monotonic() - start > timeout:
                raise TimeoutError("the page did not open")
            await asyncio.sleep(0.5)


@dataclass
class BigFirstMessages:
    """``size`` sockets at a time from the stranger's address, each sending a first message
    of 4 MiB (just under aiohttp's default limit), over and over."""

    url: str
    size: int = 40
    sent: int = 0  # sent whole
    cut: int = 0  # cut short by the server
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, local_addr=(STRANGER, 0)))
        self._tasks = [asyncio.create_task(self._one()) for _ in range(self.size)]

    async def _one(self) -> None:
        assert self._session is not None
        big = "a" * ((4 << 20) - 1024)
        while True:
            try:
                async with self._session.ws_connect(self.url) as ws:
                    try:
                        await ws.send_str(big)
                    except ConnectionError:
                        self.cut += 1
                        continue
                    self.sent += 1
                    await asyncio.wait_for(ws.receive(), 15)
            except (TimeoutError, aiohttp.ClientError, OSError):
                await asyncio.sleep(0.1)

    stop = Flood.stop

    def figures(self) -> str:
        return f"first messages of 4 MiB: {self.sent} sent whole, {self.cut} cut short"


class FloodProcess:
    """A flood in a process of its own (``python tests/support/flood.py URL SIZE [big]``), so
    that its sockets do not slow the page being timed in this one; stopped by closing its
    stdin, it prints its figures."""

    def __init__(self, url: str, size: int = 1100, big: bool = False) -> None:
        self.url, self.size, self.big = url, size, big
        self.proc: asyncio.subprocess.Process | None = None
        self.figures = ""

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, self.url, str(self.size), *(["big"] if self.big else []),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)

    async def stop(self) -> str:
        if self.proc is not None and self.proc.returncode is None:
            try:
                out, _ = await asyncio.wait_for(self.proc.communicate(b""), 20)
                self.figures = out.decode().strip()
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
                self.figures = "(did not stop: killed)"
        return self.figures


async def _main(url: str, size: int, big: bool) -> None:
    flood = BigFirstMessages(url, size) if big else Flood(url, size=size)
    await flood.start()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the parent closes it
    await flood.stop()
    print(flood.figures())


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), sys.argv[3:] == ["big"]))
