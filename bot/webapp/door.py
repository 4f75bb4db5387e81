"""The live seat server's door: how many connections it holds, counted as they are accepted,
before a byte of them is read. At most ``per_peer`` from one address (the operator's proxies,
``WEBAPP_PROXIES``: this machine's ``127.0.0.1``/``::1`` unless set, are not counted so: every
page comes through them, a container's from its network's gateway) and ``total`` in all, a margin under the process's limit of open files (``RLIMIT_NOFILE``, 1,024
under systemd by default) so that the bot's own files and connections (its store, the Bot
API) always find one; any other is closed at once, costing an accept and a close."""

from __future__ import annotations

import asyncio
import ipaddress
import resource
from collections.abc import Callable
from typing import cast

from bot.webapp.limits import Noise

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.1"), ipaddress.ip_network("::1"))
RESERVE = 128  # open files kept for the rest of the bot


def open_files_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def is_proxy(peer: str, proxies: tuple[Network, ...]) -> bool:
    """Whether the address ``peer`` is one of the operator's ``proxies``."""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in proxies)


class Door:
    def __init__(self, noise: Noise, per_peer: int = 64, total: int | None = None,
                 proxies: tuple[Network, ...] = LOOPBACK) -> None:
        self.noise, self.per_peer, self.proxies = noise, per_peer, proxies
        self.total = total if total is not None else max(64, open_files_limit() - RESERVE)
        self._peer_of: dict[object, str] = {}  # the connections let in: their peer
        self._by_peer: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._peer_of)

    def guarding(self, factory: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """``factory`` (aiohttp's server: a protocol each connection) behind the door."""
        return lambda: _Gate(self, factory)

    def admit(self, connection: object, transport: asyncio.BaseTransport) -> bool:
        peername = transport.get_extra_info("peername")
        peer = str(peername[0]) if isinstance(peername, tuple) else ""
        held = self._by_peer.get(peer, 0)
        if len(self._peer_of) >= self.total:
            self.noise.count("connections closed at the door: too many in all")
            return False
        if held >= self.per_peer and not is_proxy(peer, self.proxies):
            self.noise.count("connections closed at the door: too many from one address")
            return False
        self._peer_of[connection] = peer
        self._by_peer[peer] = held + 1
        return True

    def left(self, connection: object) -> None:
        peer = self._peer_of.pop(connection, None)
        if peer is None:
            return
        held = self._by_peer.pop(peer) - 1
        if held > 0:
            self._by_peer[peer] = held


class _Gate(asyncio.Protocol):
    """One connection: closed at once if the door refuses it, else handed to aiohttp's own
    protocol, which is then told everything."""

    def __init__(self, door: Door, factory: Callable[[], asyncio.Protocol]) -> None:
        self.door, self.factory = door, factory
        self.inner: asyncio.Protocol | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self.door.admit(self, transport):
            cast(asyncio.Transport, transport).abort()
            return
        self.inner = self.factory()
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.left(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()
