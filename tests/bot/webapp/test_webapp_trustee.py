"""The 托管 mark appears on no live page earlier than the group may know it: a seat whose
claim timed out is in 托管 at once, but marking it would tell every seat it had been asked
(what it holds), so the group's picture waits for its next public turn
(``bot.present.screens.seat.trustee_known``). Every view pushed to the three seats' open
pages (the bot's own server) is compared with what the group's picture was drawn with when
it arrived, and so is what the shared server (``python -m bot webapp``,
``bot.webapp.multi.KnownTrustee``) would mark, at every step, from the same table. The seat
itself knows its own 托管 from the first view on, and the others' pages mark it once the
group does."""

from __future__ import annotations

import asyncio
import json

import aiohttp
from support.dealt import EIGHT, ONE_ASKED, deal_from, dealt
from support.fakebot import FakeTelegram
from support.webapp import free_port, init_data, webapp_config

from bot.present.screens.words import last_action
from bot.table import robots
from bot.webapp.multi import KnownTrustee
from engine import actions as A
from engine.state import Hand

TIMER = 3.0  # seconds a decision may take


async def test_no_page_marks_tuoguan_before_the_group_picture(fake_tg: FakeTelegram, tmp_path,
                                                              monkeypatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    decide = robots.decide

    async def passing(hand: Hand, seat: int, level: str = robots.STRONG) -> str:
        """托管 passes on every claim: the window in which only the seat knows it is in 托管
        lasts until its next discard."""
        legal = hand.legal_actions(seat)
        return A.PASS if A.PASS in legal else await decide(hand, seat, level)
    monkeypatch.setattr(robots, "decide", passing)
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    # the dealer's clock runs while the pages open: long enough for a loaded machine
    async with dealt(fake_tg, tmp_path, action_timeout=TIMER, webapp=webapp_config(port)) as d, \
            aiohttp.ClientSession() as http:
        dealer, shang = d.seat(0), d.seat(2)
        record, presenter = d.record, d.svc.presenter
        hand = record.hand
        # (seat, the seats its view marks 托管, the seats the group's picture marks then)
        seen: list[tuple[int, frozenset[int], frozenset[int]]] = []
        shared, shared_seen = KnownTrustee(), []

        async def follow(seat: int, ws: aiohttp.ClientWebSocketResponse) -> None:
            async for msg in ws:
                view = json.loads(msg.data)
                marked = frozenset(s["seat"] for s in view["seats"] if s["trustee"])
                seen.append((seat, marked, presenter.public_trustee(record)))

        pages, readers = [], []
        for seat in range(3):
            user = d.users[seat]
            ws = await http.ws_connect(base + "ws")
            await ws.send_str(init_data(fake_tg.token, user.id, user.first_name))
            pages.append(ws)
            readers.append(asyncio.create_task(follow(seat, ws)))
        await fake_tg.wait_for(lambda: {s for s, _, _ in seen} == {0, 1, 2})

        def public_turn() -> bool:
            return hand.is_terminal() or shang in hand.public_view().to_act \
                or last_action(hand, shang).startswith("d:")

        def step() -> None:
            shared_seen.append((shared.of(d.table, record), presenter.public_trustee(record)))

        await d.press(dealer, A.discard(EIGHT))
        await fake_tg.wait_for(lambda: d.table.players[shang].autoplay,
                               timeout=TIMER + 5)  # his 碰 timed out
        assert not public_turn()
        # every page is told of the table in 托管 before play goes on: he knows it, and
        # the others' views are built while only he may know it
        await fake_tg.wait_for(lambda: any(s == shang and shang in m for s, m, _ in seen),
                               timeout=5, what="his own page marking his 托管")
        since = len(seen)
        await fake_tg.wait_for(lambda: {s for s, _, _ in seen[since:]} >= {dealer, d.seat(1)},
                               timeout=5, what="the other pages told")
        for _ in range(100):
            await d.told()
            step()
            if public_turn():
                break
            for seat, decision in list(d.table.decisions.items()):
                if seat != shang and decision.legal:
                    legal = decision.legal
                    await d.press(seat, A.PASS if A.PASS in legal else legal[0], may_be_late=True)
            await fake_tg.wait_for(lambda: public_turn() or set(hand.to_act()) - {shang})
        await fake_tg.wait_for(lambda: shang in presenter.public_trustee(record), timeout=5)
        step()
        # the pages are told of it: the other seats' views mark him now
        await fake_tg.wait_for(lambda: all(any(s == seat and shang in marked
                                               for s, marked, _ in seen) for seat in range(3)),
                               timeout=5, what="the pages marking 托管")
        for ws in pages:
            await ws.close()
        for task in readers:
            task.cancel()

    before = [(seat, marked) for seat, marked, public in seen if shang not in public]
    for seat, marked, public in seen:
        own = {seat} if seat == shang and d.table.players[shang].autoplay else set()
        assert marked <= public | own, (seat, marked, public)
    # the seat in 托管 knows it from its first view after the timeout on
    assert any(seat == shang and shang in marked for seat, marked in before)
    for marked, public in shared_seen:
        assert marked <= public
    assert shared_seen[-1][0] == frozenset({shang})
