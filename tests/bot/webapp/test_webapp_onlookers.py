"""A table whose players are all on their live pages: its group picture is for onlookers
alone and follows at ``Pacing.onlooker_pace`` (the moves meanwhile in its caption's log),
the seats' private pictures are not touched; once one page closes, the group's picture is
back at the group's own pace (docs: bot.present.pacing)."""

import asyncio
from dataclasses import replace

import aiohttp
from support.e2e import FAST_PACING, make_config, running_bot
from support.play import start_hand
from support.webapp import free_port, init_data, webapp_config

ONLOOKER = 0.8  # seconds: the onlookers' pace here (the group's own is 0.05)
PICTURES = {"editMessageMedia", "editMessageCaption", "sendPhoto"}


async def test_a_table_on_live_pages_alone_shows_the_group_at_the_onlookers_pace(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    pacing = replace(FAST_PACING, onlooker_pace=ONLOOKER)
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port), pacing=pacing)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        auth = {u.id: "tma " + init_data(tg.token, u.id, u.first_name) for u in users}
        async with aiohttp.ClientSession() as http:
            sockets = []
            for user in users:
                ws = await http.ws_connect(base + "ws")
                await ws.send_str(auth[user.id][4:])
                await ws.receive()  # the seat's view: the page is open
                sockets.append(ws)

            async def move() -> None:
                """The seat whose turn it is makes a move (not a win: the hand goes on)."""
                seat = next(s for s, d in table.decisions.items() if d.legal)
                user = table.current.users[seat]
                async with http.get(base + "api/seat",
                                    headers={"Authorization": auth[user]}) as r:
                    view = await r.json()
                choice = next(m for m in view["moves"]
                              if "index" in m and "胡" not in m["label"])
                async with http.post(base + "api/move", headers={"Authorization": auth[user]},
                                     json={"version": view["version"],
                                           "index": choice["index"]}) as r:
                    assert r.status == 200, await r.text()

            started = tg.world.clock()
            played = 0
            while tg.world.clock() - started < 3 * ONLOOKER and not table.hand.is_terminal():
                await move()
                played += 1
                await asyncio.sleep(0.1)
            assert played >= 10
            edits = [c.time for c in tg.calls if c.method == "editMessageMedia"
                     and c.chat_id == group.id and c.time > started]
            assert edits, "the onlookers' picture still follows the play"
            gaps = [b - a for a, b in zip(edits, edits[1:], strict=False)]
            assert all(gap >= ONLOOKER * 0.9 for gap in gaps), gaps
            assert len(edits) <= 1 + (tg.world.clock() - started) / ONLOOKER
            private = [c for c in tg.calls if c.method in PICTURES and c.time > started
                       and c.chat_id in {u.id for u in users}]
            assert private == [], "no seat's picture is touched while its page is open"

            # one page closes: the group's picture follows at the group's pace again
            await sockets[0].close()
            await tg.wait_for(lambda: not svc.presenter.seats.live.holds(users[0].id))
            await svc.presenter.idle()
            moved = tg.world.clock()
            await move()
            await tg.wait_for(lambda: any(
                c.method == "editMessageMedia" and c.chat_id == group.id and c.time > moved
                for c in tg.calls), timeout=ONLOOKER / 2)
            for ws in sockets[1:]:
                await ws.close()
