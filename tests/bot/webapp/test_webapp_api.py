"""The live seat's API against the real bot and the fake Bot API: the 🀄 button on the seat
pictures; 401 with an empty body for bad, stale or another bot's init data, on every route
and on the WebSocket (stale: said apart, the page is to be opened again); 403 for a valid user who is not seated; a press checked as a button's;
the card faces; the per-user rate limit."""

import json
import time

import aiohttp
from support.e2e import hand_message, make_config, running_bot
from support.play import start_hand
from support.webapp import free_port, init_data, webapp_config

from bot.i18n import t
from engine import actions as A

OTHER_TOKEN = "999999:" + "Z" * 35


async def test_api_refuses_all_but_the_seated_user(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port))) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        alice = users[0]
        await svc.presenter.idle()
        msg = hand_message(tg, alice)
        assert msg is not None and msg.keyboard[-1] == [(t("zh", "webapp_button"), None)]
        good = init_data(tg.token, alice.id, "Alice")
        bad = {
            "another bot's": init_data(OTHER_TOKEN, alice.id, "Alice"),
            "stale": init_data(tg.token, alice.id, "Alice", auth_date=time.time() - 86401),
            "tampered": good.replace("Alice", "Alicf"),
            "empty": "",
        }
        async with aiohttp.ClientSession() as http:
            async def get(data: str | None, scheme: str = "tma"):
                headers = {} if data is None else {"Authorization": f"{scheme} {data}"}
                async with http.get(base + "api/seat", headers=headers) as r:
                    return r.status, await r.read()

            status, body = await get(good)
            assert status == 200
            view = json.loads(body)
            record = table.current
            own = record.hand.private_view(0)
            assert view["my_hand"] == list(own.hand)
            assert sorted(m["label"] for m in view["moves"]) == \
                sorted(A.label(a, "zh") for a in own.legal)
            for seat in view["seats"]:  # the others' cards: counts only
                assert set(seat) >= {"count", "melds", "discards"} and "hand" not in seat
            for why, data in bad.items():
                assert await get(data) == (401, b""), why
                async with http.post(base + "api/move", data=b'{"version":1,"index":0}',
                                     headers={"Authorization": f"tma {data}"}) as r:
                    assert (r.status, await r.read()) == (401, b""), why
            assert await get(None) == (401, b"")
            assert await get(good, "Bearer") == (401, b"")
            dave = tg.user("Dave")
            status, body = await get(init_data(tg.token, dave.id, "Dave"))
            assert status == 403 and "入座" in json.loads(body)["text"]

            # a press is checked as a button press: an old version, another seat's turn
            seat = next(s for s, d in table.decisions.items() if d.legal)
            other = users[(seat + 1) % 3]
            async with http.post(base + "api/move", json={"version": 10**6, "index": 0},
                                 headers={"Authorization": "tma " + init_data(
                                     tg.token, other.id, other.first_name)}) as r:
                assert r.status == 409
            assert table.decisions[seat].legal  # nothing changed
            async with http.post(base + "api/move", json={"version": "x", "index": 0},
                                 headers={"Authorization": f"tma {good}"}) as r:
                assert r.status == 400

            for why, data in (*bad.items(), ("malformed", "not init data")):
                async with http.ws_connect(base + "ws") as ws:
                    await ws.send_str(data)
                    closed = await ws.receive()
                    assert closed.type == aiohttp.WSMsgType.CLOSE
                    assert ws.close_code == 4401, why
                    # stale: the page is to be opened again from the chat
                    assert closed.extra == ("expired" if why == "stale" else "invalid"), why
                async with http.get(base + "api/seat",
                                    headers={"Authorization": f"tma {data}"}) as r:
                    error = "expired" if why == "stale" else "invalid"
                    assert r.headers["WWW-Authenticate"] == f'tma error="{error}"', why
            async with http.ws_connect(base + "ws") as ws:
                await ws.send_str(init_data(tg.token, dave.id, "Dave"))
                await ws.receive()
                assert ws.close_code == 4403
            async with http.ws_connect(base + "ws") as ws:
                await ws.send_str(good)
                first = json.loads((await ws.receive()).data)
                assert first["my_hand"] == list(own.hand)

            # render/'s card faces and font, to anyone (they are no secret)
            for path, status, kind in (("card/5.png", 200, "image/png"),
                                       ("card/back.png", 200, "image/png"),
                                       ("card/20.png", 404, None), ("card/x.png", 404, None),
                                       ("font/regular.otf", 200, "font/otf"),
                                       ("font/../config.py", 404, None)):
                async with http.get(base + path) as r:
                    assert r.status == status, path
                    assert kind is None or r.content_type == kind
                    if kind == "image/png":
                        assert (await r.read()).startswith(b"\x89PNG")

            # one user's requests are limited; another's are not
            bob = init_data(tg.token, users[1].id, "Bob")
            statuses = [(await get(bob))[0] for _ in range(40)]
            assert statuses[0] == 200 and statuses[-1] == 429
            assert (await get(good))[0] == 200


async def test_no_port_no_server_and_no_button(fake_tg, tmp_path):
    tg = fake_tg
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        msg = hand_message(tg, users[0])
        assert all(data is not None for row in msg.keyboard for _, data in row)
