"""/season, /stats, /void and /dispute through the real bot and the fake Telegram: two hands
played in a group, their figures in every answer (summed here from the engine's outcomes of
the hands played, never read back from the store), a void that takes the first hand out of
every figure and lets it back into none (after a season is closed and after a restart), a
dispute's fairness check and 复盘 summaries, and every refusal (wrong arguments, a
non-admin, a private chat, a hand of another group or not one's own) changing nothing."""

from __future__ import annotations

import random
from collections import Counter

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from support.forum import open_table, people, play_sensibly
from support.play import press_result

from bot.commands import club, fairplay, stats
from bot.i18n import t
from bot.present import fairness
from bot.store import ClubRow, RankRow, Season
from bot.table import HandRecord, Table
from engine.views import OutcomeKind

FIRST = Season(1, None, 1, None)


def standings(records: list[HandRecord]) -> list[RankRow]:
    """The board of the hands played (qq, no birds), as /rank and /season order it."""
    points: Counter[int] = Counter()
    hands: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    names: dict[int, str] = {}
    for r in records:
        outcome = r.hand.outcome
        assert outcome is not None
        for seat, user in enumerate(r.users):
            names[user] = r.names[seat]
            points[user] += outcome.points[seat]
            hands[user] += outcome.kind != OutcomeKind.DISSOLVED
            wins[user] += seat == outcome.winner
    rows = [RankRow(u, names[u], points[u], hands[u], wins[u]) for u in names]
    return sorted(rows, key=lambda r: (-r.points, -r.wins, r.user_id))


def club_rows(records: list[HandRecord]) -> list[ClubRow]:
    """/stats of single hands: each hand is a match of its own, topped by its best seat."""
    board = {r.user_id: r for r in standings(records)}
    top: Counter[int] = Counter()
    zimo: Counter[int] = Counter()
    huxi: dict[int, int] = {}
    for r in records:
        outcome = r.hand.outcome
        assert outcome is not None
        best = max(outcome.points)
        for seat, user in enumerate(r.users):
            top[user] += best > 0 and outcome.points[seat] == best
        if outcome.win is not None and outcome.winner is not None:
            winner = r.users[outcome.winner]
            zimo[winner] += outcome.win.zimo
            huxi[winner] = max(huxi.get(winner, 0), outcome.win.huxi)
    rows = [ClubRow(u, b.name, b.hands, b.points, top[u], huxi.get(u), zimo[u])
            for u, b in board.items()]
    return sorted(rows, key=lambda r: (-r.points, -r.top, r.user_id))


async def _next_hand(tg: FakeTelegram, app, table: Table, group: FakeChat,  # type: ignore[no-untyped-def]
                     users: list[FakeUser], done: HandRecord) -> None:
    """Every seat presses 再来一局 under his private result: the next hand is dealt."""
    await services(app).presenter.idle()
    for user in users:
        await press_result(tg, user)
    await tg.wait_for(lambda: table.status == "playing" and table.current is not done)


async def test_seasons_stats_a_void_and_a_dispute(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    users = people(tg, "Ann", "Bob", "Cid")
    oda = tg.user("Oda")  # the club's owner: an admin who does not play
    group = tg.group("俱乐部", members=(*users, oda))
    other = tg.group("别的群", members=(*users, oda))
    tg.set_admin(group, oda)
    tg.set_admin(other, oda)
    rng = random.Random(5)

    async def says(user: FakeUser, text: str, chat: FakeChat = group) -> FakeMessage:
        await services(app).presenter.idle()
        return await tg.wait_reply(await tg.send_text(chat, user, text))

    async def refused(user: FakeUser, text: str, key: str, chat: FakeChat = group,
                      **fields: object) -> None:
        answer = await says(user, text, chat)
        assert answer.text == t("zh", key, **fields), (text, answer.text)

    async with running_bot(config, seed=3) as app:
        svc = services(app)
        table, _ = await open_table(tg, app, group, None, users)
        await tg.send_text(group, users[0], "/begin")
        await tg.wait_for(lambda: table.status == "playing")
        first = table.current
        assert first is not None
        await play_sensibly(tg, table, users, rng)
        await _next_hand(tg, app, table, group, users, first)
        second = table.current
        assert second is not None and second.no == 2
        assert any(first.hand.outcome.points)  # type: ignore[union-attr]  # a void to see

        # answered while a hand is being played, from the finished hands alone
        during = await says(users[1], "/stats")
        assert during.photo_bytes is not None and during.photo_bytes[:2] == b"\xff\xd8"
        today = club.StatsQuery(club.TODAY, "qq")
        assert during.caption == club.stats_text(club_rows([first]), today, None, "zh")
        await play_sensibly(tg, table, users, rng)
        both = [first, second]

        season = await says(users[2], "/season")
        assert season.photo_bytes is not None
        assert season.caption == club.season_text(FIRST, standings(both), "qq", "zh")
        week = await says(users[2], "/stats week")
        assert week.caption == club.stats_text(club_rows(both), club.StatsQuery(club.WEEK, "qq"),
                                               None, "zh")

        # refusals: nothing changes
        await refused(users[0], "/void 1 作弊", "club_only_admin")
        await refused(oda, "/void 1", "void_usage")
        await refused(oda, "/void x 作弊", "void_usage")
        await refused(oda, "/void 9 作弊", "club_unknown", no=9)
        await refused(oda, "/void 1 作弊", "club_unknown", chat=other, no=1)  # another group's
        await refused(oda, "/void 1 作弊", "group_only", chat=tg.start_private(oda))
        await refused(users[0], "/stats", "group_only", chat=users[0])
        await refused(users[0], "/stats month", "stats_usage", choices="qq|hunan|four14")
        await refused(users[0], "/season x", "season_usage", choices="qq|hunan|four14",
                      n=club.NAME_MAX)
        await refused(users[0], "/season 4", "season_unknown", no=4)
        await refused(users[0], "/season new", "club_only_admin")
        await refused(oda, "/dispute 1", "dispute_not_seated", no=1)
        await refused(users[0], "/dispute", "dispute_usage")
        await refused(users[0], "/dispute 1", "club_unknown", chat=other, no=1)
        assert (await says(users[0], "/season")).caption == season.caption

        # a dispute: the fairness check at once, then every seat's 复盘
        store = svc.store
        played = (await store.played_hand(first.id))[1]  # type: ignore[index]
        found = fairness.check(played, [])
        assert found.same and found.points == first.hand.outcome.points  # type: ignore[union-attr]
        asked = await says(users[1], "/dispute 1")
        assert asked.text == fairplay.dispute_text(played, found, "Bob", "zh")
        assert "✅" in asked.text and str(first.hand.seed) in asked.text
        reviews = await tg.wait_for(lambda: next(
            (m for m in tg.messages(group) if (m.text or "").startswith("🔍 #1")), None),
            timeout=60)
        assert [line.split(":")[0] for line in reviews.text.splitlines()[1:]] == list(first.names)

        # the void: once, as a whole
        voided = await says(oda, "/void 1 串通作弊")
        assert voided.text == fairplay.void_text(played, "Oda", "串通作弊", "zh")
        await refused(oda, "/void 1 again", "void_already", no=1)
        await _only_the_second_counts(says, store, group, users[0], second, "/season")
        in_season = await says(users[0], "/stats season")
        assert in_season.caption == club.stats_text(
            club_rows([second]), club.StatsQuery(club.SEASON, "qq"), FIRST, "zh")
        history = await says(users[0], "/history")
        assert t("zh", "history_voided", line="", by="Oda", reason="串通作弊").strip() \
            in history.text
        assert stats.STRIKE in history.text.splitlines()[2]  # #1, below #2
        replayed = await says(users[0], "/replay 1")
        assert replayed.photo_bytes is not None  # the record stays, marked voided
        assert t("zh", "replay_voided", reason="串通作弊") in (replayed.caption or "")
        disputed = await says(users[1], "/dispute 1")  # decided: no call for a /void
        assert t("zh", "dispute_voided", reason="串通作弊") in (disputed.text or "")
        assert t("zh", "dispute_decide", no=1) not in (disputed.text or "")

        # a new season: the closed one keeps its figures, without the voided hand
        closed = await says(oda, "/season new 夏季")
        ended = Season(1, None, 1, 2, oda.id, None)
        assert closed.caption is not None and closed.caption.startswith("🏁 第 1 赛季已结束")
        assert (await store.season(group.id, 1)).last_no == 2  # type: ignore[union-attr]
        await refused(oda, "/season new", "season_nothing")
        now = await says(users[0], "/season")
        assert now.caption == club.season_text(Season(2, "夏季", 3, None), [], "qq", "zh")
        old = await says(users[0], "/season 1")
        assert old.caption is not None and old.caption.splitlines()[2:] == club.season_text(
            ended, standings([second]), "qq", "zh").splitlines()[2:]
    async with running_bot(config, seed=3) as app:  # and after a restart
        await _only_the_second_counts(says, services(app).store, group, users[0], second,
                                      "/season 1")


async def _only_the_second_counts(says, store, group: FakeChat, user: FakeUser,  # type: ignore[no-untyped-def]
                                  second: HandRecord, season_command: str) -> None:
    """Every figure is the second hand's alone: /rank, /me's record and card, the season's
    board (of ``season_command``) and /stats of the season."""
    expected = standings([second])
    rank = await says(user, "/rank")
    assert rank.caption == stats.rank_text(expected, "zh", stats.RankQuery("qq", False))
    mine = next(r for r in expected if r.user_id == user.id)
    assert await store.score(user.id, group.id) == (mine.points, mine.hands, mine.wins)
    assert await store.score(user.id) == (mine.points, mine.hands, mine.wins)
    me = await says(user, "/me")
    assert t("zh", "me_chat", points=mine.points, hands=mine.hands, wins=mine.wins,
             rate=stats.win_rate(mine.hands, mine.wins)) in (me.caption or "")
    seat = second.users.index(user.id)
    assert [h.id for h in await store.user_hands(user.id, "qq", 10)] == [second.id]
    assert await store.recent_points([user.id], "qq", group.id) == {
        user.id: [second.hand.outcome.points[seat]]}  # type: ignore[union-attr]
    board = await says(user, season_command)
    assert (board.caption or "").splitlines()[2:] == club.season_text(
        FIRST, expected, "qq", "zh").splitlines()[2:]
