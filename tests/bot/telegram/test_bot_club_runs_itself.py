"""A standing table that runs itself, through the real bot and a fake Telegram: players sit
by /play (快速加入), a match of 4 hands plays out, the table is back in its lobby with a 准备
button; the one who presses it keeps his seat, the two who walk away are unseated after
READY_TIMEOUT, a /play while it is full opens a second table like it in a new topic
(满桌开新桌), and newcomers' /play fill the first table, which deals by itself."""

from __future__ import annotations

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.forum import command
from support.posted import lobby_id
from telegram.ext import Application

from bot.i18n import t
from bot.table import Refusal, Table
from bot.telegram.quick import Wanted, wanted_from_args

READY = 4.0  # the test's READY_TIMEOUT, in real seconds: time for what happens before it
NEW = "/new hunan 3 4局 常驻"


@pytest.mark.parametrize(("args", "wanted"), [
    ([], Wanted()),
    (["hunan"], Wanted("hunan")),
    (["湖南", "4人", "8局"], Wanted("hunan", 4, 8)),
    (["qq", "单局"], Wanted("qq", None, 1)),
])
def test_play_reads_new_s_words(args: list[str], wanted: Wanted) -> None:
    assert wanted_from_args(args) == wanted


@pytest.mark.parametrize("args", [["²"], ["mahjong"], ["5局"], ["3" * 20]])
def test_play_refuses_other_words(args: list[str]) -> None:
    with pytest.raises(Refusal) as refused:
        wanted_from_args(args)
    assert refused.value.code == "play_usage"


async def _play_match(tg: FakeTelegram, table: Table, users: list[FakeUser],
                      carrier_chat: FakeChat) -> None:
    """The seated humans (in 托管) play the match's 4 hands, each pressing 再来一局 between
    them (by its callback data: the bot reads only that)."""
    carrier = await tg.send_text(carrier_chat, users[0], "·")
    for k in range(1, 5):
        await tg.wait_for(lambda: table.status != "playing", timeout=60)
        assert table.current is not None and table.current.match_place == (k, 4)
        if k == 4:
            break
        record = table.current
        for user in users:
            await tg.press(carrier.chat, carrier.message_id, user, f"g:{table.id}:{record.id}")
        await tg.wait_for(lambda r=record: table.status == "playing" and table.current is not r)


def _buttons(tg: FakeTelegram, app: Application, forum: FakeChat,  # type: ignore[type-arg]
             table: Table) -> list[str]:
    lobby = tg.message(forum, lobby_id(app, table))  # type: ignore[arg-type]
    assert lobby is not None
    return [text for text, _ in lobby.buttons]


async def test_a_standing_table_runs_itself(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.2, ready_timeout=READY,
                         full_start_delay=0.3)
    olga = tg.user("Olga")
    alice, bob, cara, dan, eve, fay = players = [tg.user(n) for n in
                                                 ("Alice", "Bob", "Cara", "Dan", "Eve", "Fay")]
    for user in players:
        tg.start_private(user)
    forum = tg.forum("俱乐部", members=tuple(players), owner=olga)
    forum.members[tg.bot.id] = "administrator"  # it may create topics
    topic = tg.create_topic(forum, "湖南")
    async with running_bot(config) as app:
        svc = services(app)
        none = await command(tg, forum, alice, "/play", topic)
        assert none.text == t("zh", "play_none")  # /play never opens the first table
        await command(tg, forum, olga, NEW, topic)
        table = svc.service.in_chat(forum.id, topic)
        assert table is not None and table.standing
        wrong = await command(tg, forum, alice, "/play qq", None)  # asked from General
        assert wrong.text == t("zh", "play_none")
        for user in (alice, bob, cara):
            await tg.send_text(forum, user, "/play hunan", topic=None)
            await tg.wait_for(lambda u=user: table.seat_of(u.id) is not None)
        await svc.presenter.idle()
        said = [m.text for m in tg.topic_messages(forum, None) if m.text]
        assert t("zh", "play_seated", name="Cara", table=table.no,
                 rules="湖南跑胡子 · 3人") in said
        await tg.wait_for(lambda: table.status == "playing", timeout=10)  # full: it deals
        await _play_match(tg, table, [alice, bob, cara], forum)
        await tg.wait_for(lambda: table.status == "lobby" and table.match is None, timeout=20)
        await svc.presenter.idle()
        assert len(table.players) == 3  # seated still, none ready
        # Fay's /play while the table is full: a second one like it, in a new topic
        await tg.send_text(forum, fay, "/play", topic=None)
        await tg.wait_for(lambda: svc.service.table_of_user(fay.id) is not None)
        second = svc.service.table_of_user(fay.id)
        assert second is not None and second is not table and second.standing
        assert second.thread_id not in (None, topic) and second.chat_id == forum.id
        assert (second.rules, second.match_hands, second.base, second.opener_id) == \
            (table.rules, table.match_hands, table.base, table.opener_id)
        assert forum.topics[second.thread_id].name == "常驻 · 湖南跑胡子 · 3人 · 2"
        assert second.no != table.no
        lobby = tg.message(forum, lobby_id(app, table))  # type: ignore[arg-type]
        assert lobby is not None and lobby.thread_id == topic
        assert t("zh", "lobby_await_ready", seconds=f"{READY:g}") in (lobby.text or "")
        assert t("zh", "btn_ready") in _buttons(tg, app, forum, table)
        await tg.press_button(lobby, cara, t("zh", "btn_ready"))  # Cara stays
        await tg.wait_for(lambda: table.players[table.seat_of(cara.id)].ready)  # type: ignore[index]
        await svc.presenter.idle()
        lobby = tg.message(forum, lobby_id(app, table))  # type: ignore[arg-type]
        assert t("zh", "seat_ready", n=table.seat_of(cara.id) + 1, name="Cara") \
            in (lobby.text or "")  # type: ignore[union-attr, operator]
        # Alice and Bob walked away: unseated after READY_TIMEOUT, Cara keeps her seat
        await tg.wait_for(lambda: len(table.players) == 1, timeout=READY + 5)
        assert table.seat_of(cara.id) is not None and table.status == "lobby"
        await svc.presenter.idle()
        notes = [m.text for m in tg.topic_messages(forum, topic) if m.text]
        assert t("zh", "lobby_ready_timeout", names="Alice、Bob") in notes, notes[-3:]
        assert t("zh", "btn_join") in _buttons(tg, app, forum, table)
        # newcomers by /play: the first table with a free seat, which deals once full
        for user in (dan, eve):
            await tg.send_text(forum, user, "/play", topic=None)
            await tg.wait_for(lambda u=user: table.seat_of(u.id) is not None)
        await tg.wait_for(lambda: table.status == "playing", timeout=10)
        assert table.match is not None and table.match.hand_no == 1
        assert {p.user_id for p in table.players.values()} == {cara.id, dan.id, eve.id}
        assert second.seat_of(fay.id) is not None and second.status == "lobby"
        # /tables names both topics: the one a member made and the one the bot made
        listing = await command(tg, forum, fay, "/tables", second.thread_id)
        first_line, second_line = listing.text.splitlines()[1:]  # type: ignore[union-attr]
        assert "话题「湖南」" in first_line
        assert "话题「常驻 · 湖南跑胡子 · 3人 · 2」" in second_line
