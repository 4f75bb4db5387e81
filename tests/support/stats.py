"""Hands played through the table service in two groups, for the /rank, /me and /history
tests, and the totals those commands must show, summed from the engine's outcomes (never
read back from the store).
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.store import Store
from bot.table import HandRecord, Person, Table, TableService
from engine import player

A, B, C, D = (Person(100 + i, n, "zh") for i, n in enumerate(("Ann", "Bo", "Cy", "Di")))
GROUP_1, GROUP_2 = -100, -200


async def play_all(path: Path) -> list[tuple[int, HandRecord]]:
    """Hands in two groups (Ann and Bo play in both), the last one ended by Di's 逃跑."""
    store = await Store.open(path)
    try:
        for p in (A, B, C, D):
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        recorder = _Settled()
        service = TableService(store, recorder, action_timeout=60, autoplay_delay=1,
                               rng=random.Random(7))
        rng = random.Random(7)
        await _play(service, GROUP_1, (A, B, C), 12, rng)
        first = service.in_chat(GROUP_1)
        assert first is not None
        await service.stop(first.id, A.user_id, is_admin=False)
        await _play(service, GROUP_2, (A, B, D), 3, rng)
        table = service.in_chat(GROUP_2)
        assert table is not None
        for p in (A, B, D):
            await service.again(table.id, p.user_id)
        await service.leave(table.id, D.user_id, table.current.id)  # mid-hand: 逃跑
    finally:
        await store.close()
    return recorder.hands


class _Settled:
    def __init__(self) -> None:
        self.hands: list[tuple[int, HandRecord]] = []

    def changed(self, table: Table) -> None:
        pass

    def settled(self, table: Table, record: HandRecord) -> None:
        self.hands.append((table.chat_id, record))

    def closed(self, table: Table) -> None:
        pass


async def _play(service: TableService, chat: int, people: tuple[Person, ...], hands: int,
                rng: random.Random) -> None:
    table = await service.open(chat, people[0])
    for p in people[1:]:
        await service.join(table.id, p)
    await service.begin(table.id, people[0].user_id)
    for n in range(hands):
        await play_out(service, table, rng)
        if n + 1 < hands:
            for p in people:
                await service.again(table.id, p.user_id)


async def play_out(service: TableService, table: Table, rng: random.Random) -> None:
    """Play the running hand to its end, every seat pressing what the computer player would."""
    while table.status == "playing":
        hand = table.hand
        assert hand is not None
        seat = hand.to_act()[0]
        public = [e for e in hand.history if e.visible_to is None]
        action = player.choose(hand.private_view(seat), public, rng)
        decision = table.decisions[seat]
        await service.act(table.id, table.players[seat].user_id, decision.version,
                          decision.legal.index(action))


def expected_totals(hands: list[tuple[int, HandRecord]], chat: int | None) -> dict[int, list[int]]:
    """user → [points, hands, wins], summed from the outcomes."""
    totals: dict[int, list[int]] = {}
    for c, record in hands:
        if chat is not None and c != chat:
            continue
        outcome = record.hand.outcome
        assert outcome is not None
        for seat, user in enumerate(record.users):
            row = totals.setdefault(user, [0, 0, 0])
            row[0] += outcome.points[seat]
            row[1] += 1
            row[2] += seat == outcome.winner
    return totals
