"""The bot's Bot API client (bot.telegram.request): a call's parameters and files arrive as
PTB's own client sends them, a server that does not answer in time is ``TimedOut``, one that
cannot be reached a ``NetworkError``, and a call leaves no garbage in reference cycles."""

import asyncio
import gc

import pytest
from aiohttp import web
from support.webapp import free_port
from telegram import InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.telegram.request import AiohttpRequest


def call(**parameters: object) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in parameters.items()])


@pytest.fixture
async def server():
    seen: list[dict[str, object]] = []

    async def method(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name == "slow":
            await asyncio.sleep(2)
        if name == "quiet":  # read, not parsed: no garbage of the server's own
            await request.read()
            return web.json_response({"ok": True, "result": True})
        form = await request.post()
        seen.append({k: (v.file.read(), v.filename, v.content_type) if hasattr(v, "file")
                     else v for k, v in form.items()})
        return web.json_response({"ok": True, "result": True})

    app = web.Application()
    app.router.add_post("/{name}", method)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}/", seen
    await runner.cleanup()


async def test_parameters_and_files_arrive_and_errors_are_ptbs(server):
    base, seen = server
    request = AiohttpRequest()
    await request.initialize()
    try:
        status, body = await request.do_request(base + "sendMessage", "POST",
                                                call(chat_id=5, text="碰 五"))
        assert status == 200 and b'"ok": true' in body
        assert seen[-1] == {"chat_id": "5", "text": "碰 五"}
        photo = InputFile(b"\xff\xd8jpeg", filename="hand.jpg")
        await request.do_request(base + "sendPhoto", "POST", call(chat_id=5, photo=photo))
        assert seen[-1]["chat_id"] == "5"
        assert seen[-1]["photo"] == (b"\xff\xd8jpeg", "hand.jpg", "image/jpeg")
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(20):
                await request.do_request(base + "quiet", "POST", call(chat_id=5, photo=photo))
            gc.collect()
            assert len(gc.garbage) < 20, "a call leaves its objects to the collector"
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        with pytest.raises(TimedOut):
            await request.do_request(base + "slow", "POST", call(chat_id=5), read_timeout=0.2)
        with pytest.raises(NetworkError):
            await request.do_request(f"http://127.0.0.1:{free_port()}/x", "POST", call(a=1))
    finally:
        await request.shutdown()
