"""The skill measures in the store, on each backend: the rater folds complete matches (a
match of several hands once it is over, a single hand at once) into the ratings, computer
seats at their table's level as fixed anchors; a void makes it fold the recorded matches
again as they now stand; 复盘 figures add up per season, voided hands left out."""

from __future__ import annotations

import itertools

import pytest

from bot.store import Span, Store
from bot.table.rater import Rater
from bot.table.reviewer import Reviewer
from bot.table.skill import Seat, anchor, fold_all

GROUP = -100
A, B, C = 1, 2, 3
BOT = -1  # a computer player's id


@pytest.fixture
async def store(store_url: str):
    s = await Store.open(store_url)
    async with s.transaction() as tx:
        for user, name in ((A, "Ann"), (B, "Bob"), (C, "Cid"), (BOT, "电脑·小明")):
            await tx.upsert_user(user, name, None, "zh")
    yield s
    await s.close()


async def hand(store: Store, table: int, users: tuple[int, ...], points: tuple[int, ...],
               match: int | None = None, rules: str = "qq") -> int:
    async with store.transaction() as tx:
        no = await tx.next_hand_no(GROUP)
        hand_id = await tx.create_hand(table, no, no, rules, 7, 0)
        if match is not None:
            await tx.update_hand(hand_id, match_id=match)
        await tx.finish_hand(hand_id, GROUP, users, points, None)
    return hand_id


_topics = itertools.count(1)


async def table(store: Store, level: str = "strong") -> int:
    """An open table of the group (each in a topic of its own)."""
    async with store.transaction() as tx:
        table_id = await tx.create_table(GROUP, A, 1, thread_id=next(_topics))
        await tx.update_table(table_id, robot_level=level)
    return table_id


async def ratings(store: Store, rule_set: str = "qq") -> dict[int, tuple[float, float, int]]:
    return {r.user_id: (r.mu, r.sigma, r.matches) for r in await store.skill_ratings(rule_set)}


def expected(matches: list[list[Seat]]) -> dict[int, tuple[float, float, int]]:
    return {u: (r.mu, r.sigma, r.matches) for u, r in fold_all("qq", matches).items()}


async def test_complete_matches_are_folded_once_with_computers_as_anchors(store: Store) -> None:
    rater = Rater(store)
    single = await table(store, "weak")
    await hand(store, single, (A, B, BOT), (20, -5, -15))  # a single hand: a match now
    series = await table(store)
    async with store.transaction() as tx:
        match = await tx.create_match(series, 4)
    await hand(store, series, (A, B, C), (10, -5, -5), match)
    await hand(store, series, (A, B, C), (-30, 15, 15), match)
    assert await rater.catch_up() == 1  # the match is still running
    first = [Seat(A, 20, "weak"), Seat(B, -5, "weak"), Seat(BOT, -15, "weak")]
    assert await ratings(store) == expected([first])
    assert BOT not in await ratings(store)  # an anchor keeps its place: no row, no update
    async with store.transaction() as tx:
        await tx.update_match(match, status="done")
    assert await rater.catch_up() == 1
    second = [Seat(A, -20), Seat(B, 10), Seat(C, 10)]  # B and C tie: one rank
    assert await ratings(store) == expected([first, second])
    assert await rater.catch_up() == 0  # nothing new: nothing folded twice
    assert await Rater(store).catch_up() == 0  # nor by another rater (another bot)
    board = await store.skill_board(GROUP, "qq", 10)
    assert [r.user_id for r in board] == sorted(
        (A, B, C), key=lambda u: -(dict(expected([first, second]))[u][0]
                                   - 3 * dict(expected([first, second]))[u][1]))
    assert await store.skill_board(GROUP * 2, "qq", 10) == []  # nobody played there
    assert anchor("qq", "weak").mu < anchor("qq", "medium").mu < anchor("qq", "strong").mu
    assert anchor("qq", "master") == anchor("qq", "strong")


async def test_a_void_folds_the_recorded_matches_again(store: Store) -> None:
    rater = Rater(store)
    t = await table(store)
    first = await hand(store, t, (A, B, C), (30, -10, -20))
    await hand(store, t, (A, B, C), (-6, 12, -6))
    await rater.catch_up()
    async with store.transaction() as tx:
        assert await tx.void_hand(first, A, "错了") is not None
    assert (await store.skill_state("qq")).stale
    await rater.catch_up()
    assert not (await store.skill_state("qq")).stale
    # as if the voided hand had never been played
    assert await ratings(store) == expected([[Seat(A, -6), Seat(B, 12), Seat(C, -6)]])
    await hand(store, t, (A, B, C), (1, 2, -3))
    await rater.catch_up()
    assert await ratings(store) == expected([[Seat(A, -6), Seat(B, 12), Seat(C, -6)],
                                             [Seat(A, 1), Seat(B, 2), Seat(C, -3)]])


async def test_rule_sets_are_rated_apart(store: Store) -> None:
    t = await table(store)
    await hand(store, t, (A, B, C), (5, 0, -5), rules="hunan/3")
    await Rater(store).catch_up()
    assert await ratings(store, "qq") == {}
    assert set(await ratings(store, "hunan")) == {A, B, C}


async def test_review_figures_add_up_per_season_without_voided_hands(store: Store) -> None:
    t = await table(store)
    kept = await hand(store, t, (A, B, BOT), (5, -5, 0))
    voided = await hand(store, t, (A, B, BOT), (9, -9, 0))
    assert [s for s in await store.unreviewed_seats(0, 0, 10)] == [
        (voided, 0, A), (voided, 1, B), (kept, 0, A), (kept, 1, B)]  # humans, newest first
    async with store.transaction() as tx:
        for hand_id, loss in ((kept, 1.5), (voided, 4.0)):
            await tx.add_seat_review(hand_id, 0, A, 10, loss)
            await tx.add_seat_review(hand_id, 1, B, 8, 0.0)
            await tx.add_seat_review(hand_id, 1, B, 8, 99.0)  # once only
        await tx.void_hand(voided, A, "作废")
    assert await store.unreviewed_seats(0, 0, 10) == []
    season = await store.season(GROUP)
    assert season is not None
    rows = {r.user_id: (r.hands, r.decisions, r.loss)
            for r in await store.season_reviews(GROUP, Span.of(season), "qq")}
    assert rows == {A: (1, 10, 1.5), B: (1, 8, 0.0)}


async def test_a_seat_the_reviewer_cannot_review_is_stored_as_none(store: Store,
                                                                    monkeypatch) -> None:
    t = await table(store)
    await hand(store, t, (A, B, BOT), (5, -5, 0))
    reviewer = Reviewer(store, 0)

    async def broken(record, seat):  # a record the review cannot read
        raise ValueError("not a hand record")
    monkeypatch.setattr(reviewer, "_compute", broken)
    assert await reviewer.catch_up() == 2  # both human seats, never retried
    assert await store.unreviewed_seats(0, 0, 10) == []
    season = await store.season(GROUP)
    assert season is not None
    assert {r.decisions for r in await store.season_reviews(GROUP, Span.of(season), "qq")} \
        == {0}
