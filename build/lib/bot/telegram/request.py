"""The bot's HTTP client for the Bot API: PTB's request interface over aiohttp (already the
live seat's server), in place of PTB's default over httpx.

Why: every Bot API call through httpx leaves ~40 objects in reference cycles (its response,
streams, headers, URLs), which only the garbage collector's full passes free, and those stop
the event loop for 100-300 ms at a few hundred tables (``bench/bench_load.py``: with the
collector off, a move reached the other live pages in 64 ms at the 99th percentile instead of
196). aiohttp leaves next to none. PTB's own wrapper (``BaseRequest.post``) still turns the
answers into results and errors; here only the transport errors are mapped, as PTB's httpx
request does: a timeout to ``TimedOut``, anything else on the way to ``NetworkError``.

Every call is counted by method and outcome and timed (:mod:`bot.metrics`); the time of the
last call answered is kept for ``/healthz`` (a getUpdates answered: updates can arrive)."""

from __future__ import annotations

import time

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.metrics import BOT_API_CALLS, BOT_API_SECONDS, outcome

# PTB's own defaults (HTTPXRequest): seconds
READ, WRITE, CONNECT, POOL, MEDIA_WRITE = 5.0, 5.0, 5.0, 1.0, 20.0


class AiohttpRequest(BaseRequest):
    """One pool of ``connections`` to the Bot API (PTB's default: 256 for the bot's calls, 1
    for getUpdates)."""

    def __init__(self, connections: int = 256) -> None:
        self._connections = connections
        self._session: aiohttp.ClientSession | None = None
        self.answered_at: float | None = None  # time.monotonic() of the last 2xx answer

    @property
    def read_timeout(self) -> float:
        return READ

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._connections),
                headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("this AiohttpRequest is not initialized")
        files = request_data.multipart_data if request_data is not None else None
        read = _given(read_timeout, READ)
        write = _given(write_timeout, MEDIA_WRITE if files else WRITE)
        connect = _given(connect_timeout, CONNECT)
        pool = _given(pool_timeout, POOL)
        # aiohttp times the connection (from the pool, then opened) and each read; sending
        # the body has no timer of its own: the whole call is bounded by all of them
        timeout = aiohttp.ClientTimeout(
            total=None if None in (read, write, connect, pool) else
            read + write + connect + pool,  # type: ignore[operator]
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect, sock_read=read)
        api_method, status = url.rpartition("/")[2], None
        started = time.monotonic()
        try:
            async with self._session.request(method, url, data=_body(request_data),
                                             timeout=timeout) as response:
                body = await response.read()
                status = response.status
                return status, body
        except (TimeoutError, aiohttp.ServerTimeoutError) as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error
        finally:
            ended = time.monotonic()
            BOT_API_CALLS.labels(api_method, outcome(status)).inc()
            BOT_API_SECONDS.labels(api_method).observe(ended - started)
            if status is not None and 200 <= status < 300:
                self.answered_at = ended


def _given(value: object, default: float) -> float | None:
    """A timeout the call gave (None: none), or the default when it gave none."""
    return default if value is BaseRequest.DEFAULT_NONE else value  # type: ignore[return-value]


def _body(request_data: RequestData | None) -> aiohttp.FormData | dict[str, str] | None:
    """The call's parameters: a form, with its files as parts when it sends any."""
    if request_data is None:
        return None
    files = request_data.multipart_data
    if not files:
        return request_data.json_parameters
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mime) in files.items():
        form.add_field(name, content, filename=filename, content_type=mime)
    return form
