"""Leaderboards and /me keep rule sets apart (a 湖南 囤 is not a QQ point).

Scores are stored per (chat, rule set id, user); hands are written with their rules key
(``hunan/4``), which counts for the rule set ``hunan`` whatever the seat count.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeTelegram

from bot.commands import stats
from bot.i18n import t
from bot.store import MIGRATIONS, SCHEMA_VERSION, RankRow, Score, Store
from engine.rules import RULE_SETS, title_of

CHAT, OTHER = -100, -200
ANN, BO, CY, DI = 1, 2, 3, 4


def _migration_index() -> int:
    """The migration that split the scores by rule set, found by what it does."""
    return next(i for i, sql in enumerate(MIGRATIONS) if "scores_by_rules" in sql)


async def _hand(store: Store, chat: int, key: str, users: tuple[int, ...],
                points: tuple[int, ...], winner: int | None) -> int:
    """A finished hand of the rules ``key`` in ``chat`` (a new table for it)."""
    async with store.transaction() as tx:
        table_id = await tx.create_table(chat, users[0], 3)
        hand_id = await tx.create_hand(table_id, await store.next_hand_no(chat), 1, key, 7, 0)
        await tx.finish_hand(hand_id, chat, users, points, winner)
        await tx.close_table(table_id, 1)
    return hand_id


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    async with store.transaction() as tx:
        for user_id, name in ((ANN, "Ann"), (BO, "Bo"), (CY, "Cy"), (DI, "Di")):
            await tx.upsert_user(user_id, name, None, "zh")
    yield store
    await store.close()


async def test_the_migration_keeps_old_scores_as_qq(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    before = _migration_index()
    with sqlite3.connect(path) as db:  # the schema as the program before it left it
        for target in range(1, before + 1):
            db.executescript(f"BEGIN;\n{MIGRATIONS[target - 1]}\n"
                             f"PRAGMA user_version = {target};\nCOMMIT;")
        db.executemany("INSERT INTO scores (chat_id, user_id, points, hands, wins)"
                       " VALUES (?, ?, ?, ?, ?)",
                       [(CHAT, ANN, 30, 4, 2), (CHAT, BO, -30, 4, 1), (OTHER, ANN, 6, 1, 1)])
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.scores(ANN, CHAT) == {"qq": Score(30, 4, 2, 0)}
        assert await store.scores(ANN) == {"qq": Score(36, 5, 3, 0)}  # the global view
        assert [(r.user_id, r.points) for r in await store.ranking(CHAT)] == [(ANN, 30), (BO, -30)]
        await _hand(store, CHAT, "hunan/4", (ANN, BO, CY, DI), (10, -4, -4, -2), 0)
        assert await store.scores(ANN, CHAT) == {"qq": Score(30, 4, 2, 0),
                                                 "hunan": Score(10, 1, 1, 0)}
    finally:
        await store.close()


async def test_rankings_are_per_rule_set_in_a_group_and_over_all(store: Store) -> None:
    await _hand(store, CHAT, "qq", (ANN, BO, CY), (12, -6, -6), 0)
    await _hand(store, CHAT, "hunan/4", (ANN, BO, CY, DI), (-3, 9, -3, -3), 1)
    await _hand(store, CHAT, "hunan/2/min21", (CY, DI), (-5, 5), 1)
    await _hand(store, OTHER, "hunan/3", (ANN, BO, CY), (8, -4, -4), 0)
    await _hand(store, OTHER, "qq", (ANN, BO, CY), (0, 0, 0), None)

    def board(rows) -> list[tuple[int, int, int, int]]:
        return [(r.user_id, r.points, r.hands, r.wins) for r in rows]

    assert board(await store.ranking(CHAT)) == [(ANN, 12, 1, 1), (BO, -6, 1, 0), (CY, -6, 1, 0)]
    assert board(await store.ranking(CHAT, rule_set="hunan")) == [
        (BO, 9, 1, 1), (DI, 2, 2, 1), (ANN, -3, 1, 0), (CY, -8, 2, 0)]
    everyone = board(await store.ranking(None, rule_set="hunan"))
    assert everyone == [(ANN, 5, 2, 1), (BO, 5, 2, 1), (DI, 2, 2, 1), (CY, -12, 3, 0)]
    assert board(await store.ranking(None)) == [(ANN, 12, 2, 1), (BO, -6, 2, 0), (CY, -6, 2, 0)]
    assert await store.ranking(CHAT, rule_set="four14") == []
    assert await store.scores(CY) == {"qq": Score(-6, 2, 0, 0), "hunan": Score(-12, 3, 0, 0)}
    assert await store.score(CY, CHAT, "hunan") == (-8, 2, 0)


async def test_a_group_moving_keeps_its_rule_sets_apart(store: Store) -> None:
    await _hand(store, CHAT, "qq", (ANN, BO, CY), (12, -6, -6), 0)
    await _hand(store, OTHER, "qq", (ANN, BO, CY), (6, -3, -3), 0)
    await _hand(store, CHAT, "hunan/3", (ANN, BO, CY), (-8, 4, 4), 1)
    async with store.transaction() as tx:
        await tx.move_chat(CHAT, OTHER)
    assert await store.scores(ANN, OTHER) == {"qq": Score(18, 2, 2, 0),
                                              "hunan": Score(-8, 1, 0, 0)}
    assert await store.scores(ANN, CHAT) == {}


@pytest.mark.parametrize(("args", "private", "expected"), [
    ([], False, stats.RankQuery("qq", False)),
    ([], True, stats.RankQuery("qq", True)),
    (["all"], False, stats.RankQuery("qq", True)),
    (["ALL", "qq"], False, stats.RankQuery("qq", True)),
    (["mahjong"], False, None),
    (["all", "all", "x"], True, None),
])
def test_rank_arguments(args: list[str], private: bool, expected) -> None:
    assert stats.rank_query(args, private, "qq") == expected


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_rank_names_any_known_rule_set_in_any_order(rule_set: str) -> None:
    table_rules = "four14" if rule_set == "qq" else "qq"
    assert stats.rank_query([rule_set], False, table_rules) == stats.RankQuery(rule_set, False)
    assert stats.rank_query(["all", rule_set.upper()], False, table_rules) == \
        stats.RankQuery(rule_set, True)
    assert stats.rank_query([], False, rule_set) == stats.RankQuery(rule_set, False)


async def test_me_has_a_part_per_rule_set_each_with_its_level(store: Store) -> None:
    await _hand(store, CHAT, "hunan/4", (ANN, BO, CY, DI), (-300, 830, -300, -230), None)
    await _hand(store, OTHER, "qq", (ANN, BO, CY), (-60, 30, 30), None)
    lines = stats.me_text(await stats.me_data(store, BO, "Bo", CHAT), "zh").splitlines()
    assert lines == [
        "📇 Bo",
        f"【QQ跑胡子】等级 {title_of(30)}",
        "总计:30 分 · 1 局 · 0 胜 · 胜率 0%",
        "本群:0 分 · 0 局 · 0 胜 · 胜率 —",
        "最佳一手:还没有胡过牌。",
        f"【湖南跑胡子】等级 {title_of(830)}",
        "总计:830 分 · 1 局 · 0 胜 · 胜率 0%",
        "本群:830 分 · 1 局 · 0 胜 · 胜率 0%",
        "最佳一手:还没有胡过牌。",
    ]
    assert title_of(830 + 30) not in (title_of(830), title_of(30))  # not summed
    fresh = stats.me_text(await stats.me_data(store, 99, "New", None), "en").splitlines()
    assert fresh == ["📇 New", f"[QQ跑胡子] 等级 {t('en', f'title_{title_of(0)}')}",
                     t("en", "me_total", points=0, hands=0, wins=0, rate="—"),
                     t("en", "me_no_best")]


def test_a_rank_line_shows_birds_only_when_there_were_some() -> None:
    query = stats.RankQuery("hunan", False)
    text = stats.rank_text([RankRow(ANN, "Ann", 7, 2, 1, birds=3), RankRow(BO, "Bo", 0, 1, 0)],
                           "zh", query).splitlines()
    assert text == ["🏅 本群排行榜 · 湖南跑胡子(前 10 名)",
                    f"1. Ann · 7 分 · {title_of(7)} · 2 局 1 胜 · 🐦 3 鸟",
                    f"2. Bo · 0 分 · {title_of(0)} · 1 局 0 胜"]
    assert stats.rank_text([], "en", query) == "湖南 Hunan: no finished hands yet."


async def test_rank_through_the_bot_reads_the_rule_set_asked_for(
        tg: FakeTelegram, tmp_path: Path) -> None:  # noqa: F811
    ann, bo = tg.user("Ann", language_code="zh-hans"), tg.user("Bo", language_code="zh-hans")
    group = tg.group("榜单群", members=(ann, bo))
    config = make_config(tg, tmp_path / "db.sqlite3")
    store = await Store.open(config.db_path)
    try:
        async with store.transaction() as tx:
            for user in (ann, bo):
                await tx.upsert_user(user.id, user.first_name, None, "zh")
            await tx.exec("INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins)"
                          " VALUES (?, 'qq', ?, 5, 1, 1), (?, 'another', ?, 50, 1, 1)",
                          group.id, ann.id, group.id, bo.id)
    finally:
        await store.close()
    qq = t("zh", "rs_qq")
    async with running_bot(config):
        rank = await tg.wait_reply(await tg.send_text(group, ann, "/rank"))
        assert rank.caption.splitlines() == [t("zh", "rank_group", n=10, rules=qq),
                                          f"1. Ann · 5 分 · {title_of(5)} · 1 局 1 胜"]
        everyone = await tg.wait_reply(await tg.send_text(group, bo, "/rank all qq"))
        assert everyone.caption.splitlines() == [t("zh", "rank_global", n=10, rules=qq),
                                                 rank.caption.splitlines()[1]]
        usage = await tg.wait_reply(await tg.send_text(group, ann, "/rank another"))
        assert usage.text == stats.rank_usage("zh")


async def test_me_counts_birds_apart_from_hands(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.exec("INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins, birds)"
                      " VALUES (?, 'hunan', ?, -4, 0, 0, 2)", CHAT, ANN)
    lines = stats.me_text(await stats.me_data(store, ANN, "Ann", CHAT), "zh").splitlines()
    assert lines[1:] == [f"【湖南跑胡子】等级 {title_of(-4)}",
                         "总计:-4 分 · 0 局 · 0 胜 · 胜率 —",
                         "本群:-4 分 · 0 局 · 0 胜 · 胜率 —",
                         t("zh", "me_birds", birds=2),
                         "最佳一手:还没有胡过牌。"]

