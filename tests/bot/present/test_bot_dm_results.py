"""A hand ends where it was played: each player's private chat gets his result (his points,
the winning line) with 再来一局 and 离开 that count as the group's and 🔍 复盘 that stays
once they go, in exactly one message that notifies him; a bird's onlooker gets its result;
a hand voided by /stop says who stopped it in every private chat."""

from __future__ import annotations

import random
from pathlib import Path

from support.e2e import hand_message, make_config, running_bot, services, settlement_closed
from support.fakebot import FakeTelegram, FakeUser
from support.play import press_current, start_hand
from support.posted import settlement_id
from support.robots import alice_plays

from bot.i18n import t
from bot.present.screens.result import bird_result_text, voided_text
from bot.present.screens.review import review_row
from bot.present.screens.words import outcome_lines
from bot.table import Table
from engine.points import signed

NOTIFYING = frozenset({"sendMessage", "sendPhoto"})


def notifications(tg: FakeTelegram, user: FakeUser, since: int) -> list[str]:
    return [c.method for c in tg.calls[since:] if c.chat_id == user.id and c.method in NOTIFYING]


async def play_to_the_last_press(tg: FakeTelegram, app, table: Table,  # type: ignore[no-untyped-def]
                                 users: list[FakeUser], rng: random.Random) -> int:
    """Random presses until the hand ends; returns where the calls stood before the last."""
    svc = services(app)
    mark = len(tg.calls)
    while table.status == "playing":
        await svc.presenter.idle()
        mark = len(tg.calls)
        await press_current(tg, table, users, rng, tg.messages(users[0])[0])
    await svc.presenter.idle()
    return mark


async def test_each_player_gets_his_result_once_and_again_there_deals_on(
        tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, _, svc, table = await start_hand(tg, app)
        mark = await play_to_the_last_press(tg, app, table, users, random.Random(3))
        record = table.current
        outcome = record.hand.outcome
        assert table.status == "between" and outcome is not None
        won = " · ".join(outcome_lines(record, "zh"))
        results = []
        for seat, user in enumerate(users):
            assert notifications(tg, user, mark) == ["sendMessage"]  # the hand's end: once
            result = tg.messages(user)[-1]
            points = signed(outcome.points[seat])
            assert t("zh", "result_points", points=t("zh", "points_total", points=points,
                                                     total=points)) in result.text
            assert won in result.text.splitlines()  # who won with what, in one line
            assert hand_message(tg, user).caption.endswith(t("zh", "dm_over"))
            results.append(result)
        for user, result in zip(users[:2], results, strict=False):
            assert (await tg.press_button(result, user, "再来一局")).text == t("zh", "ready")
        assert table.status == "between" and table.current is record
        await tg.press_button(results[2], users[2], "再来一局")  # the last: the next hand
        assert table.status == "playing" and table.current is not record
        await svc.presenter.idle()
        for user, result in zip(users, results, strict=True):  # its 再来一局 / 离开 went
            assert tg.message(user, result.message_id).keyboard == [review_row(record.id, "zh")]
        group_settlement = tg.message(group, settlement_id(app, table, record))
        assert settlement_closed(group_settlement)  # the group's settlement moved on with them


async def test_leave_in_the_result_unseats_as_the_group_button_does(
        tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, _, _, svc, table = await start_hand(tg, app)
        await play_to_the_last_press(tg, app, table, users, random.Random(5))
        record, result = table.current, tg.messages(users[1])[-1]
        assert (await tg.press_button(result, users[1], "离开")).text == t("zh", "ok")
        assert table.seat_of(users[1].id) is None and table.status == "lobby"
        await svc.presenter.idle()
        assert tg.message(users[1], result.message_id).keyboard == [review_row(record.id, "zh")]


async def test_a_bird_onlooker_who_opened_the_bot_gets_his_result(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """湖南 4 seats, Alice and three computers; Eve (who opened the bot) and Fay (who did not)
    place birds in the lobby: Eve's private chat gets her bird's result, Fay is not written to."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=2.0)
    alice, eve, fay = (tg.user(n, language_code="zh-hans") for n in ("Alice", "Eve", "Fay"))
    group = tg.group("鸟群", members=(alice, eve, fay))
    tg.start_private(alice)
    tg.start_private(eve)
    async with running_bot(config, seed=2) as app:
        svc = services(app)
        await tg.wait_reply(await tg.send_text(eve, eve, "/start"))  # she opens the bot
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new 湖南 4"))
        table = svc.service.in_chat(group.id)
        for _ in range(2):  # the last seat after the birds: alone with computers, it deals
            await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: len(table.players) == 3)
        for onlooker in (eve, fay):
            assert (await tg.press_button(lobby, onlooker, t("zh", "btn_bird"))).text == \
                t("zh", "bird_placed")
        await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: table.status == "playing")
        await alice_plays(tg, app, alice, table, random.Random(1))
        await svc.presenter.idle()
        record = table.current
        assert table.status == "between"
        birds = {b.user_id: b for b in await svc.store.hand_birds(record.id)}
        assert set(birds) == {eve.id, fay.id} and birds[eve.id].points is not None
    [told] = [m for m in tg.messages(eve) if m.text and m.text.startswith("🐦")]
    assert told.text == bird_result_text(table, record, birds[eve.id], "zh")
    assert signed(birds[eve.id].points) in told.text.splitlines()[0]
    assert not [c for c in tg.calls if c.chat_id == fay.id]


async def test_a_hand_voided_by_stop_says_who_stopped_it_in_every_dm(
        tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, _, svc, table = await start_hand(tg, app)
        rng = random.Random(2)
        for _ in range(3):
            await press_current(tg, table, users, rng, tg.messages(users[0])[0])
        await svc.presenter.idle()
        record = table.current
        asked = await tg.wait_reply(await tg.send_text(group, users[0], "/stop"))
        mark = len(tg.calls)
        await tg.press_button(asked, users[0], t("zh", "btn_confirm_s"))
        await svc.presenter.idle()
        assert table.status == "closed" and record.hand.outcome is None
        for user in users:
            assert notifications(tg, user, mark) == ["sendMessage"]
            assert tg.messages(user)[-1].text == voided_text(table, record, "Alice", "zh")
            hand = hand_message(tg, user)
            assert hand.caption.endswith(t("zh", "dm_over_voided")) and not hand.keyboard
