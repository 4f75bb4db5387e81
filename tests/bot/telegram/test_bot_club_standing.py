"""Standing tables (常驻桌, 代开) through the real bot and a fake Telegram: an admin's
``/new … 常驻`` opens a table he does not sit at; it plays a match, is back in a fresh lobby
with its rules, waits there empty when its last player leaves, comes back after a restart
with its rules and a fresh lobby, plays a second match, and closes only by an admin's /stop.
Non-admins are refused, and /new's words parse."""

from __future__ import annotations

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from support.forum import command
from support.play import play_match_hand
from support.posted import lobby_id, settlement_id
from telegram.ext import Application

from bot.i18n import t
from bot.table import Table
from bot.telegram.lobby import match_from_args, standing_from_args

AUTOPLAY_AFTER = 0.2  # Alice's first decision of a hand times out into 托管 after this
NEW = "/new hunan 2 4局 常驻"


@pytest.mark.parametrize(("args", "rest", "standing"), [
    ([], [], False),
    (["常驻"], [], True),
    (["hunan", "4", "8局", "常驻"], ["hunan", "4", "8局"], True),
    (["standing", "qq"], ["qq"], True),
])
def test_new_tells_a_standing_table(args: list[str], rest: list[str], standing: bool) -> None:
    assert standing_from_args(args) == (rest, standing)


def test_new_takes_single_hands_as_the_settings_say_it() -> None:
    assert match_from_args(["8局", "单局"]) == ([], 1)
    assert match_from_args(["hunan", "单局"]) == (["hunan"], 1)


def _lobby(tg: FakeTelegram, app: Application, group: FakeChat,  # type: ignore[type-arg]
           table: Table) -> FakeMessage:
    assert lobby_id(app, table) is not None
    lobby = tg.message(group, lobby_id(app, table))
    assert lobby is not None and lobby.text is not None
    return lobby


def _standing_lobby(tg: FakeTelegram, app: Application, group: FakeChat,  # type: ignore[type-arg]
                    table: Table) -> FakeMessage:
    """The table's lobby says it is standing, with its rules, and has a seat button while a
    seat is free."""
    lobby = _lobby(tg, app, group, table)
    assert t("zh", "lobby_standing") in lobby.text  # type: ignore[operator]
    assert "湖南跑胡子 · 2人" in lobby.text and "局数:4局" in lobby.text  # type: ignore[operator]
    assert any(text == t("zh", "btn_join") for text, _ in lobby.buttons) != table.full
    return lobby


async def _play_a_match(tg: FakeTelegram, app: Application, group: FakeChat,  # type: ignore[type-arg]
                        table: Table, alice: FakeUser) -> None:
    """Alice sits by the lobby's 加入 with a computer player; the full lobby deals and the
    4-hand match plays out (Alice in 托管); the table is back in a new lobby below the
    match, with its rules, Alice and the computer still seated."""
    await tg.press_button(_standing_lobby(tg, app, group, table), alice, t("zh", "btn_join"))
    await tg.wait_for(lambda: table.seat_of(alice.id) is not None)
    await tg.send_text(group, alice, "/addbot")
    await tg.wait_for(lambda: table.status == "playing", timeout=20)
    before = lobby_id(app, table)
    for k in range(1, 5):
        await play_match_hand(tg, app, table, alice, group, k, n=4)
    await tg.wait_for(lambda: table.status == "lobby" and table.match is None, timeout=20)
    await services(app).presenter.idle()
    lobby = _standing_lobby(tg, app, group, table)
    settle = tg.message(group, settlement_id(app, table))  # type: ignore[union-attr,arg-type]
    assert settle is not None and lobby.message_id > settle.message_id != before
    assert len(table.players) == 2


async def test_a_standing_table_plays_two_matches_across_a_restart(tg: FakeTelegram,
                                                                     tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=AUTOPLAY_AFTER,
                         full_start_delay=0.0)
    olga, alice = tg.user("Olga"), tg.user("Alice")
    tg.start_private(alice)
    group = tg.group("俱乐部", members=(alice,), owner=olga)
    async with running_bot(config) as app:
        svc = services(app)
        refused = await command(tg, group, alice, NEW, None)  # not an admin
        assert refused.text == t("zh", "standing_admin_only")
        assert svc.service.in_chat(group.id) is None
        await command(tg, group, olga, NEW, None)
        table = svc.service.in_chat(group.id)
        assert table is not None and table.standing and not table.players  # Olga need not sit
        assert table.opener_id == olga.id and svc.service.table_of_user(olga.id) is None
        rules = table.rules
        again = await command(tg, group, olga, "/new qq 常驻", None)  # one table a topic
        assert again.text == t("zh", "table_exists") and table.rules == rules
        await svc.presenter.idle()
        assert t("zh", "lobby_admin") in _standing_lobby(tg, app, group, table).text  # type: ignore[operator]
        await _play_a_match(tg, app, group, table, alice)
        # Alice's /stop is refused (the table is the admin's), her /leave empties it
        assert (await command(tg, group, alice, "/stop", None)).text == t("zh", "only_opener")
        await tg.send_text(group, alice, "/leave")
        await tg.wait_for(lambda: not table.players)  # the computer player goes with her
        assert table.status == "lobby" and svc.service.in_chat(group.id) is table
        await svc.presenter.idle()
        old_lobby = _standing_lobby(tg, app, group, table).message_id
    async with running_bot(config) as app:  # a restart: the same table, rules and no seats
        svc = services(app)
        table = svc.service.in_chat(group.id)  # type: ignore[assignment]
        assert table is not None and table.standing and table.rules == rules
        assert not table.players and table.status == "lobby"
        await tg.wait_for(lambda: lobby_id(app, table) not in (None, old_lobby))
        await svc.presenter.idle()
        assert _standing_lobby(tg, app, group, table).message_id > old_lobby  # a fresh lobby
        assert not tg.message(group, old_lobby).buttons  # type: ignore[union-attr]
        await _play_a_match(tg, app, group, table, alice)
        assert svc.service.in_chat(group.id) is table and table.rules == rules
        await tg.send_text(group, olga, "/stop")  # the admin closes it
        await tg.wait_for(lambda: svc.service.in_chat(group.id) is None)
        assert (await svc.store.table(table.id)).status == "closed"  # type: ignore[union-attr]
