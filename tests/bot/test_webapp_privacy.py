"""No hidden card in the live seat's payload: at every point of played hands, a seat's view
(bot.webapp.view.seat_view) is the same whatever another seat holds face down — the
counterfactual test of tests/engine/test_engine_claim_privacy.py, applied to the app's
messages: one of X's concealed cards is swapped for a card still in the stock, and every
other seat's payload must not change."""

import copy
import random
from dataclasses import replace

from support.service import PEOPLE, Counting, mover, seated

from bot.store import Store
from bot.table import HandRecord, Table, TableService
from bot.webapp.view import seat_view
from engine.state import Hand


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


def views(table: Table, record: HandRecord, seat: int) -> dict:
    return seat_view(table, record, seat, "zh", trustee=frozenset(), seconds_left=None)


async def test_a_seats_payload_never_shows_anothers_hidden_cards(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    service = TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5, seed=11,
                           rng=random.Random(11))
    rng, compared = random.Random(4), 0
    try:
        table = await seated(service)
        while table.status == "playing":
            record = table.current
            for x in range(3):
                cf = counterfactual(record.hand, x, rng)
                if cf is None:
                    continue
                assert cf.private_view(x) != record.hand.private_view(x)  # X's cards differ
                other = replace(record, hand=cf)
                for y in range(3):
                    if y != x:
                        assert views(table, other, y) == views(table, record, y), (x, y)
                        compared += 1
            seat = mover(table)
            decision = table.decisions[seat]
            await service.act(table.id, PEOPLE[seat].user_id, decision.version,
                              rng.randrange(len(decision.legal)))
        assert views(table, table.current, 0)["over"]
    finally:
        await store.close()
    assert compared > 60
