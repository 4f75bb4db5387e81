"""Closing the live page gives the seat back to the chat: while a seat's page is open its
private picture is not edited; within a few seconds of the page closing, the picture is the
table as it is now, with live buttons for exactly the seat's moves (none when it has none:
not the buttons it answered on the page, which would say "这个按钮已过时"), and a press on
them plays. Through the real bot, the fake Bot API and the page's own socket and API."""

import asyncio
import json
import random

import aiohttp
from support.e2e import action_buttons, hand_message, make_config, running_bot
from support.play import start_hand
from support.webapp import edits_to, free_port, init_data, webapp_config

from bot.i18n import t
from engine import actions as A
from engine import player


async def test_closing_the_page_gives_the_seat_back_to_the_chat(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port))
    async with running_bot(config) as app, aiohttp.ClientSession() as http:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        by_seat = [next(u for u in users if u.id == uid) for uid in record.users]
        auth = {s: init_data(tg.token, u.id, u.first_name) for s, u in enumerate(by_seat)}
        await svc.presenter.idle()
        pages = {}
        for seat, data in auth.items():  # every seat on its page
            pages[seat] = await http.ws_connect(base + "ws")
            await pages[seat].send_str(data)
            assert json.loads((await pages[seat].receive()).data)["my_hand"]
        await asyncio.sleep(0.1)
        held = [edits_to(tg, u) for u in by_seat]
        rng = random.Random(3)

        def open_decision(seat: int):
            d = table.decisions.get(seat)
            unpressed = d is not None and table.pressed.get(seat, (None,))[0] != d.version
            return d if d is not None and d.legal and unpressed else None

        async def play_one() -> None:
            """One move: through its seat's page, or its picture once the page is closed."""
            seat = rng.choice([s for s in table.decisions if open_decision(s)])
            decision = table.decisions[seat]
            view = record.hand.private_view(seat)
            public = [e for e in record.hand.history if e.visible_to is None]
            action = player.choose(view, public, rng)
            if pages[seat].closed:
                user = by_seat[seat]
                msg = hand_message(tg, user)
                data = dict(action_buttons(msg))[A.label(action, "zh")]
                assert (await tg.press(user, msg.message_id, user, data)).text != \
                    t("zh", "stale")
            else:
                async with http.post(base + "api/move", json={
                        "version": decision.version, "index": decision.legal.index(action)},
                        headers={"Authorization": "tma " + auth[seat]}) as r:
                    assert r.status == 200, await r.text()
            await svc.presenter.idle()

        def shows_now(seat: int) -> bool:
            """The seat's picture has exactly its open decision's buttons, of that decision."""
            buttons = action_buttons(hand_message(tg, by_seat[seat]))
            d = open_decision(seat)
            want = sorted(A.label(a, "zh") for a in d.legal) if d else []
            return sorted(text for text, _ in buttons) == want and \
                all(data.split(":")[2] == str(d.version) for _, data in buttons)

        async def play_until(ready) -> None:
            for _ in range(300):
                if ready():
                    return
                assert table.status == "playing"
                await play_one()
            raise AssertionError("never ready")

        # the first seat has played on its page and waits: its picture shows the deal's
        # buttons, answered on the page; its page closes
        await play_until(lambda: len(record.hand.log) >= 4 and not open_decision(0)
                         and any(s == 0 for s, _ in record.hand.log))
        assert [edits_to(tg, u) for u in by_seat] == held  # nothing sent while open
        assert not shows_now(0)
        await pages[0].close()
        # at once, as new buttons are (not after the few seconds a change of the table alone may
        # wait, bot.present.pacing: 3 s and more, while the old buttons answered "stale")
        await tg.wait_for(lambda: shows_now(0), timeout=2.5, what="the first seat's picture")
        assert [edits_to(tg, u) for u in by_seat[1:]] == held[1:]

        # the second seat's page closes while it has a move to make: live buttons
        await play_until(lambda: open_decision(1) and not shows_now(1)
                         and any(s == 1 for s, _ in record.hand.log))
        await pages[1].close()
        await tg.wait_for(lambda: shows_now(1), timeout=2.5, what="the second seat's buttons")
        assert edits_to(tg, by_seat[2]) == held[2]  # the third's page is still open
        for _ in range(10):  # and both play on by their pictures
            if table.status != "playing":
                break
            await play_one()
            assert shows_now(0) and shows_now(1)
        await pages[2].close()
