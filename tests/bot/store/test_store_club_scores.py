"""The club's figures in the store, on each backend: seasons as spans of the group's hands,
club stats, and a void that takes a hand out of every figure once."""

from __future__ import annotations

import sqlite3

import pytest
from support.store import migration_adding, old_database

from bot.store import Span, Store

GROUP, OTHER = -100, -200
A, B, C = 1, 2, 3


@pytest.fixture
async def store(store_url: str):
    s = await Store.open(store_url)
    async with s.transaction() as tx:
        for user, name in ((A, "Ann"), (B, "Bob"), (C, "Cid")):
            await tx.upsert_user(user, name, None, "zh")
    yield s
    await s.close()


async def play(store: Store, chat: int, points: tuple[int, int, int], winner: int | None, *,
               zimo: bool = False, huxi: int | None = None, match: int | None = None,
               table: int | None = None) -> tuple[int, int]:
    """A finished qq hand of the group: (its id, its group number)."""
    async with store.transaction() as tx:
        if table is None:
            table = await tx.create_table(chat, A, 1)
        no = await tx.next_hand_no(chat)
        hand_id = await tx.create_hand(table, no, no, "qq", 7, 0)
        if match is not None:
            await tx.update_hand(hand_id, match_id=match)
        await tx.finish_hand(hand_id, chat, (A, B, C), points, winner, zimo=zimo,
                             huxi=huxi)
        if table is not None:
            await tx.close_table(table, 1)
    return hand_id, no


async def test_a_season_is_a_span_of_the_groups_hands(store: Store) -> None:
    await play(store, GROUP, (10, -5, -5), 0, huxi=15)
    await play(store, GROUP, (-4, 8, -4), 1, zimo=True, huxi=21)
    await play(store, OTHER, (30, -15, -15), 0)  # another group's hand counts in none here
    first = await store.season(GROUP)
    assert first is not None and (first.no, first.first_no, first.last_no) == (1, 1, None)
    rows = await store.season_ranking(GROUP, Span.of(first), "qq")
    assert [(r.user_id, r.points, r.hands, r.wins) for r in rows] == [
        (A, 6, 2, 1), (B, 3, 2, 1), (C, -9, 2, 0)]
    async with store.transaction() as tx:
        closed = await tx.close_season(GROUP, A, "春季")
    assert closed is not None and (closed.no, closed.first_no, closed.last_no) == (1, 1, 2)
    async with store.transaction() as tx:  # an empty season is not closed
        assert await tx.close_season(GROUP, A, None) is None
    await play(store, GROUP, (-2, -2, 4), 2, huxi=10)
    now = await store.season(GROUP)
    assert now is not None and (now.no, now.name, now.first_no, now.last_no) == (2, "春季", 3, None)
    rows = await store.season_ranking(GROUP, Span.of(now), "qq")
    assert [(r.user_id, r.points) for r in rows] == [(C, 4), (A, -2), (B, -2)]
    old = await store.season(GROUP, 1)
    assert old == closed
    assert [(r.user_id, r.points) for r in await store.season_ranking(GROUP, Span.of(old), "qq")
            ] == [(A, 6), (B, 3), (C, -9)]
    assert await store.season(GROUP, 3) is None
    assert [s.no for s in await store.seasons(GROUP)] == [1, 2]
    recent = await store.season_recent(GROUP, Span.of(old), "qq", [A, B])
    assert recent == {A: [10, -4], B: [-5, 8]}
    async with store.transaction() as tx:  # the group becomes a supergroup: its seasons move
        await tx.move_chat(GROUP, GROUP * 10)
    assert await store.seasons(GROUP * 10) == [closed, now]


async def test_club_stats_per_member(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GROUP, A, 1)
        match = await tx.create_match(table, 4)
    await play(store, GROUP, (10, -5, -5), 0, huxi=15, match=match, table=table)
    async with store.transaction() as tx:
        table = await tx.create_table(GROUP, A, 1)
        match = await tx.create_match(table, 4)
    await play(store, GROUP, (-4, 8, -4), 1, zimo=True, huxi=21, match=match, table=table)
    await play(store, GROUP, (-6, 3, 3), 1, huxi=12, match=match, table=table)
    await play(store, GROUP, (1, 1, -2), 0, huxi=9)  # a single hand: a match of its own
    rows = {r.user_id: r for r in await store.club_stats(GROUP, Span(since="2000-01-01"), "qq")}
    assert (rows[A].hands, rows[A].points, rows[A].top, rows[A].huxi, rows[A].zimo) == (
        4, 1, 2, 15, 0)
    assert (rows[B].hands, rows[B].points, rows[B].top, rows[B].huxi, rows[B].zimo) == (
        4, 7, 2, 21, 1)
    assert (rows[C].top, rows[C].huxi) == (0, None)
    assert await store.club_stats(GROUP, Span(since="2999-01-01"), "qq") == []


async def test_stats_and_the_season_count_the_same_points_birds_included(
        store: Store) -> None:
    """/stats and /season give one set of numbers: an onlooker's bird (打鸟) counts in both,
    as points, not as a hand played."""
    await play(store, GROUP, (10, -5, -5), 0, huxi=15)
    birded, _ = await play(store, GROUP, (-12, 24, -12), 1, huxi=18)
    async with store.transaction() as tx:
        await tx.upsert_user(4, "Dot", None, "zh")
        await tx.exec("INSERT INTO birds (table_id, hand_id, user_id) VALUES (1, ?, 4)", birded)
        await tx.settle_bird(birded, GROUP, 4, 1, 6)
    season = await store.season(GROUP)
    assert season is not None
    ranked = {r.user_id: r.points for r in await store.season_ranking(
        GROUP, Span.of(season), "qq")}
    for span in (Span.of(season), Span(since="2000-01-01")):
        stats = await store.club_stats(GROUP, span, "qq")
        assert {r.user_id: r.points for r in stats} == ranked
        dot = next(r for r in stats if r.user_id == 4)
        assert (dot.name, dot.points, dot.hands, dot.top, dot.huxi, dot.zimo) == \
            ("Dot", 6, 0, 0, None, 0)
    assert ranked[4] == 6 and ranked[B] == 19


async def test_a_void_leaves_every_figure_once(store: Store) -> None:
    kept, _ = await play(store, GROUP, (10, -5, -5), 0, huxi=15)
    voided, no = await play(store, GROUP, (-40, 80, -40), 1, zimo=True, huxi=60)
    async with store.transaction() as tx:  # an onlooker's bird (打鸟) followed the winner
        await tx.exec("INSERT INTO birds (table_id, hand_id, user_id) VALUES (1, ?, 4)", voided)
        await tx.settle_bird(voided, GROUP, 4, 1, 20)
    assert await store.score(4, GROUP) == (20, 0, 0)
    async with store.transaction() as tx:
        done = await tx.void_hand(voided, C, "串通")
    assert done is not None and done.no == no and done.points == (-40, 80, -40)
    async with store.transaction() as tx:  # once only
        assert await tx.void_hand(voided, C, "again") is None
    assert await store.score(B, GROUP) == (-5, 1, 0)
    assert await store.scores(4, GROUP) == {} and await store.scores(4) == {}
    assert await store.score(B) == (-5, 1, 0)
    assert [(r.user_id, r.points) for r in await store.ranking(GROUP)] == [(A, 10), (B, -5),
                                                                           (C, -5)]
    season = await store.season(GROUP)
    assert season is not None
    assert {r.user_id: r.points for r in await store.season_ranking(
        GROUP, Span.of(season), "qq")} == {A: 10, B: -5, C: -5}
    stats = {r.user_id: r for r in await store.club_stats(GROUP, Span.of(season), "qq")}
    assert (stats[B].points, stats[B].hands, stats[B].huxi, stats[B].zimo) == (-5, 1, None, 0)
    assert 4 not in stats  # the voided hand's bird left too
    assert await store.best_hand(B) is None
    assert await store.recent_points([B], "qq", GROUP) == {B: [-5]}
    assert [h.id for h in await store.user_hands(B, "qq", 10)] == [kept]
    history = await store.finished_hands(GROUP, 10)
    assert [(h.id, h.voided_by, h.void_reason, h.voider) for h in history] == [
        (voided, C, "串通", "Cid"), (kept, None, None, None)]
    assert (await store.played_hand(voided)) is not None  # the record stays for /replay


async def test_the_migration_reads_a_dissolved_hand_from_its_log(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    old_database(path, migration_adding("CREATE TABLE seasons") - 1)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                   " VALUES (1, -100, 1, 'closed', 1)")
        for hand in (1, 2):
            db.execute("INSERT INTO hands (id, table_id, chat_id, no, table_no, rule_set, seed,"
                       " dealer, status) VALUES (?, 1, -100, ?, ?, 'qq', '1', 0, 'done')",
                       (hand, hand, hand))
            db.execute("INSERT INTO results VALUES (?, 0, 1, 0)", (hand,))
        db.execute("INSERT INTO actions (hand_id, seq, seat, action) VALUES (1, 0, 0, 'pass')")
        db.execute("INSERT INTO actions (hand_id, seq, seat, action)"
                   " VALUES (2, 0, 0, 'dissolve')")
    store = await Store.open(path)
    try:
        rows = await store.season_ranking(-100, Span(), "qq")
        assert [(r.user_id, r.hands) for r in rows] == [(1, 1)]  # the dissolved is no hand
    finally:
        await store.close()
