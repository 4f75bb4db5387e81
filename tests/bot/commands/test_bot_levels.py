"""The computer players' level per table (弱 / 中 / 强) through the real bot and a fake
Telegram: set in the lobby's ⚙ or by ``/addbot 强``, stored with the table (and kept by a
restart and by the migration of an older store), played by the computer seats, while 托管 and
提示 always play the strong level. 大师 is no longer offered (docs/player.md): a table stored
with it plays and resumes at 强."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from support.e2e import action_buttons, hand_message, make_config, running_bot, services
from support.fakebot import FakeMessage, FakeTelegram, FakeUser
from support.postgres import INTEGRITY_ERRORS
from support.robots import alice_plays, check_hint, public
from support.store import old_database

from bot.i18n import t
from bot.present.screens.lobby import settings_keyboard
from bot.store import MIGRATIONS, SCHEMA_VERSION, Store, open_store
from bot.table import LEVELS, Refusal, Table, TableService, robots
from bot.telegram.lobby import level_from_args
from engine import player
from engine.views import Event, PrivateView


class PolicySpy:
    """The policy as :mod:`bot.table.robots` sees it, noting each call: (seat, level) of every
    ``choose`` and the seat of every ``explain``."""

    def __init__(self) -> None:
        self.chosen: list[tuple[int, str]] = []
        self.explained: list[int] = []

    def choose(self, view: PrivateView, events: Sequence[Event], rng: random.Random | None = None,
               *, level: str = "strong") -> str:
        self.chosen.append((view.seat, level))
        return player.choose(view, events, rng, level=level)

    def explain(self, view: PrivateView, events: Sequence[Event],
                lang: str = "zh") -> tuple[str, str]:
        self.explained.append(view.seat)
        return player.explain(view, events, lang)

    def __getattr__(self, name: str) -> object:
        return getattr(player, name)  # the levels and the rest, as they are

    def levels(self, seat: int) -> set[str]:
        return {level for s, level in self.chosen if s == seat}


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> PolicySpy:
    watched = PolicySpy()
    monkeypatch.setattr(robots, "player", watched)
    return watched


Move = tuple[int, str, bool, dict[str, str]]  # seat, action, auto, each level's choice


WATCHED = ("weak", "strong")  # the levels the tests compare (大师 searches: too slow to watch)


def watch_moves(service: TableService) -> list[Move]:
    """Every applied move with what each ``WATCHED`` level would have played for its seat
    just before."""
    moves: list[Move] = []
    apply: Callable = service._apply

    async def spied(tx, table: Table, seat: int, action: str, *, auto: bool,  # type: ignore[no-untyped-def]
                    leaving: bool = False):
        hand = table.current.hand
        view = hand.private_view(seat)
        wanted = {level: player.choose(view, public(table), level=level)
                  for level in WATCHED} if view.legal else {}
        moves.append((seat, action, auto, wanted))
        return await apply(tx, table, seat, action, auto=auto, leaving=leaving)

    service._apply = spied  # type: ignore[method-assign]
    return moves


def buttons(msg: FakeMessage | None) -> list[str]:
    return [text for row in msg.keyboard for text, _ in row] if msg else []


async def says(tg: FakeTelegram, group, user: FakeUser, text: str) -> str:  # type: ignore[no-untyped-def]
    """The bot's text answer to ``text`` (not a table picture posted meanwhile)."""
    sent = await tg.send_text(group, user, text)
    return (await tg.wait_reply(sent, match=lambda m: m.photo is None)).text or ""


async def alice_and_two_weak_computers(tg: FakeTelegram, app) -> tuple[FakeUser, object, Table]:  # type: ignore[no-untyped-def]
    """Alice opens a table and seats two computers by ``/addbot 弱`` and ``/addbot weak``."""
    alice = tg.user("Alice", language_code="zh-hans")
    group = tg.group("人机群", members=(alice,))
    tg.start_private(alice)
    await tg.wait_reply(await tg.send_text(group, alice, "/new"))
    table = services(app).service.in_chat(group.id)
    assert table is not None
    await tg.send_text(group, alice, "/addbot 弱")
    await tg.send_text(group, alice, "/addbot weak")
    await tg.wait_for(lambda: table.full)
    assert table.robot_level == "weak"
    return alice, group, table


# --- the words and the keyboard -------------------------------------------------------------

@pytest.mark.parametrize(("args", "level"), [
    ([], None), (["弱"], "weak"), (["中"], "medium"), (["强"], "strong"),
    (["weak"], "weak"), (["Medium"], "medium"), (["STRONG"], "strong"),
])
def test_addbot_words_name_a_level(args: list[str], level: str | None) -> None:
    assert level_from_args(args) == level


@pytest.mark.parametrize("args", [["乱写"], ["hard"], ["强", "弱"], ["3"], ["大师"], ["master"]])
def test_other_addbot_words_get_the_usage(args: list[str]) -> None:
    with pytest.raises(Refusal, match="addbot_usage"):
        level_from_args(args)


def test_the_settings_keyboard_ticks_the_level() -> None:
    table = Table(1, -100, 10, 3, "lobby", None, 0, 0)
    assert table.robot_level == "strong"  # the default
    rows = [[b.text for b in row] for row in settings_keyboard(table, 0, "zh", 30).inline_keyboard]
    assert ["电脑 弱", "电脑 中", "✓ 电脑 强"] in rows  # 大师 is not offered
    table.robot_level = "weak"
    markup = settings_keyboard(table, 0, "en", 30)
    row = next(r for r in markup.inline_keyboard if "weak" in r[0].text)
    assert [b.text for b in row] == ["✓ 电脑 弱 weak", "电脑 中 medium", "电脑 强 strong"]
    assert [b.callback_data for b in row] == ["o:1:0:lweak", "o:1:0:lmedium", "o:1:0:lstrong"]
    assert not any("大师" in b.text for r in markup.inline_keyboard for b in r)


def test_help_and_the_usage_name_the_levels() -> None:
    for lang in ("zh", "en"):
        addbot = next(line for line in t(lang, "help").splitlines() if "/addbot" in line)
        assert all(word in addbot for word in ("弱", "中", "强"))  # /help fits one screen
        assert all(word in t(lang, "addbot_usage") for word in ("弱", "中", "强"))
        assert "大师" not in addbot and "大师" not in t(lang, "addbot_usage")


# --- ⚙, /addbot and a restart through the bot ------------------------------------------------

async def test_the_opener_sets_the_level_in_settings_and_a_restart_keeps_it(
        tg: FakeTelegram, tmp_path: Path, spy: PolicySpy) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.5)
    alice, bob = tg.user("Alice", language_code="zh-hans"), tg.user("Bob")
    group = tg.group("牌友群", members=(alice, bob))
    tg.start_private(alice)
    tg.start_private(bob)
    async with running_bot(config) as app:
        svc = services(app)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert "电脑:强" in (lobby.text or "")
        await tg.send_text(group, bob, "/join")
        table = svc.service.in_chat(group.id)
        await tg.wait_for(lambda: table.seat_of(bob.id) == 1)
        await tg.press_button(lobby, alice, t("zh", "btn_settings"))
        await tg.wait_for(lambda: "✓ 电脑 强" in buttons(tg.message(group, lobby.message_id)))
        assert (await tg.press_button(lobby, bob, "电脑 弱")).text == \
            t("zh", "only_opener_settings")
        assert table.robot_level == "strong"
        assert (await tg.press_button(lobby, alice, "电脑 弱")).text == "电脑 → 弱"  # the toast says what it did
        await tg.wait_for(lambda: "✓ 电脑 弱" in buttons(tg.message(group, lobby.message_id)))
        assert "✓ 电脑 强" not in buttons(tg.message(group, lobby.message_id))
        assert table.robot_level == "weak"
        assert (await svc.store.open_tables())[0].robot_level == "weak"
        bad = await tg.press(group, lobby.message_id, alice, f"o:{table.id}:0:lhard")
        assert bad.text == t("zh", "bad_option") and table.robot_level == "weak"
        await tg.press_button(lobby, alice, t("zh", "btn_settings_back"))
        await tg.wait_for(lambda: "电脑:弱" in (tg.message(group, lobby.message_id).text or ""))
    async with running_bot(config) as app:  # a restart
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table is not None and table.robot_level == "weak"
        await tg.send_text(group, alice, "/addbot")  # a bare /addbot keeps the level
        await tg.wait_for(lambda: table.full)
        assert table.robot_level == "weak"
        await tg.send_text(group, alice, "/begin")
        await tg.wait_for(lambda: table.status == "between", timeout=30)  # all in 托管
        await svc.presenter.idle()
    assert spy.levels(2) == {"weak"} and spy.levels(0) == spy.levels(1) == {"strong"}


async def test_addbot_with_a_level_sets_the_tables_and_a_wrong_word_changes_nothing(
        tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice, bob = tg.user("Alice", language_code="zh-hans"), tg.user("Bob", language_code="en")
        group = tg.group("加电脑", members=(alice, bob))
        tg.start_private(alice)
        tg.start_private(bob)
        await says(tg, group, alice, "/new")
        table = svc.service.in_chat(group.id)
        assert await says(tg, group, alice, "/addbot 乱写") == t("zh", "addbot_usage")
        assert await says(tg, group, alice, "/addbot 强 弱") == t("zh", "addbot_usage")
        assert len(table.players) == 1 and table.robot_level == "strong"
        assert await says(tg, group, bob, "/addbot 弱") == t("zh", "not_seated")
        assert table.robot_level == "strong"
        await tg.send_text(group, alice, "/addbot 中")
        await tg.wait_for(lambda: len(table.players) == 2)
        assert table.robot_level == "medium"
        assert (await svc.store.open_tables())[0].robot_level == "medium"
        assert await says(tg, group, alice, "/addbot 大师") == t("zh", "addbot_usage")
        assert len(table.players) == 2 and table.robot_level == "medium"
        await tg.send_text(group, alice, "/addbot 强")
        await tg.wait_for(lambda: len(table.players) == 3)
        assert table.robot_level == "strong"
        # one human and two computers: the table deals at once, so a third add is refused
        assert await says(tg, group, alice, "/addbot 弱") == t("zh", "in_play")
        assert table.robot_level == "strong"  # refused: nothing changed
        assert (await svc.store.open_tables())[0].robot_level == "strong"


async def test_a_table_stored_with_master_plays_and_resumes_at_strong(
        tg: FakeTelegram, tmp_path: Path, spy: PolicySpy) -> None:
    """大师 is no longer offered; a table whose store still says so (set before it stopped
    being offered) is read as 强 after a restart: its hand resumes where it was, its computers
    play strong's choices, and ⚙ ticks 强."""
    path = tmp_path / "db.sqlite3"
    config = make_config(tg, path, action_timeout=0.5)
    async with running_bot(config) as app:
        alice, group, table = await alice_and_two_weak_computers(tg, app)
        await tg.send_text(group, alice, "/begin")
        await tg.wait_for(lambda: table.status == "playing")
        table_id = table.id
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tables SET robot_level = 'master' WHERE id = ?", (table_id,))
    spy.chosen.clear()
    async with running_bot(config) as app:  # a restart
        svc = services(app)
        assert (await svc.store.table(table_id)).robot_level == "master"
        table = svc.service.in_chat(group.id)
        assert table is not None and table.robot_level == "strong"
        assert table.status == "playing"
        resumed = len(table.current.hand.log)
        await tg.wait_for(lambda: table.status != "playing", timeout=30)  # Alice in 托管
        await svc.presenter.idle()
        assert len(table.current.hand.log) > resumed
    rows = [[b.text for b in row] for row in settings_keyboard(table, 0, "zh", 30).inline_keyboard]
    assert ["电脑 弱", "电脑 中", "✓ 电脑 强"] in rows
    assert spy.levels(1) == spy.levels(2) == {"strong"}


# --- who plays at which level ----------------------------------------------------------------

async def test_computers_play_the_tables_level_and_tuoguan_the_strong(
        tg: FakeTelegram, tmp_path: Path, spy: PolicySpy) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.5)
    async with running_bot(config) as app:
        svc = services(app)
        alice, group, table = await alice_and_two_weak_computers(tg, app)
        moves = watch_moves(svc.service)
        await tg.send_text(group, alice, "/begin")
        # Alice never presses: she goes into 托管 and the hand is played to the end
        await tg.wait_for(lambda: table.players[0].autoplay, timeout=10)
        await tg.wait_for(lambda: table.status != "playing", timeout=30)
        await svc.presenter.idle()
    assert spy.levels(0) == {"strong"}
    assert spy.levels(1) == spy.levels(2) == {"weak"}
    played = [m for m in moves if m[3]]
    assert all(auto for _, _, auto, _ in played)
    assert all(action == wanted["weak"] for seat, action, _, wanted in played if seat != 0)
    assert all(action == wanted["strong"] for seat, action, _, wanted in played if seat == 0)
    # the level told: some computer move was not the strong player's
    assert any(wanted["weak"] != wanted["strong"] for seat, _, _, wanted in played if seat != 0)


async def test_the_hint_at_a_weak_table_is_the_strong_players(
        tg: FakeTelegram, tmp_path: Path, spy: PolicySpy) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice, group, table = await alice_and_two_weak_computers(tg, app)
        await tg.send_text(group, alice, "/begin")
        await tg.wait_for(lambda: table.status == "playing")

        def levels_differ() -> bool:
            """Alice alone decides now, her buttons are current, and 弱 and 强 differ."""
            decision = table.decisions.get(0)
            if decision is None or not decision.legal or table.current.hand.to_act() != (0,):
                return False
            current = f"a:{table.id}:{decision.version}:"
            shown = action_buttons(hand_message(tg, alice))
            view = table.current.hand.private_view(0)
            return bool(shown) and all(d.startswith(current) for _, d in shown) and \
                player.choose(view, public(table), level="weak") != player.choose(
                    view, public(table))

        rng = random.Random(5)
        await alice_plays(tg, app, alice, table, rng, until=levels_differ)
        assert table.status == "playing", "no decision of Alice's where the levels differ"
        view = table.current.hand.private_view(0)
        strong = player.choose(view, public(table))
        assert player.choose(view, public(table), level="weak") != strong
        await check_hint(tg, alice, hand_message(tg, alice), table)  # names explain's action
        assert player.explain(view, public(table))[0] == strong
        assert spy.explained and set(spy.explained) == {0}
        assert not spy.levels(0)  # 提示 never asked a level's choose
        await alice_plays(tg, app, alice, table, rng)
        assert table.status == "between"
        await services(app).presenter.idle()
    assert not spy.levels(0) and spy.levels(1) | spy.levels(2) == {"weak"}


# --- the store -------------------------------------------------------------------------------

def _my_migration() -> int:
    """The schema version this work's migration brings (found by what it does)."""
    return next(i for i, m in enumerate(MIGRATIONS, 1) if "ADD COLUMN robot_level" in m)


async def test_the_migration_gives_old_tables_the_strong_level(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    old_database(path, _my_migration() - 1)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO users (user_id, name, lang) VALUES (1, 'u', 'zh')")
        db.execute("INSERT INTO tables (id, chat_id, opener_id, status, base, rules, timer)"
                   " VALUES (1, -100, 1, 'lobby', 3, 'hunan/4', 60)")
        db.execute("INSERT INTO seats (table_id, seat, user_id) VALUES (1, 0, 1)")
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        [row] = await store.open_tables()
        assert (row.rules, row.timer, row.base, row.robot_level) == ("hunan/4", 60, 3, "strong")
        async with store.transaction() as tx:
            await tx.update_table(1, robot_level="medium")
        assert (await store.open_tables())[0].robot_level == "medium"
    finally:
        await store.close()


async def test_the_level_is_stored_on_every_backend(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        async with store.transaction() as tx:
            await tx.upsert_user(1, "u1", None, "zh")
            table_id = await tx.create_table(-100, 1, 3)
        assert (await store.table(table_id)).robot_level == "strong"
        for level in LEVELS:
            async with store.transaction() as tx:
                await tx.update_table(table_id, robot_level=level)
            assert (await store.table(table_id)).robot_level == level
        with pytest.raises(INTEGRITY_ERRORS):
            async with store.transaction() as tx:
                await tx.update_table(table_id, robot_level="hard")
        assert (await store.table(table_id)).robot_level == LEVELS[-1]
    finally:
        await store.close()
