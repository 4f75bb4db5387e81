"""The page's JSON carries the facts the seat's picture and private result are made of, for
the same view (bot.webapp.view): at every decision of played hands, its 听 after each discard
with the copies unseen (what ``draw_hand`` gives ``render_hand``), its 听 now, the hand's
columns and 坎 as the picture locks them, the marks beside the names, the last public moves;
at the end, how the hand ended and each seat's points with its running total as the private
result writes them. And 再来一局 pressed on the page is checked as the settlement's button is:
a stale settlement's press is refused and changes nothing."""

import random

import pytest
from support.service import Counting, play_as_computer, seated

from bot.present.screens.result import result_text
from bot.present.screens.seat import SeatMarks, Settled, robots_of, seat_model
from bot.present.screens.words import move_log, outcome_lines
from bot.store import Store
from bot.table import Person, TableService, TableStatus
from bot.webapp import press
from bot.webapp.view import AGAIN, seat_view
from engine.rules import table_rules
from engine.ting import ting
from render.hand import hand_columns

PEOPLE = [Person(10 + i, n, "zh") for i, n in enumerate(("A", "B", "C", "D"))]


async def _service(tmp_path, seats: int) -> tuple[Store, TableService]:
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE[:seats]:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    return store, TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5,
                               seed=3, rng=random.Random(3))


@pytest.mark.parametrize(("rule_id", "seats", "seed"), [("qq", 3, 1), ("qq", 3, 2),
                                                         ("hunan", 4, 3)])
async def test_the_pages_json_says_what_the_picture_says(tmp_path, rule_id, seats, seed):
    store, service = await _service(tmp_path, seats)
    rng, ting_after_seen, kans_seen = random.Random(seed), 0, 0
    try:
        table = await seated(service, PEOPLE[:seats], table_rules(rule_id, seats))
        record = table.current
        rules = record.hand.rules
        while table.status == TableStatus.PLAYING:
            marks = SeatMarks(frozenset({1}), robots_of(record))
            for seat in range(seats):
                view = record.hand.private_view(seat)
                page = seat_view(seat_model(table, record, seat, "zh", trustee=marks.trustee))
                picture = ting(rules, view)  # draw_hand's input to render_hand
                assert page["ting_after"] == [
                    {"discard": d, "waits": [{"card": w.card, "unseen": w.unseen} for w in ws]}
                    for d, ws in picture.by_discard]
                assert page["ting"] == [{"card": w.card, "unseen": w.unseen}
                                        for w in picture.waits]
                assert page["columns"] == [[k for k, _ in col] for col in hand_columns(view)]
                assert page["kans"] == list(view.kans)
                assert [s["trustee"] for s in page["seats"]] == \
                    [s in marks.trustee for s in range(seats)]
                assert [s["robot"] for s in page["seats"]] == \
                    [s in marks.robots for s in range(seats)]
                assert page["last"] == move_log(record, "zh")
                ting_after_seen += bool(picture.by_discard)
                kans_seen += bool(view.kans)
            await play_as_computer(service, table, PEOPLE, rng)
        totals = await store.table_totals(table.id)
        for seat in range(seats):
            page = seat_view(seat_model(table, record, seat, "zh", trustee=frozenset(),
                                        settled=Settled(totals)))
            sheet = page["settlement"]
            assert sheet["lines"] == outcome_lines(record, "zh")
            private = result_text(table, record, seat, "zh",
                                  total=totals.get(PEOPLE[seat].user_id, 0), hand_birds=(),
                                  live=False)
            row = sheet["rows"][seat]
            assert row["text"] in private  # his points, parts and running total, word for word
            assert row["points"] == record.hand.outcome.points[seat]
            assert row["signed"] == ("0" if not row["points"] else f"{row['points']:+}")
            assert (row["winner"], row["xing"]) == (seat == record.hand.outcome.winner,
                                                    seat == record.hand.outcome.xing)
            assert sheet["draw"] == (str(record.hand.outcome.kind) == "draw")
    finally:
        await store.close()
    assert kans_seen and ting_after_seen, "the hands never came near 听: pick other seeds"


async def test_again_from_the_page_is_checked_like_the_settlements_button(tmp_path):
    store, service = await _service(tmp_path, 3)
    rng = random.Random(4)
    try:
        table = await seated(service, PEOPLE[:3], table_rules("qq", 3))
        while table.status == TableStatus.PLAYING:
            await play_as_computer(service, table, PEOPLE, rng)
        assert table.status == TableStatus.BETWEEN
        mark = table.current.id
        view = seat_view(seat_model(table, table.current, 0, "zh", trustee=frozenset()))
        again = next(m for m in view["moves"] if m.get("move") == AGAIN)
        assert again["mark"] == mark
        user = PEOPLE[0].user_id
        assert await press.apply(service, table.id, user, "zh", {"move": AGAIN}) \
            == (400, press.t("zh", "webapp_bad_move"))
        status, _ = await press.apply(service, table.id, user, "zh",
                                      {"move": AGAIN, "mark": mark - 1})
        assert status == 409 and not table.players[0].ready  # an old settlement's
        status, _ = await press.apply(service, table.id, user, "zh",
                                      {"move": AGAIN, "mark": mark})
        assert status == 200 and table.players[0].ready
    finally:
        await store.close()
