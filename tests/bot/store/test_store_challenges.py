"""The store's part for 复式挑战 on every backend: a challenge, its players and their moves
read back; one open challenge per group (the schema's index refuses a second); the open
challenges of a user's groups; closing once; a group's upgrade moves its challenges."""

from __future__ import annotations

import pytest
from support.postgres import INTEGRITY_ERRORS

from bot.store import Store
from bot.store.challenges import ChallengeMove
from bot.store.posts import RESERVED, Slot

GROUP = -100


@pytest.fixture
def store(opened_store: Store) -> Store:
    return opened_store


async def test_challenges_read_back_on_every_backend(store: Store) -> None:
    async with store.transaction() as tx:
        cid = await tx.add_challenge(7, GROUP, None, 1, "hunan/3", (5, 2**62), 1000.5, 10.0)
    with pytest.raises(INTEGRITY_ERRORS):  # one open one a group
        async with store.transaction() as tx:
            await tx.add_challenge(7, GROUP, None, 2, "qq", (1,), 2000.0, 11.0)
    row = await store.open_challenge(GROUP)
    assert row is not None and row.id == cid and row.seeds == (5, 2**62)
    assert (row.rules, row.deadline, row.status) == ("hunan/3", 1000.5, "open")
    assert [r.id for r in await store.open_challenges(7)] == [cid]
    assert await store.open_challenges(8) == []
    async with store.transaction() as tx:
        await tx.add_challenge_player(cid, 1, "Ann", "zh", 20.0)
        await tx.add_challenge_player(cid, 2, "Bob", "en", 21.0)
        await tx.add_challenge_move(cid, 1, ChallengeMove(0, 0, "d:x7", True))
        await tx.add_challenge_move(cid, 1, ChallengeMove(0, 1, "pass", False))
        await tx.set_challenge_player(cid, 2, status="left")
        await tx.set_post(Slot.CHALLENGE_CARD, (cid, GROUP), 5)
    assert [(p.user_id, p.name, p.status) for p in
            await store.challenge_players(cid)] == [(1, "Ann", "playing"), (2, "Bob", "left")]
    assert await store.kept(Slot.CHALLENGE_CARD, cid, GROUP) == 5
    assert await store.challenge_moves(cid, 1) == [ChallengeMove(0, 0, "d:x7", True),
                                                   ChallengeMove(0, 1, "pass", False)]
    assert await store.playing_challenge(1) == cid and await store.playing_challenge(2) is None
    assert [r.id for r in await store.user_challenges(1, 5)] == [cid]  # his group's
    assert await store.user_challenges(3, 5) == []
    async with store.transaction() as tx:
        await tx.move_chat(GROUP, GROUP - 1)
    assert await store.open_challenge(GROUP) is None
    async with store.transaction() as tx:
        assert await tx.end_challenge(cid)
        assert not await tx.end_challenge(cid)
    assert await store.open_challenge(GROUP - 1) is None
    assert [r.id for r in await store.unposted_challenges(7)] == [cid]
    async with store.transaction() as tx:
        await tx.set_post(Slot.CHALLENGE_FINAL, (cid, GROUP - 1), RESERVED)  # on its way
    assert await store.unposted_challenges(7) == []
    assert (await store.challenge(cid)).chat_id == GROUP - 1
