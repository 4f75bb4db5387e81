"""Tables choose their rules: the rules key, 底分 and timer stored with the
table, ``/new [rules] [seats]``, the lobby's ⚙ keyboard, every seat count through the real bot
and a fake Telegram, and a restart in the middle.

``duo`` is the qq rule set offered at 2 or 3 seats: a shape the engine deals today, so the
table machinery (seating, full start, seat moves, replay) is tested apart from any one
variant's rules."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from support.e2e import SCALE, action_buttons, hand_message, make_config, running_bot, services
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.posted import picture_id, settlement_id
from support.service import PEOPLE, Clock, Observer
from support.store import old_database

from bot.i18n import t
from bot.present.fairness import export_file
from bot.present.pacing import Pacing, next_ping_after
from bot.present.screens.group import settlement_text, table_screen
from bot.present.screens.lobby import settings_keyboard
from bot.store import MIGRATIONS, Store
from bot.table import (
    SLOW,
    SLOW_TIMEOUT,
    HandRecord,
    Person,
    Refusal,
    Table,
    TableService,
)
from bot.telegram.lobby import new_usage, rules_from_args
from engine import player
from engine.points import signed
from engine.record import verify
from engine.rules import QIHU_CHOICES, QIHU_RANGE, QQ, RULE_SETS, get_rule_set
from engine.simulate import play_random
from engine.state import Hand

DUO = replace(QQ, id="duo", seat_choices=(3, 2), default_base=2)


@pytest.fixture
def duo(monkeypatch: pytest.MonkeyPatch) -> None:
    """``duo`` offered, with qq's house rules (房规) ranges."""
    monkeypatch.setitem(RULE_SETS, "duo", DUO)
    monkeypatch.setitem(QIHU_RANGE, "duo", QIHU_RANGE["qq"])
    monkeypatch.setitem(QIHU_CHOICES, "duo", QIHU_CHOICES["qq"])


def _my_migration() -> int:
    """The schema version this work's migration brings (found by what it does)."""
    return next(i for i, m in enumerate(MIGRATIONS, 1) if "ADD COLUMN rules" in m)


async def test_the_migration_gives_old_tables_qq_and_seats_up_to_four(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    old_database(path, _my_migration() - 1)
    with sqlite3.connect(path) as db:
        for user_id in (1, -1, -2):
            db.execute("INSERT INTO users (user_id, name, lang) VALUES (?, 'u', 'zh')",
                       (user_id,))
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base)"
                   " VALUES (1, -100, 1, 'lobby', 3)")
        db.execute("INSERT INTO seats (table_id, seat, user_id, ready) VALUES (1, 2, 1, 1)")
    store = await Store.open(path)
    try:
        [row] = await store.open_tables()
        assert (row.rules, row.timer, row.base) == ("qq", None, 3)
        [seat] = await store.seats(1)
        assert (seat.seat, seat.user_id, seat.ready) == (2, 1, True)  # kept as it was
        async with store.transaction() as tx:
            await tx.add_seat(1, 3, -1)  # a fourth seat now exists
        with pytest.raises(sqlite3.IntegrityError):
            async with store.transaction() as tx:
                await tx.add_seat(1, 4, -2)
    finally:
        await store.close()


@pytest.mark.parametrize(("args", "key"), [
    ([], "qq"), (["qq"], "qq"), (["duo"], "duo/3"), (["duo", "2"], "duo/2"),
    (["2", "duo"], "duo/2"), (["DUO", "2人"], "duo/2"), (["跑胡子"], "qq"),
    (["QQ跑胡子"], "qq"), (["hunan"], "hunan/4"), (["湖南", "3"], "hunan/3"),
    (["hunan", "2"], "hunan/2/min21"),
    (["六胡抢"], "four14"), (["four14", "4人"], "four14"),
])
def test_new_arguments_name_the_rules(duo: None, args: list[str], key: str) -> None:
    assert rules_from_args(args).key == key


@pytest.mark.parametrize("args", [["mahjong"], ["qq", "4"], ["duo", "5"], ["duo", "2", "x"],
                                  ["four14", "3"], ["hunan", "1"]])
def test_bad_new_arguments_are_refused(duo: None, args: list[str]) -> None:
    with pytest.raises(ValueError):
        rules_from_args(args)


def test_the_usage_lists_every_rule_set_and_its_seats(duo: None) -> None:
    assert "duo(duo):3/2 人" in new_usage("zh") and "qq(QQ跑胡子):3 人" in new_usage("zh")
    assert "duo (duo): 3/2 seats" in new_usage("en")


@pytest.fixture
async def service(tmp_path: Path, duo: None):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    clock = Clock()

    def make() -> TableService:
        return TableService(store, Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                            autoplay_delay=1.5, clock=clock, rng=random.Random(3))
    yield make
    await store.close()


async def test_the_opener_sets_the_options_before_the_first_deal_and_they_are_kept(
        service) -> None:
    first: TableService = service()
    a, b, c = PEOPLE
    table = await first.open(-100, a, rules_from_args(["duo"]))
    await first.join(table.id, b)
    await first.join(table.id, c)
    with pytest.raises(Refusal, match="only_opener_settings"):
        await first.configure(table.id, b.user_id, "base", "5")
    for setting, value in (("base", "4"), ("timer", "45"), ("rules", "mahjong"),
                           ("seats", "4"), ("two_seat", "min21")):
        with pytest.raises(Refusal, match="bad_option"):
            await first.configure(table.id, a.user_id, setting, value)
    with pytest.raises(Refusal, match="too_many_seated") as refused:
        await first.configure(table.id, a.user_id, "seats", "2")
    assert refused.value.fields == {"n": "2", "seated": "3"} and table.rules.key == "duo/3"
    await first.leave(table.id, b.user_id)  # seats 0 and 2 taken: Carol moves up to seat 1
    await first.configure(table.id, a.user_id, "seats", "2")
    await first.configure(table.id, a.user_id, "base", "5")
    await first.configure(table.id, a.user_id, "timer", str(SLOW))
    assert (table.rules.key, table.base, table.timer) == ("duo/2", 5, SLOW)
    assert {s: p.user_id for s, p in table.players.items()} == {0: a.user_id, 1: c.user_id}
    assert table.full and table.full_since is not None  # two of two: the countdown runs

    second: TableService = service()  # a restart keeps every option and the seats
    [again] = await second.load()
    assert (again.rules.key, again.base, again.timer) == ("duo/2", 5, SLOW)
    assert {s: p.user_id for s, p in again.players.items()} == {0: a.user_id, 1: c.user_id}
    await second.begin(again.id, c.user_id)
    hand = again.current.hand
    assert (hand.rules.key, hand.players, hand.base) == ("duo/2", 2, 5)
    seat = next(s for s, d in again.decisions.items() if d.legal)
    assert second.deadline(again, seat) == again.decisions[seat].since + SLOW_TIMEOUT
    with pytest.raises(Refusal, match="settings_closed"):
        await second.configure(again.id, a.user_id, "base", "1")
    third: TableService = service()  # the running 2-seat hand replays from its log
    [replayed] = await third.load()
    assert replayed.current.hand.rules.key == "duo/2"
    assert replayed.current.hand.private_view(0) == hand.private_view(0)


async def test_the_timer_is_the_tables(service) -> None:
    svc: TableService = service()
    table = await svc.open(-100, PEOPLE[0])
    assert svc.timeout(table) == 60  # the bot's default
    await svc.configure(table.id, PEOPLE[0].user_id, "base", "10")
    await svc.configure(table.id, PEOPLE[0].user_id, "rules", "duo")
    assert (table.rules.key, table.base) == ("duo/3", 2)  # a rule set brings its 底分
    for timer, seconds in ((30, 30), (120, 120), (SLOW, SLOW_TIMEOUT)):
        await svc.configure(table.id, PEOPLE[0].user_id, "timer", str(timer))
        assert svc.timeout(table) == seconds


def test_a_slow_table_pings_twice_before_its_timeout() -> None:
    pacing = Pacing()
    slow = dict(slow=True, timeout=SLOW_TIMEOUT)
    assert next_ping_after(pacing, pings=0, **slow) == pacing.ping_delay
    assert next_ping_after(pacing, pings=1, **slow) == pacing.slow_reping
    assert next_ping_after(pacing, pings=2, **slow) is None
    assert pacing.ping_delay < pacing.slow_reping < SLOW_TIMEOUT


def buttons(msg) -> list[str]:  # type: ignore[no-untyped-def]
    return [text for row in msg.keyboard for text, _ in row]


async def alice_plays(tg: FakeTelegram, app, alice, table: Table,  # type: ignore[no-untyped-def]
                      rng: random.Random, until=lambda: False) -> None:
    """Alice (seat 0) presses the policy's move, now and then another, whenever her DM shows
    her current decision, until the hand ends (or ``until()``); computers play between. Her
    turn is read once the hand and the table's decision agree (an action is applied to the
    hand before it is committed and the decisions follow)."""
    while True:
        def her_turn() -> object:
            if table.status != "playing" or until():
                return "over"
            decision, hand = table.decisions.get(0), table.current.hand
            if decision is None or not decision.legal \
                    or tuple(hand.legal_actions(0)) != tuple(decision.legal):
                return None
            msg = hand_message(tg, alice)
            shown = action_buttons(msg)
            current = f"a:{table.id}:{decision.version}:"
            return (msg, decision) if shown and all(d.startswith(current) for _, d in shown) \
                else None
        found = await tg.wait_for(her_turn, timeout=20)
        if found == "over":
            return
        msg, decision = found
        hand = table.current.hand
        events = [e for e in hand.history if e.visible_to is None]
        action = player.choose(hand.private_view(0), events) if rng.random() < 0.8 \
            else rng.choice(decision.legal)
        data = f"a:{table.id}:{decision.version}:{decision.legal.index(action)}"
        answer = await tg.press(alice, msg.message_id, alice, data)
        assert answer.text, answer
        await services(app).presenter.idle()


async def test_bad_new_arguments_get_the_usage_and_open_nothing(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice = tg.user("Alice", language_code="zh-hans")
        group = tg.group("牌友群", members=(alice,))
        tg.start_private(alice)
        reply = await tg.wait_reply(await tg.send_text(group, alice, "/new qq 4"))
        assert "/new hunan 4" in reply.text  # qq has three seats; where four can play
        assert services(app).service.in_chat(group.id) is None


async def test_settings_through_the_lobby_and_a_two_seat_table_to_settlement(
        tg: FakeTelegram, tmp_path: Path, duo: None) -> None:
    """The opener opens ⚙, sets 2 seats and 底分 5 (Bob may not), the lobby says so; after a
    restart in the middle of the hand Alice and a computer play it to its settlement."""
    config = make_config(tg, tmp_path / "db.sqlite3")
    alice, bob = tg.user("Alice", language_code="zh-hans"), tg.user("Bob")
    group = tg.group("牌友群", members=(alice, bob))
    tg.start_private(alice)
    async with running_bot(config) as app:
        svc = services(app)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new duo"))
        assert t("zh", "lobby_rules", rules="duo · 3人", base=2, timer="30秒") in lobby.text
        assert "3人到齐" in lobby.text
        assert (await tg.press_button(lobby, bob, "⚙ 设置")).text == \
            t("zh", "only_opener_settings")
        await tg.press_button(lobby, alice, "⚙ 设置")
        await tg.wait_for(lambda: "✓ 3人" in buttons(tg.message(group, lobby.message_id)))
        assert "✓ 30秒" in buttons(tg.message(group, lobby.message_id))  # the bot's default
        assert (await tg.press_button(lobby, bob, "底分 5")).text == \
            t("zh", "only_opener_settings")
        for label, told in (("2人", "人数 → 2人"), ("底分 5", "底分 → 5"), ("60秒", "限时 → 60秒")):
            assert (await tg.press_button(lobby, alice, label)).text == told
            await tg.wait_for(lambda label=label: f"✓ {label}" in buttons(
                tg.message(group, lobby.message_id)))
        stale = await tg.press(group, lobby.message_id, alice, "o:1:99:b1")
        assert stale.text == t("zh", "stale")
        await tg.press_button(lobby, alice, "↩ 返回")
        shown = await tg.wait_for(lambda: (m := tg.message(group, lobby.message_id))
                                  and "加电脑" in buttons(m) and m)
        assert t("zh", "lobby_rules", rules="duo · 2人", base=5, timer="60秒") in shown.text
        assert "2人到齐" in shown.text and "3. " not in shown.text
        table = svc.service.in_chat(group.id)
        assert (table.rules.key, table.base, table.timer) == ("duo/2", 5, 60)
        await tg.send_text(group, alice, "/addbot")
        # alone with a computer player: dealt at once, nobody else could still leave
        await tg.wait_for(lambda: table.status == "playing")
        assert table.current.hand.players == 2
        await alice_plays(tg, app, alice, table, random.Random(2),
                          until=lambda: len(table.current.hand.log) >= 6)
        record_id = table.current.id
    async with running_bot(config) as app:  # a restart in the middle of the hand
        table = services(app).service.in_chat(group.id)
        assert table.status == "playing" and table.current.id == record_id
        assert (table.rules.key, table.base, table.timer) == ("duo/2", 5, 60)
        await alice_plays(tg, app, alice, table, random.Random(2))
        assert table.status == "between"
        await services(app).presenter.idle()
        record = table.current
        assert tg.message(group, settlement_id(app, table, record)).photo_bytes  # its picture names the rules
    with sqlite3.connect(config.db_path) as db:
        assert db.execute("SELECT rule_set FROM hands").fetchall() == [("duo/2",)]
        points = db.execute("SELECT seat, points FROM results ORDER BY seat").fetchall()
    assert len(points) == 2 and sum(p for _, p in points) == 0


def test_the_settings_keyboard_ticks_what_is_in_force(duo: None) -> None:
    table = Table(1, -100, 10, 5, "lobby", None, 0, 0, rules=rules_from_args(["duo", "2"]),
                  timer=SLOW)
    rows = [[b.text for b in row]
            for row in settings_keyboard(table, 0, "zh", SLOW).inline_keyboard]
    assert rows[0][0] == "QQ跑胡子" and rows[0][-1] == "✓ duo" and len(rows[0]) == len(RULE_SETS)
    assert ["3人", "✓ 2人"] in rows
    assert not any("21胡起胡" in row for row in rows)  # duo offers no two-seat option
    assert ["底分 1", "底分 2", "底分 3", "✓ 底分 5", "底分 10"] in rows
    assert ["30秒", "60秒", "120秒", "✓ 慢速"] in rows
    assert rows[-1] == ["↩ 返回"]
    table.rules = rules_from_args(["hunan", "2"])
    rows = [[b.text for b in row]
            for row in settings_keyboard(table, 0, "zh", 30).inline_keyboard]
    assert ["✓ 21胡起胡", "去20张"] in rows and ["4人", "3人", "✓ 2人"] in rows
    assert ["✓ 30秒", "60秒", "120秒", "慢速"] in rows


async def test_a_four14_table_of_one_human_and_three_computers_to_settlement(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """/new 六胡抢 opens a 4-seat four14 table; /addbot fills it; all four play (nobody sits
    out) to the settlement, and /export's record verifies."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice = tg.user("Alice", language_code="zh-hans")
        group = tg.group("六胡抢群", members=(alice,))
        tg.start_private(alice)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new 六胡抢"))
        assert "六胡抢" in lobby.text and "4人到齐" in lobby.text and "4. (空)" in lobby.text
        table = services(app).service.in_chat(group.id)
        for _ in range(3):
            await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: table.full)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        hand = table.current.hand
        assert (hand.rules.key, hand.players, hand.public_view().xing) == ("four14", 4, None)
        await alice_plays(tg, app, alice, table, random.Random(4))
        assert table.status == "between"
        await services(app).presenter.idle()
        record = table.current
        assert len(record.hand.outcome.points) == 4 and sum(record.hand.outcome.points) == 0
        assert tg.message(group, settlement_id(app, table, record)) is not None
        sent = await tg.wait_reply(await tg.send_text(group, alice, "/export"))
        doc = json.loads(sent.document_bytes)
        assert doc["rules"] == "four14" and verify(doc).ok


XING_SEED = 9  # running_bot's rng: the first dealer is seat 3, so seat 1 (Bob) is 醒家


def xing_people(tg: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    """Alice and Bob, both with a private chat, in a group."""
    alice = tg.user("Alice", language_code="zh-hans")
    bob = tg.user("Bob", language_code="zh-hans")
    group = tg.group("湖南群", members=(alice, bob))
    tg.start_private(alice)
    tg.start_private(bob)
    return alice, bob, group


async def xing_hand(tg: FakeTelegram, app, alice: FakeUser, bob: FakeUser,  # type: ignore[no-untyped-def]
                    group: FakeChat) -> tuple[Table, int]:
    """/new 湖南 4 with two computers, dealt by Alice's 开局 (seed ``XING_SEED``: Bob is the
    醒家); the table and where the calls stood before the deal."""
    lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new 湖南 4"))
    assert "湖南跑胡子 · 4人" in lobby.text and "4人到齐" in lobby.text
    await tg.press_button(lobby, bob, "加入")
    table = services(app).service.in_chat(group.id)
    for _ in range(2):
        await tg.send_text(group, alice, "/addbot")
    await tg.wait_for(lambda: table.full)
    mark = len(tg.calls)
    await tg.press_button(lobby, alice, "开局")  # two humans: not dealt on its own at once
    return table, mark


async def test_a_hunan_table_of_four_whose_xing_follows_the_group_table_privately(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """/new 湖南 4: Alice and Bob with two computers. The dealer's opposite (Bob) is 醒家: his
    private chat shows the table picture the group sees (the public table, never a card of a
    hand or a button), his own copy in one message at his chat's pace, also after a restart,
    and the hand's end;
    Alice plays the hand to its settlement, where Bob's points are his 醒筹, and his private
    result says them (with 再来一局 / 离开 but no 🔍 复盘: he made no choice)."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=2.0)
    alice, bob, group = xing_people(tg)
    async with running_bot(config, seed=XING_SEED) as app:
        table, mark = await xing_hand(tg, app, alice, bob, group)
        hand = table.current.hand
        assert (hand.rules.key, hand.dealer, hand.public_view().xing) == ("hunan/4", 3, 1)
        await alice_plays(tg, app, alice, table, random.Random(5),
                          until=lambda: len(table.current.hand.log) >= 8)
        await services(app).presenter.idle()
        group_photo = tg.message(group, picture_id(app, table))
        [bob_photo] = [m for m in tg.messages(bob) if m.photo_bytes]
        assert bob_photo.photo_bytes == group_photo.photo_bytes  # the group's picture
        assert bob_photo.caption.startswith(t("zh", "xing_caption", table=table.no))
        assert group_photo.caption in bob_photo.caption
    async with running_bot(config, seed=XING_SEED) as app:  # a restart in the middle
        table = services(app).service.in_chat(group.id)
        assert table.status == "playing" and table.current.hand.public_view().xing == 1
        await alice_plays(tg, app, alice, table, random.Random(5))
        await services(app).presenter.idle()
        record, outcome = table.current, table.current.hand.outcome
        assert outcome.xing == 1 and len(outcome.points) == 4 and sum(outcome.points) == 0
        assert not table.players[1].autoplay
        settlement = tg.message(group, settlement_id(app, table, record))
        assert f"Bob(醒家·醒筹): {signed(outcome.points[1])}" in settlement.caption
        final = tg.message(group, picture_id(app, table, record)).photo_bytes
    to_bob = [c for c in tg.calls[mark:] if c.chat_id == bob.id]
    sent = [c.method for c in to_bob if c.method.startswith("send")]
    assert sent == ["sendPhoto", "sendMessage"]  # his picture, restart or not; his result
    # his own copy follows at a waiting seat's catch-up pace, never more often than the
    # group's picture may change (the group's 20 a minute may hold its own back further);
    # the restart and the hand's end may each come sooner
    edits = [c.time for c in to_bob if c.method == "editMessageMedia"]
    gap = config.pacing.group_interval * SCALE  # on the fake's clock
    assert len(edits) <= (edits[-1] - edits[0]) / gap + 3, (len(edits), edits)
    [bob_photo] = [m for m in tg.messages(bob) if m.photo_bytes]
    assert bob_photo.photo_bytes == final and not bob_photo.keyboard
    result = tg.messages(bob)[-1]
    chips = signed(outcome.points[1])
    assert t("zh", "result_xing", points=t("zh", "points_total", points=chips,
                                           total=chips)) in result.text
    assert not any(m.keyboard for m in tg.messages(bob) if m is not result)
    labels = [text for row in result.keyboard for text, _ in row]  # no choice of his: no 复盘
    assert labels == [t("zh", "btn_again"), t("zh", "btn_leave")]
    alices = [text for row in tg.messages(alice)[-1].keyboard for text, _ in row]
    assert alices == [*labels, t("zh", "btn_review")]


@pytest.mark.parametrize("key", ["qq", "hunan/4", "hunan/3", "hunan/2/min21",
                                 "hunan/2/setaside", "four14"])
async def test_every_shape_deals_restarts_settles_and_exports(service, key: str) -> None:
    """A table of each shape (one human timing out into 托管, computers in the other seats):
    dealt by its rules, replayed as it was after a restart in the middle, settled zero-sum
    over all its seats (醒家 included, who never acts nor goes into 托管), and its /export
    record verifies."""
    first: TableService = service()
    rules = get_rule_set(key)
    table = await first.open(-100, PEOPLE[0], rules)
    for _ in range(rules.players - 1):
        await first.add_robot(table.id, PEOPLE[0].user_id, "zh")
    await first.begin(table.id, PEOPLE[0].user_id)
    clock = first.clock
    for _ in range(6):  # a few moves (of whoever is due: 托管 and computers)
        clock.now += 100  # type: ignore[operator]
        await first.play_due(table.id)
    before = table.current.hand
    second: TableService = service()
    [table] = await second.load()
    hand = table.current.hand
    assert hand.rules.key == key and hand.log == before.log
    assert hand.public_view() == before.public_view()
    while table.status == "playing":
        clock.now += 100  # type: ignore[operator]
        await second.play_due(table.id)
    outcome = hand.outcome
    xing = rules.xing_seat(hand.dealer)
    assert outcome.xing == xing and len(outcome.points) == rules.players
    assert sum(outcome.points) == 0
    if xing is not None:
        assert all(seat != xing for seat, _ in hand.log) and not table.players[xing].autoplay
    [played] = await second.store.finished_hands(-100, 1)
    assert (played.rule_set, played.points) == (key, outcome.points)
    _, data, _ = export_file(played)
    assert verify(json.loads(data)).ok


async def test_the_xing_cannot_escape_and_leaves_after_the_hand(service) -> None:
    """The 醒家 holds no cards: /leave during the hand is refused (no 逃跑 quote, no penalty);
    the others still may 逃跑."""
    svc: TableService = service()
    dan = Person(13, "D", "zh")
    await svc.store.upsert_user(dan.user_id, dan.name, None, dan.lang, dm_ok=True)
    table = await svc.open(-100, PEOPLE[0], get_rule_set("hunan/4"))
    for person in (*PEOPLE[1:], dan):
        await svc.join(table.id, person)
    await svc.begin(table.id, dan.user_id)
    hand = table.current.hand
    xing = hand.rules.xing_seat(hand.dealer)
    xing_user = table.players[xing].user_id
    with pytest.raises(Refusal, match="xing_stays"):
        svc.escape_quote(table.id, xing_user)
    with pytest.raises(Refusal, match="xing_stays"):
        await svc.leave(table.id, xing_user, table.current.id)
    assert table.status == "playing" and table.seat_of(xing_user) == xing
    other = table.players[(xing + 1) % 4].user_id
    hand_id, _ = svc.escape_quote(table.id, other)
    await svc.leave(table.id, other, hand_id)
    assert hand.outcome is not None and hand.outcome.escaper == (xing + 1) % 4


def _won(key: str, wanted) -> Hand:  # type: ignore[no-untyped-def]
    """The first random hand of ``key`` whose win satisfies ``wanted(outcome)``."""
    for seed in range(2000):
        hand = play_random(Hand.new(get_rule_set(key), seed=seed, dealer=seed % 4),
                           random.Random(seed))
        if hand.outcome.win is not None and wanted(hand.outcome):
            return hand
    raise AssertionError(f"no such {key} hand")


def test_the_settlement_caption_words_each_rule_sets_score() -> None:
    """湖南: 囤 and 名堂 ×n, the 醒家's line says 醒筹; four14: who fed a discard win (点炮)."""
    names = ("A", "B", "C", "D")

    def caption(hand: Hand) -> str:
        record = HandRecord(1, 1, hand, (1, 2, 3, 4), names)
        return settlement_text(None, record, {}, "zh", live=False)  # type: ignore[arg-type]

    hunan = _won("hunan/4", lambda o: o.win.mingtang)
    win, xing = hunan.outcome.win, hunan.outcome.xing
    text = caption(hunan)
    assert f"胡息 {win.huxi} · {win.di} 囤 · 名堂 ×{win.fan}" in text
    name, times = win.mingtang[0]
    assert f"{name}×{times}" in text and "番" not in text
    assert f"{names[xing]}(醒家·醒筹): {signed(hunan.outcome.points[xing])}" in text
    four14 = _won("four14", lambda o: o.fed_by is not None)
    text = caption(four14)
    assert f"{names[four14.outcome.fed_by]} 点炮" in text and "醒家" not in text
    assert f"番 {four14.outcome.win.fan}" in text


async def test_the_xings_picture_does_not_wait_for_the_groups(tg: FakeTelegram,
                                                              tmp_path: Path) -> None:
    """His own copy: with the group's table picture held back entirely, the 醒家 still sees
    the table and, at the end, the hand's last state."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=2.0)
    alice, bob, group = xing_people(tg)
    async with running_bot(config, seed=XING_SEED) as app:
        panels = services(app).presenter.panels

        async def held(table: Table, record: HandRecord) -> int:
            return 0  # the group's picture never goes
        panels._table = held  # type: ignore[method-assign]
        table, _ = await xing_hand(tg, app, alice, bob, group)
        assert table.current.hand.public_view().xing == 1
        await alice_plays(tg, app, alice, table, random.Random(5))
        await services(app).presenter.idle()
        record = table.current
        assert picture_id(app, table, record) is None  # the group saw nothing
        [bob_photo] = [m for m in tg.messages(bob) if m.photo_bytes]
        assert bob_photo.caption.startswith(t("zh", "xing_caption", table=table.id))
        _, caption = table_screen(table, record, set(), "zh")
        assert caption in bob_photo.caption and bob_photo.edits >= 1  # the end, as it is
