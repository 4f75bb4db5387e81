"""Matches (局数) through the real bot and a fake Telegram: /new 8 and the ⚙ option choose a
match; an 8-hand match played by one human in 托管 and two computers survives a restart in its
middle; its 总结算 is posted once, in the table's place, with totals equal to the hands'
results in the store; leaving mid-match is a 逃跑 that ends the match with its 总结算."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from support.e2e import make_config, running_bot, services, settlement_closed
from support.fakebot import FakeTelegram, FakeUser
from support.play import play_match_hand, press_result
from support.posted import lobby_id, picture_id, settlement_id
from telegram.ext import Application

from bot.i18n import t
from bot.present.screens.match import summary_caption, summary_of
from bot.present.screens.words import match_lines
from bot.store import MIGRATIONS, SCHEMA_VERSION, MatchRow, Store
from bot.table import HandRecord, Match, Refusal, Table
from bot.telegram.lobby import match_from_args, new_usage, rules_from_args
from render.match import MatchHand, MatchSummary

AUTOPLAY_AFTER = 0.2  # Alice's first decision of a hand times out into 托管 after this
SUMMARY = "🏁 总结算"


@pytest.mark.parametrize(("args", "rest", "hands"), [
    ([], [], 1),
    (["8"], [], 8),
    (["16"], [], 16),
    (["4局"], [], 4),
    (["four14", "4"], ["four14", "4"], 1),  # a bare 4 is the seats
    (["hunan", "4", "8局"], ["hunan", "4"], 8),
    (["hunan", "4人", "16局"], ["hunan", "4人"], 16),
    (["8", "hunan", "2"], ["hunan", "2"], 8),
])
def test_new_tells_seats_from_hands(args: list[str], rest: list[str], hands: int) -> None:
    assert match_from_args(args) == (rest, hands)
    rules_from_args(rest)  # what is left is valid rules


@pytest.mark.parametrize("args", [["5局"], ["1局"], ["32局"]])
def test_new_refuses_a_match_not_offered(args: list[str]) -> None:
    with pytest.raises(ValueError):
        match_from_args(args)


def test_the_usage_says_how_hands_differ_from_seats() -> None:
    assert "4局" in new_usage("zh") and "4局" in new_usage("en")


def test_caption_lines_of_a_match_hand() -> None:
    record = HandRecord(1, 1, None, (1, 2, 3), ("A", "B", "C"),  # type: ignore[arg-type]
                        match_place=(3, 8))
    match = Match(5, 8, ((6, -3, -3), (-2, 4, -2)))
    assert match_lines(record, match, "zh") == ["第 3/8 局", "本场:A +4 · B +1 · C -5"]
    assert match_lines(record, match, "en")[0] == "hand 3/8"
    single = HandRecord(1, 1, None, (1, 2, 3), ("A", "B", "C"))  # type: ignore[arg-type]
    assert match_lines(single, None, "zh") == []


def test_summary_caption_names_the_winner_and_the_leaver() -> None:
    hands = (MatchHand((4, -2, -2), winner=0), MatchHand((-6, 3, 3), escaper=0))
    summary = MatchSummary(("A", "B", "C"), 8, hands, leaver=0)
    caption = summary_caption(summary, MatchRow(1, 1, 8, "left", 7, None), "zh")
    assert caption.splitlines() == ["🏁 总结算 · 2/8 局", "冠军:B、C(+1)",
                                    "A -2 · B +1 · C +1", "A 离开(逃跑),比赛提前结束。"]
    stopped = summary_caption(MatchSummary(("A", "B", "C"), 4, hands[:1]),
                              MatchRow(1, 1, 4, "stopped", None, None), "en")
    assert stopped.splitlines()[-1] == t("en", "match_caption_stopped")
    between = summary_caption(MatchSummary(("A", "B", "C"), 4, hands[:1], leaver=2),
                              MatchRow(1, 1, 4, "left", 9, None), "zh")
    assert between.splitlines()[-1] == "C 离座,比赛提前结束。"  # no 逃跑 between hands


def test_no_summary_without_a_hand() -> None:
    assert summary_of(MatchRow(1, 1, 8, "stopped", None, None), []).hands == ()


async def _alice_and_two_computers(tg: FakeTelegram, app: Application,  # type: ignore[type-arg]
                                   new: str) -> tuple[FakeUser, object, Table]:
    alice = tg.user("Alice", language_code="zh-hans")
    group = tg.group("比赛群", members=(alice,))
    tg.start_private(alice)
    lobby = await tg.wait_reply(await tg.send_text(group, alice, new))
    table = services(app).service.in_chat(group.id)
    assert table is not None
    for _ in range(table.rules.players - 1):
        await tg.send_text(group, alice, "/addbot")
    await tg.wait_for(lambda: table.full)
    await tg.wait_for(lambda: table.status == "playing", timeout=20)  # the full lobby deals
    assert lobby.text is not None
    return alice, group, table


def _summaries(tg: FakeTelegram, group: object) -> list:
    return [m for m in tg.messages(group) if m.photo_bytes and
            (m.caption or "").startswith(SUMMARY)]


async def test_an_eight_hand_match_survives_a_restart_and_posts_its_summary_once(
        tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=AUTOPLAY_AFTER)
    async with running_bot(config) as app:
        alice, group, table = await _alice_and_two_computers(tg, app, "/new 8")
        assert table.match_hands == 8 and table.match is not None
        await services(app).presenter.idle()
        photo = tg.message(group, picture_id(app, table))  # type: ignore[union-attr,arg-type]
        assert photo is not None and "第 1/8 局" in (photo.caption or "")
        names_before = [p.name for p in table.players.values()]
        for k in range(1, 5):
            await play_match_hand(tg, app, table, alice, group, k)
        await tg.wait_for(lambda: table.status == "playing")
        await services(app).presenter.idle()
        match_id = table.match.id  # type: ignore[union-attr]
    async with running_bot(config) as app:  # a restart in the middle of hand 5
        svc = services(app)
        table = svc.service.in_chat(group.id)  # type: ignore[attr-defined]
        assert table is not None and table.match is not None and table.match.id == match_id
        assert table.current.match_place == (5, 8)
        # hand 5 in play, or played out before the stop (Alice in 托管, a slow machine)
        assert len(table.match.played) == (4 if table.status == "playing" else 5)
        await svc.presenter.idle()
        if table.status == "playing":
            photo = tg.message(group, picture_id(app, table))
            assert "第 5/8 局" in (photo.caption or "") and "本场:" in (photo.caption or "")
        for k in range(5, 9):
            await play_match_hand(tg, app, table, alice, group, k)
        await tg.wait_for(lambda: len(_summaries(tg, group)) == 1, timeout=20)
        assert table.match is None and table.status == "lobby"  # same players, counter reset
        assert [p.name for p in table.players.values()] == names_before
        row = await svc.store.match(match_id)
        assert row is not None and row.status == "done"
        played = await svc.store.match_played(match_id)
        assert len(played) == 8
        totals = [sum(h.points[s] for h in played) for s in range(3)]
        summary = _summaries(tg, group)[0]
        assert row.summary_msg_id == summary.message_id
        names = [table.players[s].name for s in range(3)]
        for name, total in zip(names, totals, strict=True):
            assert f"{name} {total:+,}" in summary.caption or (total == 0 and f"{name} 0"
                                                                in summary.caption)
        assert summary.caption.startswith(f"{SUMMARY} · 8/8 局")
        settle = tg.message(group, settlement_id(app, table))
        assert "第 8/8 局" in settle.caption and settlement_closed(settle)  # no 再来一局: the lobby
        await svc.presenter.idle()
        lobby = tg.message(group, lobby_id(app, table))
        assert summary.message_id < lobby.message_id  # the 总结算 first, then the new lobby
        assert t("zh", "match_over_next") in lobby.text
        assert any(text == t("zh", "btn_settings") for row in lobby.keyboard for text, _ in row)
    async with running_bot(config) as app:  # posted once: not again after a restart
        svc = services(app)
        table = svc.service.in_chat(group.id)  # type: ignore[attr-defined]
        await asyncio.sleep(0.5)  # the lobby waits for 开局 after a restart as before it
        await svc.presenter.idle()
        assert len(_summaries(tg, group)) == 1
        # still known as the match's last hand: the lobby offers ⚙ and says the match is over
        assert table.current.match_place == (8, 8) and table.configurable
        lobby = tg.message(group, lobby_id(app, table))
        assert t("zh", "match_over_next") in lobby.text
        # 开局 in the lobby after a match starts a new one of the same length
        await tg.press_button(tg.message(group, lobby_id(app, table)), alice, t("zh", "btn_begin"))
        await tg.wait_for(lambda: table.status == "playing")
        assert table.match is not None and table.match.id != match_id
        assert table.current.match_place == (1, 8)


async def test_the_settings_keyboard_chooses_a_match(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice = tg.user("Alice", language_code="zh-hans")
        group = tg.group("设置群", members=(alice,))
        tg.start_private(alice)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert "局数:单局" in (lobby.text or "")
        await tg.press_button(lobby, alice, t("zh", "btn_settings"))
        await tg.wait_for(lambda: any("16局" in text for row in tg.message(group, lobby.message_id)
                                      .keyboard for text, _ in row))
        assert (await tg.press_button(lobby, alice, "16局")).text == "局数 → 16局"
        table = svc.service.in_chat(group.id)
        assert table is not None and table.match_hands == 16
        await tg.wait_for(lambda: "局数:16局" in (tg.message(group, lobby.message_id).text or ""))
        assert (await svc.store.open_tables())[0].match_hands == 16
        with pytest.raises(Refusal) as refused:
            await svc.service.configure(table.id, alice.id, "match", "5")
        assert refused.value.code == "bad_option" and table.match_hands == 16
        # /help says what leaving a match means
        help_text = (await tg.wait_reply(await tg.send_text(group, alice, "/help"))).text
        assert help_text == t("zh", "help")
        for lang in ("zh", "en"):
            match_line = t(lang, "help").splitlines()[-1]
            assert "4局" in match_line and "逃跑" in match_line and "/stop" in match_line


async def test_leaving_mid_match_is_an_escape_that_ends_it(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=AUTOPLAY_AFTER)
    async with running_bot(config) as app:
        svc = services(app)
        alice, group, table = await _alice_and_two_computers(tg, app, "/new 4局")
        assert table.match_hands == 4
        await tg.wait_for(lambda: table.status == "between", timeout=60)
        await svc.presenter.idle()
        svc.service.action_timeout = 60.0  # hand 2 waits for Alice: she leaves during it
        await press_result(tg, alice)
        await tg.wait_for(lambda: table.status == "playing")
        match_id = table.match.id  # type: ignore[union-attr]
        await tg.send_text(group, alice, "/leave")
        question = await tg.wait_for(lambda: next(
            (m for m in tg.messages(alice) if m.text and m.text.startswith("确定逃跑")), None))
        await tg.press_button(question, alice, t("zh", "btn_confirm_e"))
        await tg.wait_for(lambda: len(_summaries(tg, group)) == 1, timeout=20)
        assert table.status == "closed"  # computers alone do not keep a table
        row = await svc.store.match(match_id)
        assert row is not None and (row.status, row.leaver) == ("left", alice.id)
        played = await svc.store.match_played(match_id)
        assert len(played) == 2
        summary = _summaries(tg, group)[0]
        assert summary.caption.startswith(f"{SUMMARY} · 2/4 局")
        assert "Alice 离开(逃跑)" in summary.caption


async def test_stop_ends_a_match_in_its_forum_topic_at_four_seats(tg: FakeTelegram,
                                                                   tmp_path) -> None:
    """湖南 at 4 seats (a 醒家 each hand) in a forum topic: /stop ends the match with the
    总结算 of the hands finished (a voided hand is not one), posted in the topic."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=AUTOPLAY_AFTER)
    async with running_bot(config) as app:
        svc = services(app)
        alice = tg.user("Alice", language_code="zh-hans")
        forum = tg.forum("比赛论坛", members=(alice,))
        topic = tg.create_topic(forum, "八局")
        tg.start_private(alice)
        await tg.send_text(forum, alice, "/new hunan 4 8", topic=topic)
        table = await tg.wait_for(lambda: svc.service.in_chat(forum.id, topic))
        assert (table.rules.players, table.match_hands) == (4, 8)
        for _ in range(3):
            await tg.send_text(forum, alice, "/addbot", topic=topic)
        await tg.wait_for(lambda: table.status == "playing", timeout=20)
        await tg.wait_for(lambda: table.status == "between", timeout=60)
        await svc.presenter.idle()
        svc.service.action_timeout = 60.0
        await press_result(tg, alice)
        await tg.wait_for(lambda: table.status == "playing")
        match_id = table.match.id
        await tg.send_text(forum, alice, "/stop", topic=topic)

        def stopped_or_asked() -> object:
            if table.status == "closed":
                return True
            return next((m for m in tg.topic_messages(forum, topic) if m.text and
                         m.text.startswith(t("zh", "stop_confirm", hand=table.current.no))), None)
        asked = await tg.wait_for(stopped_or_asked)
        if asked is not True:  # the hand still ran (Alice was not its 醒家)
            await tg.press_button(asked, alice, t("zh", "btn_confirm_s"))
        await tg.wait_for(lambda: len(_summaries(tg, forum)) == 1, timeout=20)
        summary = _summaries(tg, forum)[0]
        assert summary.thread_id == topic
        played = await svc.store.match_played(match_id)
        assert summary.caption.startswith(f"{SUMMARY} · {len(played)}/8 局")
        row = await svc.store.match(match_id)
        assert row is not None and row.status == "stopped" and row.leaver is None
        if asked is not True:
            assert len(played) == 1
            assert t("zh", "match_caption_stopped") in summary.caption


async def test_the_match_migration_keeps_old_tables_single_hand(tmp_path) -> None:
    """A database of the schema before matches: its open table plays single hands after the
    upgrade, and its hands belong to no match."""
    path = tmp_path / "db.sqlite3"
    ours = next(i for i, m in enumerate(MIGRATIONS) if "CREATE TABLE matches" in m)
    with sqlite3.connect(path) as db:
        for target in range(1, ours + 1):
            db.executescript(f"BEGIN;\n{MIGRATIONS[target - 1]}\n"
                             f"PRAGMA user_version = {target};\nCOMMIT;")
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                   " VALUES (1, -100, 1, 'lobby', 3)")
        db.execute("INSERT INTO hands (table_id, no, rule_set, seed, dealer, status)"
                   " VALUES (1, 1, 'qq', '7', 0, 'done')")
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert (await store.open_tables())[0].match_hands == 1
        assert await store.running_match(1) is None and await store.unposted_matches() == []
        async with store.transaction() as tx:
            match_id = await tx.create_match(1, 8)
        assert await store.running_match(1) == MatchRow(match_id, 1, 8, "running", None, None)
    finally:
        await store.close()


@pytest.mark.parametrize("new", ["/new hunan 2 4局", "/new four14 4局"])
async def test_a_four_hand_match_at_other_rule_sets_and_seats(tg: FakeTelegram, tmp_path,
                                                              new: str) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=AUTOPLAY_AFTER)
    async with running_bot(config) as app:
        svc = services(app)
        alice, group, table = await _alice_and_two_computers(tg, app, new)
        assert table.match_hands == 4
        match_id = table.match.id  # type: ignore[union-attr]
        for k in range(1, 5):
            await play_match_hand(tg, app, table, alice, group, k, n=4)
        await tg.wait_for(lambda: len(_summaries(tg, group)) == 1, timeout=20)
        played = await svc.store.match_played(match_id)
        assert len(played) == 4 and all(len(h.points) == table.rules.players for h in played)
        caption = _summaries(tg, group)[0].caption
        names = [table.players[s].name for s in table.seats]
        for seat, name in enumerate(names):
            total = sum(h.points[seat] for h in played)
            assert (f"{name} {total:+,}" if total else f"{name} 0") in caption
