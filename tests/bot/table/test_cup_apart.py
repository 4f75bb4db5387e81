"""/apart at a 群杯's tables (bot.table.cup_service), without Telegram: the draw parts a pair
an admin keeps apart by a swap the seed fixes, the final card names the swap, and a cup of
one table with such a pair does not start."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.service import Counting

from bot.present.screens.cup import final_text
from bot.store import Store
from bot.table import Person, Refusal, TableService
from bot.table.cup_service import CupService
from bot.table.cups import Cup, draw, standings
from engine.rules import get_rule_set

GROUP = -100
PEOPLE = [Person(20 + k, n, "zh") for k, n in enumerate(("Ann", "Bob", "Cat", "Dan", "Eve",
                                                         "Fay"))]


@pytest.fixture
async def cups(tmp_path) -> AsyncIterator[CupService]:
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    tables = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5, seed=7)
    yield CupService(store, tables)
    await store.close()


async def _signed_up(cups: CupService, people: list[Person]) -> tuple[int, list[int]]:
    """A private cup (its tables in private chats) with ``people`` signed up: (its id, the
    draw's order)."""
    row = await cups.open(GROUP, None, people[0], get_rule_set("qq"), 1, 1, private=True)
    for p in people[1:]:
        await cups.join(row.id, p)
    return row.id, draw(Cup.loads(row.state).seed, [p.user_id for p in people])


async def test_a_six_player_cups_draw_parts_a_pair_kept_apart(cups: CupService) -> None:
    cup_id, order = await _signed_up(cups, PEOPLE)
    a, b = order[0], order[1]  # the draw alone would seat them at the first table
    await cups.store.set_apart(GROUP, a, b, PEOPLE[0].user_id, True)
    await cups.start(GROUP, PEOPLE[0].user_id)
    first, second = (cups.tables.table_of_user(u) for u in (a, b))
    assert first is not None and second is not None and first.id != second.id
    assert {p.user_id for p in first.players.values()} == {a, order[2], order[3]}
    row = await cups.store.cup(cup_id)
    assert row is not None
    cup = Cup.loads(row.state)
    assert cup.swaps == [[1, 3]]
    names = {p.user_id: p.name for p in PEOPLE}
    assert f"第 2 位 {names[b]} ⇄ 第 4 位 {names[order[3]]}" in \
        final_text(row, cup, standings(cup), "zh")


async def test_one_table_with_a_pair_kept_apart_does_not_start(cups: CupService) -> None:
    cup_id, _ = await _signed_up(cups, PEOPLE[:3])
    await cups.store.set_apart(GROUP, PEOPLE[1].user_id, PEOPLE[2].user_id, 1, True)
    with pytest.raises(Refusal, match="cup_apart_one_table"):
        await cups.start(GROUP, PEOPLE[0].user_id)
    row = await cups.store.cup(cup_id)
    assert row is not None and row.status == "signup" and not Cup.loads(row.state).tables
    assert cups.tables.table_of_user(PEOPLE[0].user_id) is None
