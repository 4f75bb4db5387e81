"""The skill measures end to end (docs/club_scores.md): a season of simulated matches — a
player made to play like the strong computer, another like the weak one, against each other
and against computers of every level — rated by the running bot; /me shows the rating, /rank
技术 the board, a /void keeps the ratings the fold of the stored matches; and the 复盘 figures
computed in the background make /season 技术's board."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.season import POSTED, close, open_table, play_out, store_hand

from bot.commands import skill
from bot.store import Store
from bot.table.skill import Seat, anchor, fold_all, shown

LEVELS = ("weak", "medium", "strong")
HANDS = 4  # a match's hands
MATCHES = 36


def _lineup(m: int) -> tuple[str, list[tuple[str, str]]]:
    """Match ``m``'s table level and seats, as (who, the level he decides as): in turn Sam
    and Wes with a computer of each level in turn, Sam with two strong computers, Wes with two
    weak ones. Sam decides as the strong computer, Wes as the weak one."""
    kind, level = m % 3, LEVELS[(m // 3) % 3]
    return [(level, [("sam", "strong"), ("wes", "weak"), ("cpu1", level)]),
            ("strong", [("sam", "strong"), ("cpu1", "strong"), ("cpu2", "strong")]),
            ("weak", [("wes", "weak"), ("cpu1", "weak"), ("cpu2", "weak")])][kind]


async def _season(store: Store, group: int, ids: dict[str, int]) -> list[tuple[int, ...]]:
    """The season's matches of 4 hands, played out on two worker processes, then stored as
    the bot stores them; the hands' points, by group hand number from 1."""
    rng = random.Random(1)
    jobs = []
    for m in range(MATCHES):
        seats = _lineup(m)[1]
        for h in range(HANDS):
            turn = (m + h) % 3
            order = seats[turn:] + seats[:turn]
            jobs.append((m, [who for who, _ in order], rng.getrandbits(63), h % 3,
                         [lv for _, lv in order]))
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        hands = await asyncio.gather(*(loop.run_in_executor(pool, play_out, seed, dealer, lv)
                                       for _, _, seed, dealer, lv in jobs))
    tables = {level: await open_table(store, group, ids["sam"], level) for level in LEVELS}
    played: list[tuple[int, ...]] = []
    for m in range(MATCHES):
        table = tables[_lineup(m)[0]]
        async with store.transaction() as tx:
            match = await tx.create_match(table, HANDS)
        for (_, who, *_), hand in zip(jobs[m * HANDS:(m + 1) * HANDS],
                                      hands[m * HANDS:(m + 1) * HANDS], strict=True):
            hand_id = await store_hand(store, group, table, [ids[w] for w in who], hand)
            async with store.transaction() as tx:
                await tx.update_hand(hand_id, match_id=match)
            assert hand.outcome is not None
            played.append(hand.outcome.points)
        async with store.transaction() as tx:
            await tx.update_match(match, status="done", summary_msg_id=POSTED)
    await close(store, list(tables.values()))
    return played


async def test_a_season_rates_the_strong_player_near_the_strong_computer(
        tg: FakeTelegram, tmp_path) -> None:
    sam, wes, ada = (tg.user(n, language_code="zh-hans") for n in ("Sam", "Wes", "Ada"))
    group = tg.group("技术群", members=(sam, wes, ada))
    tg.set_admin(group, ada)
    db = tmp_path / "db.sqlite3"
    store = await Store.open(f"sqlite://{db}")
    async with store.transaction() as tx:
        for user in (sam, wes, ada):
            await tx.upsert_user(user.id, user.first_name, None, "zh")
    played = await _season(store, group.id, {"sam": sam.id, "wes": wes.id, "cpu1": -1,
                                             "cpu2": -2})
    await store.close()

    async with running_bot(make_config(tg, db)) as app:
        svc = services(app)
        assert svc.rater is not None
        await svc.rater.catch_up()
        ratings = {r.user_id: r for r in await svc.store.skill_ratings("qq")}
        assert set(ratings) == {sam.id, wes.id}  # the computers are anchors: never rated
        s, w = ratings[sam.id], ratings[wes.id]
        assert s.matches == w.matches == 2 * MATCHES // 3
        strong, medium, weak = (anchor("qq", level) for level in ("strong", "medium", "weak"))
        assert strong.mu > medium.mu > weak.mu  # the anchors, as bench/bench_rating_anchors.py
        # the stronger play is rated higher, each player near the level he plays like (within
        # two of his sigmas: 24 matches of 4 hands leave the cards much say)
        assert s.mu > w.mu, (s, w)
        assert abs(s.mu - strong.mu) < 2 * s.sigma, (s, strong)
        assert abs(w.mu - weak.mu) < 2 * w.sigma, (w, weak)
        assert shown(s.mu, s.sigma) > shown(w.mu, w.sigma)

        async def says(user, text):
            return await tg.wait_reply(await tg.send_text(group, user, text))

        me = await says(sam, "/me")
        assert me.photo is not None
        assert skill.me_skill_line("qq", s, "zh") in me.caption.splitlines()
        (tmp_path / "me.jpg").write_bytes(me.photo_bytes)
        board = await says(wes, "/rank 技术")
        lines = board.caption.splitlines()
        assert lines[0] == skill.board_title("qq", False, "zh")
        assert lines[1].startswith(f"1. Sam {shown(s.mu, s.sigma):,}")
        assert lines[2].startswith(f"2. Wes {shown(w.mu, w.sigma):,}")
        (tmp_path / "rank.png").write_bytes(board.photo_bytes)

        # a void: the ratings are folded again from the stored matches, the hand left out
        before = {r.user_id: (r.mu, r.sigma) for r in await svc.store.skill_ratings("qq")}
        keys = await svc.store.rated_keys("qq")
        no = next(i for i, points in enumerate(played, 1) if any(points))  # not a 荒庄
        voided = await says(ada, f"/void {no} 记错了")
        assert "记错了" in voided.text
        await svc.rater.catch_up()
        assert not (await svc.store.skill_state("qq")).stale
        seats = await svc.store.match_seats("qq", keys)
        by_match: dict[int, list] = {}
        for seat in sorted(seats, key=lambda x: (x.match_key, x.user_id)):
            by_match.setdefault(seat.match_key, []).append(
                Seat(seat.user_id, seat.points, seat.level))
        refolded = fold_all("qq", [by_match.get(k, []) for k in keys])
        after = {r.user_id: (r.mu, r.sigma) for r in await svc.store.skill_ratings("qq")}
        assert after == {u: (r.mu, r.sigma) for u, r in refolded.items()}
        assert after != before  # the voided hand counted in its match's places


async def test_the_season_board_of_技术分_comes_from_background_reviews(
        tg: FakeTelegram, tmp_path) -> None:
    sam, wes = (tg.user(n, language_code="zh-hans") for n in ("Sam", "Wes"))
    group = tg.group("复盘群", members=(sam, wes))
    db = tmp_path / "db.sqlite3"
    store = await Store.open(f"sqlite://{db}")
    async with store.transaction() as tx:
        for user in (sam, wes):
            await tx.upsert_user(user.id, user.first_name, None, "zh")
    table = await open_table(store, group.id, sam.id, "strong", bot_id=tg.bot.id)
    seats = [(sam.id, "strong"), (wes.id, "weak"), (-1, "strong")]
    for seed in (11, 12):
        hand = play_out(seed, seed % 3, [lv for _, lv in seats])
        await store_hand(store, group.id, table, [u for u, _ in seats], hand)
    await close(store, [table])
    await store.close()

    async with running_bot(make_config(tg, db, review_seats=True)) as app:
        svc = services(app)
        for _ in range(600):  # four seats, up to a second or so each, in the background
            if not await svc.store.unreviewed_seats(tg.bot.id, 0, 10):
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the seats were not reviewed")
        answer = await tg.wait_reply(await tg.send_text(group, wes, "/season 技术"))
        lines = answer.caption.splitlines()
        assert lines[0] == skill.tech_title("第 1 赛季", "qq", "zh")
        # Sam decided as the strong computer everywhere: nothing lost, 100
        assert lines[1].startswith("1. Sam 100(每步平均少 0.00 分;复盘 2 局"), lines
        assert lines[2].startswith("2. Wes "), lines
        assert int(lines[2].split()[2].split("(")[0]) < 100
        (tmp_path / "tech.png").write_bytes(answer.photo_bytes)
