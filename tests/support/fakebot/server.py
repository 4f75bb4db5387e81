"""The HTTP side: an aiohttp server on 127.0.0.1 (ephemeral port) speaking the Bot API.

Routes ``/bot{token}/{method}`` like api.telegram.org, to the world of that token's bot (one
server may serve several bots, :meth:`BotApiServer.add`); every request is logged in
``world.calls``, every error response in ``world.errors``; waiters are woken when a request
arrives and when it is answered. ``world.delay`` adds a network round trip to every call: half
before the call is handled, half before its answer goes back.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web

from .errors import ApiError
from .methods import METHODS
from .params import Params
from .world import Call, ErrorRecord, World

_LOGGER = logging.getLogger(__name__)


def _chat_id(value: Any) -> int | str | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


class BotApiServer:
    def __init__(self, world: World) -> None:
        self.worlds = {world.token: world}
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        # shutdown_timeout: a getUpdates parked on a dead connection must not delay stop()
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    def add(self, world: World) -> None:
        """Serve another bot's token too."""
        self.worlds[world.token] = world

    async def stop(self) -> None:
        for world in self.worlds.values():
            world.closing = True  # releases parked long polls
            world.notify()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _handle(self, request: web.Request) -> web.Response:
        world = self.worlds.get(request.match_info["token"])
        name = request.match_info["method"]
        if world is None:
            return _error_response(ApiError(401, "Unauthorized"))
        chat_id: int | str | None = None
        try:
            params = await Params.read(request)
            chat_id = _chat_id(params.raw("chat_id"))
            world.calls.append(Call(name, chat_id, world.clock()))
            world.notify()  # waiters see the call start too (a parked getUpdates, say)
            handler = METHODS.get(name.lower())
            if handler is None:
                world.unknown_methods.append(name)
                raise ApiError(404, "Not Found: method not found")
            if world.delay:  # the network: the request reaches Telegram half a trip later
                await asyncio.sleep(world.delay / 2)
            if name in world.lost:  # lost on the way: no effect, no answer, until the fake stops
                while not world.closing:
                    await world.wait_change(1.0)
                raise ApiError(502, "Bad Gateway")
            result = await handler(world, params)
            if world.delay:  # and its answer reaches the bot half a trip after that
                await asyncio.sleep(world.delay / 2)
        except ApiError as err:
            world.errors.append(ErrorRecord(name, chat_id, err.code, err.description))
            return _error_response(err)
        except Exception as exc:  # a bug in the fake: make it loud in tests, not a hang
            _LOGGER.exception("fake Bot API crashed in %s", name)
            err = ApiError(500, f"Internal Server Error: fake Bot API bug: {exc!r}")
            world.errors.append(ErrorRecord(name, chat_id, err.code, err.description))
            return _error_response(err)
        finally:
            world.notify()
        return web.json_response({"ok": True, "result": result})


def _error_response(err: ApiError) -> web.Response:
    return web.json_response(err.to_json(), status=err.code)
