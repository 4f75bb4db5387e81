"""No hidden card in the live seat's payload: at every point of played hands, a seat's view
(bot.webapp.view.seat_view) is the same whatever another seat holds face down — the
counterfactual test of tests/engine/test_engine_claim_privacy.py, applied to the app's
messages: one of X's concealed cards is swapped for a card still in the stock, and every
other seat's payload (the 醒家's too, at a four-seat 湖南 table) must not change. Every rule
set and seat count, two deals each. Its 听 (after each discard too) is its own view's, and its
clocks name no seat asked about a claim: only its own and a discard's, which the table sees."""

import copy
import random
from dataclasses import replace

import pytest
from support.service import Counting, seated

from bot.present.screens.seat import clocks, seat_model
from bot.store import Store
from bot.table import HandRecord, Person, Refusal, Table, TableService
from bot.webapp.view import seat_view
from engine.rules import table_rules
from engine.state import Hand

PEOPLE = [Person(10 + i, n, "zh") for i, n in enumerate(("A", "B", "C", "D"))]
SHAPES = [("qq", 3), ("hunan", 4), ("hunan", 3), ("hunan", 2), ("four14", 4)]


def counterfactual(hand: Hand, x: int, rng: random.Random) -> Hand | None:
    """The hand with one of seat ``x``'s concealed cards swapped for another kind in the
    stock; None when there is no such pair."""
    seat = hand._seats[x]
    pairs = [(a, b) for a, n in enumerate(seat.hand) if 0 < n < 3
             for b in set(hand._stock) if b != a and seat.hand[b] < 2]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    cf = copy.deepcopy(hand)
    cf._seats[x].hand[a] -= 1
    cf._seats[x].hand[b] += 1
    cf._stock[cf._stock.index(b)] = a
    return cf


def views(service: TableService, table: Table, record: HandRecord, seat: int) -> dict:
    return seat_view(seat_model(table, record, seat, "zh", trustee=frozenset(),
                                clocks=clocks(service, table, record, seat)))


async def play_one(service: TableService, table: Table, people: list[Person],
                   rng: random.Random) -> None:
    """One seat with a decision presses a random move; a claim a higher one has taken by
    then is refused, and another seat's decision is played instead."""
    deciding = [s for s, d in table.decisions.items() if d.legal]
    rng.shuffle(deciding)
    for seat in deciding:
        decision = table.decisions[seat]
        try:
            await service.act(table.id, people[seat].user_id, decision.version,
                              rng.randrange(len(decision.legal)))
            return
        except Refusal:
            continue
    raise AssertionError(f"no seat could play: {deciding}")


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize(("rule_id", "seats"), SHAPES)
async def test_a_seats_payload_never_shows_anothers_hidden_cards(tmp_path, rule_id, seats,
                                                                   seed):
    store = await Store.open(tmp_path / "db.sqlite3")
    people = PEOPLE[:seats]
    for p in people:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    service = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5, seed=seed,
                           rng=random.Random(seed))
    rng, compared = random.Random(seed), 0
    try:
        table = await seated(service, people, table_rules(rule_id, seats))
        while table.status == "playing":
            record = table.current
            for x in range(seats):
                cf = counterfactual(record.hand, x, rng)
                if cf is None:
                    continue
                assert cf.private_view(x) != record.hand.private_view(x)  # X's cards differ
                other = replace(record, hand=cf)
                for y in range(seats):
                    if y != x:
                        assert views(service, table, other, y) == \
                            views(service, table, record, y), (x, y)
                        compared += 1
            to_act = set(record.hand.public_view().to_act)
            for y in range(seats):
                assert set(clocks(service, table, record, y).seats) <= {y} | to_act
            await play_one(service, table, people, rng)
        assert views(service, table, table.current, 0)["over"]
    finally:
        await store.close()
    assert compared > 20 * (seats - 1)
