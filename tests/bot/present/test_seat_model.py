"""One seat model, two faces: the same :class:`bot.present.screens.seat.SeatModel` drawn to
the private picture (what ``draw_hand`` hands ``render_hand``, the caption with its clock, the
keyboard) and written to the live page's JSON (``bot.webapp.view.seat_view``) says the same
facts — the 听 after each discard with the copies unseen, the 坎, the 托管 and 电脑 marks,
the clock, the presses (label, decision, entry) and, once the hand is over, the settlement's
parts and running totals as the private result writes them. Played through the table
service with a clock the test moves, so that seats time out into 托管 (and one takes back)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from support.service import Counting, play_as_computer, seated

from bot.i18n import t
from bot.present.screens import seat as seat_screen
from bot.present.screens.result import result_text
from bot.present.screens.seat import (
    SeatModel,
    Settled,
    clocks,
    draw_hand,
    seat_model,
    trustee_known,
    with_clock,
)
from bot.present.screens.seat_keys import keyboard
from bot.store import Store
from bot.table import Person, TableService, TableStatus
from bot.webapp.view import seat_view
from engine.rules import table_rules
from engine.ting import ting

PEOPLE = [Person(10 + i, n, "zh") for i, n in enumerate(("A", "B", "C", "D"))]
CLOCK = re.compile(r"还剩 (\d+) 秒")


def picture_inputs(model: SeatModel, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What the private picture is made of: ``render_hand``'s arguments as ``draw_hand``
    gives them (the seat's 听 computed there when the model leaves it), and the caption with
    its clock and the keyboard as the picture's message carries them."""
    drawn: dict[str, Any] = {}

    def render_hand(view, names, lang, **marks):  # type: ignore[no-untyped-def]
        drawn.update(view=view, names=names, **marks)
        return b""
    monkeypatch.setattr(seat_screen, "render_hand", render_hand)
    draw_hand(model.view, model.record.names, model.lang, model.marks, model.record.hand.rules,
              model.ting)
    drawn["caption"] = "\n".join(with_clock([model.caption()], model.seconds_left, model.lang))
    drawn["keyboard"] = keyboard(model.table.id, model.presses, model.lang) \
        if model.table.status == TableStatus.PLAYING else None
    return drawn


def the_same_facts(model: SeatModel, monkeypatch: pytest.MonkeyPatch) -> None:
    picture, page = picture_inputs(model, monkeypatch), seat_view(model)
    view, seat = model.view, model.seat
    assert picture["view"] == view and page["my_hand"] == list(view.hand)
    # 听: what the picture badges, with the copies unseen
    shown = picture["ting"]
    if shown is None:
        assert page["ting"] is None and page["ting_after"] is None
    else:
        assert shown == ting(model.record.hand.rules, view)  # the seat's own, as computed fresh
        assert page["ting"] == [{"card": w.card, "unseen": w.unseen} for w in shown.waits]
        assert page["ting_after"] == [
            {"discard": d, "waits": [{"card": w.card, "unseen": w.unseen} for w in ws]}
            for d, ws in shown.by_discard]
    # 坎, and the marks beside the names
    assert page["kans"] == list(picture["view"].kans)
    assert {s["seat"] for s in page["seats"] if s["trustee"]} == picture["trustee"]
    assert {s["seat"] for s in page["seats"] if s["robot"]} == picture["robots"]
    # the clock: the caption's, the page's own
    caption, _, clock = picture["caption"].rpartition("\n")
    if CLOCK.fullmatch(clock):
        assert (page["status"], page["seconds_left"]) == (caption, int(clock.split()[1]))
    else:
        assert (page["status"], page["seconds_left"]) == (picture["caption"], None)
    # the presses: the keyboard's buttons (提示 and 解散 are the chat's) and the page's moves
    buttons = [(b.text, b.callback_data) for row in (picture["keyboard"].inline_keyboard
                                                     if picture["keyboard"] else ())
               for b in row if b.text not in (t("zh", "btn_hint"), t("zh", "btn_dissolve"))]
    moves = [m for m in page["moves"] if m.get("move") != "again"]
    assert [text for text, _ in buttons] == [m["label"] for m in moves]
    for (_, data), move in zip(buttons, moves, strict=True):
        if "index" in move:
            assert data == f"a:{model.table.id}:{page['version']}:{move['index']}"
        else:
            assert data == f"m:{model.table.id}" and move["move"] == "takeback"
    assert seat in {s["seat"] for s in page["seats"]}


@pytest.mark.parametrize(("rule_id", "seats", "seed"), [("qq", 3, 1), ("hunan", 4, 3)])
async def test_the_picture_and_the_page_say_the_same(tmp_path, monkeypatch, rule_id, seats,
                                                     seed):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE[:seats]:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    now = [1000.0]
    service = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5, seed=seed,
                           rng=random.Random(seed), clock=lambda: now[0])
    rng, seen = random.Random(seed), {"trustee": 0, "kans": 0, "ting": 0, "clock": 0,
                                     "takeback": 0}
    try:
        table = await seated(service, PEOPLE[:seats], table_rules(rule_id, seats))
        record = table.current
        known: frozenset[int] = frozenset()
        steps = 0
        while table.status == TableStatus.PLAYING:
            known = trustee_known(table, record, known)
            for seat in range(seats):
                model = seat_model(table, record, seat, "zh", trustee=known,
                                   clocks=clocks(service, table, record, seat))
                the_same_facts(model, monkeypatch)
                page = seat_view(model)
                seen["trustee"] += any(s["trustee"] for s in page["seats"])
                seen["kans"] += bool(page["kans"])
                seen["ting"] += bool(page["ting_after"])
                seen["clock"] += page["seconds_left"] is not None
                seen["takeback"] += any(m.get("move") == "takeback" for m in page["moves"])
            steps += 1
            now[0] += 1.0
            if steps % 9 == 4:  # nobody moves: the seats asked time out into 托管
                now[0] += 61
                await service.play_due(table.id)
                continue
            if steps % 9 == 7:  # a seat in 托管 takes back
                back = next((s for s, p in table.players.items() if p.autoplay), None)
                if back is not None:
                    await service.take_back(table.id, PEOPLE[back].user_id)
                    continue
            await play_as_computer(service, table, PEOPLE, rng, now)
        totals = await store.table_totals(table.id)
        for seat in range(seats):
            model = seat_model(table, record, seat, "zh", trustee=known,
                               clocks=clocks(service, table, record, seat),
                               settled=Settled(totals))
            the_same_facts(model, monkeypatch)
            sheet = seat_view(model)["settlement"]
            private = result_text(table, record, seat, "zh",
                                  total=totals.get(PEOPLE[seat].user_id, 0), hand_birds=(),
                                  live=True)
            for line in sheet["lines"]:
                assert line in private
            assert sheet["rows"][seat]["text"] in private  # points, parts, running total
            assert sheet["again_seconds"] is not None  # the page counts down to 再来一局
    finally:
        await store.close()
    assert all(seen.values()), seen
