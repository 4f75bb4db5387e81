"""打鸟 at a table whose rules allow it (hunan, 4 seats: ``RuleSet.birds``).

Anyone in the group who is not seated may place one bird on the next hand, in the lobby or
between hands (press 打鸟 again to withdraw it). It is not a stake raise, as 打鸟 is in the
apps: at the settlement the last stock card names a seat (``engine.birds``) and the bird wins
or loses what that seat does, paid by (or paying) the same seats, so the table stays
zero-sum. A bird has no seat and sees no cards; its onlooker is told only its result privately
(``bot.present.results``).

The store keeps every bird: placed for a table's next deal, bound to the hand in the deal's
transaction (those of users seated since are dropped), and given the seat it followed and
its points in the settlement's transaction, where the seats' results include what they
paid or got from the birds. A bird's points count in the group's leaderboard of the rule
set, as a bird (``scores.birds``), not as a hand played or won.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import BirdRow, Store, Tx
from bot.table.model import HandRecord, Refusal, Table, TableStatus
from engine.birds import bird_seat, settle_birds
from engine.points import SeatPoints, hand_points
from engine.state import Hand

# before a deal: in the lobby, between hands
OPEN_STATUSES = frozenset({TableStatus.LOBBY, TableStatus.BETWEEN})


def check_may_place(table: Table, mark: int, latest: int, user_id: int) -> None:
    """Refuse a bird politely to a seated player, and as outdated for a button of another
    hand than the table's ``latest`` or once the deal has begun."""
    if not table.rules.birds or table.status not in OPEN_STATUSES or mark != latest:
        raise Refusal("stale")
    if table.seat_of(user_id) is not None:
        raise Refusal("bird_seated")


async def deal(tx: Tx, table: Table, hand_id: int) -> None:
    """The hand ``hand_id`` is being dealt: the waiting birds follow it, if its rules allow."""
    seated = [p.user_id for p in table.players.values()]
    await tx.deal_birds(table.id, hand_id, seated, table.rules.birds)


async def settle(tx: Tx, chat_id: int, record: HandRecord) -> tuple[int, ...]:
    """Settle the birds of a finished hand (each gets its seat's result) and return the
    seats' points with what they paid to or got from the birds."""
    outcome = record.hand.outcome
    assert outcome is not None
    users = await tx.bird_users(record.id)
    if not users or outcome.bird_card is None:
        return outcome.points
    rules, dealer = record.hand.rules, record.hand.dealer
    each, _ = settle_birds(rules, outcome, dealer, len(users))
    seat = bird_seat(rules, dealer, outcome.bird_card)
    for user_id in users:
        await tx.settle_bird(record.id, chat_id, user_id, seat, each)
    return tuple(p.total for p in hand_points(rules, outcome, dealer, len(users)))


def seat_points(record: HandRecord, birds: Sequence[BirdRow]) -> tuple[SeatPoints, ...]:
    """The seats' points of a finished hand as recorded (:mod:`engine.points`): with its
    settled ``birds``."""
    return _points(record.hand, birds)


def _points(hand: Hand, birds: Sequence[BirdRow]) -> tuple[SeatPoints, ...]:
    outcome = hand.outcome
    assert outcome is not None
    settled = sum(b.points is not None for b in birds)
    return hand_points(hand.rules, outcome, hand.dealer, settled)


async def waiting(store: Store, table: Table) -> list[BirdRow]:
    """The birds placed on the table's next hand (none when its rules have no 打鸟), without
    those of players seated since: they are dropped at the deal."""
    if not table.rules.birds:
        return []
    return [b for b in await store.waiting_birds(table.id) if table.seat_of(b.user_id) is None]
