"""Leaving (docs/rules/qq.md, 决定 10): anyone leaving starts a new 局 (the next dealer is drawn again,
the 荒庄 count restarts), kept over a restart; the opener leaving hands the table on."""

from __future__ import annotations

import random

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeMessage, FakeTelegram
from support.play import start_hand
from support.service import PEOPLE, Clock, Observer, seated

from bot.i18n import t
from bot.store import Store
from bot.table import Person, Refusal, Table, TableService

SEED = 7


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in [*PEOPLE, DAVE]:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    yield TableService(store, Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                       autoplay_delay=1.5, clock=Clock(), seed=SEED)
    await store.close()


DAVE = Person(40, "D", "zh")


async def finish(service: TableService, table: Table) -> None:
    rng = random.Random(5)
    while table.status == "playing":
        seat = rng.choice([s for s, d in table.decisions.items() if d.legal])
        d = table.decisions[seat]
        await service.act(table.id, PEOPLE[seat].user_id, d.version, rng.randrange(len(d.legal)))


async def restarted(service: TableService) -> Table:
    fresh = TableService(service.store, service.observer, action_timeout=60,
                         autoplay_delay=1.5, seed=SEED)
    [table] = await fresh.load()
    return table


def first_dealer(table: Table, no: int) -> int:
    """The dealer drawn for hand ``no`` of a new 局 (the seeded source: see TableService)."""
    return random.Random(f"{SEED}:{table.id}:{no}").randrange(3)


@pytest.mark.parametrize("how", ["leave", "escape"])
async def test_a_player_leaving_starts_a_new_ju(service, how: str) -> None:
    table = await seated(service)
    if how == "leave":
        await finish(service, table)
        table.draws_in_row = 2  # as after two 荒庄 in a row
        async with service.store.transaction() as tx:
            await tx.update_table(table.id, draws_in_row=2)
    carried = table.dealer  # the next dealer as the finished (or running) hand left it
    assert carried is not None
    assert first_dealer(table, 2) != carried  # these seeds tell a drawn dealer from it
    running = table.current.id if how == "escape" else None  # 逃跑 is confirmed for it
    await service.leave(table.id, PEOPLE[2].user_id, running)
    assert (table.status, table.dealer, table.draws_in_row) == ("lobby", None, 0)
    again = await restarted(service)  # kept in the store
    assert (again.dealer, again.draws_in_row) == (None, 0)
    await service.join(table.id, DAVE)
    await service.begin(table.id, PEOPLE[0].user_id)
    assert table.current.no == 2
    assert table.current.hand.dealer == first_dealer(table, 2)  # drawn, as the first was


async def test_the_opener_leaving_hands_the_table_to_the_next_seated(service) -> None:
    table = await service.open(-100, PEOPLE[0])
    await service.add_robot(table.id, PEOPLE[0].user_id, "zh")  # a computer never opens
    await service.join(table.id, PEOPLE[1])
    await service.leave(table.id, PEOPLE[0].user_id)
    assert table.opener_id == PEOPLE[1].user_id
    assert (await restarted(service)).opener_id == PEOPLE[1].user_id
    await service.stop(table.id, PEOPLE[1].user_id, is_admin=False)  # and may close it
    assert table.status == "closed"


async def test_a_groups_hands_are_numbered_on_across_its_tables(service) -> None:
    table = await seated(service)
    await finish(service, table)
    await service.stop(table.id, PEOPLE[0].user_id, is_admin=False)
    again = await seated(service)  # a new table in the same group
    assert again.id != table.id and (table.current.no, again.current.no) == (1, 2)


async def test_escape_and_stopping_a_hand_need_their_confirmation(service) -> None:
    table = await seated(service)
    running = table.current.id
    for attempt in (service.leave(table.id, PEOPLE[2].user_id),
                    service.stop(table.id, PEOPLE[0].user_id, is_admin=False)):
        with pytest.raises(Refusal, match="unconfirmed"):
            await attempt
    with pytest.raises(Refusal, match="stale"):  # a confirmation of another hand
        await service.leave(table.id, PEOPLE[2].user_id, running + 1)
    assert table.status == "playing" and len(table.players) == 3
    assert service.escape_quote(table.id, PEOPLE[2].user_id) == \
        (running, table.current.hand.escape_quote(2))
    await service.stop(table.id, PEOPLE[0].user_id, is_admin=False, hand_id=running)
    assert table.status == "closed"


# --- through the real bot and a fake Telegram: 逃跑 and stopping a hand are asked first ------


def question_in(tg: FakeTelegram, chat, text: str) -> FakeMessage | None:  # type: ignore[no-untyped-def]
    return next((m for m in reversed(tg.messages(chat)) if m.text == text and m.keyboard), None)


async def test_leave_during_a_hand_asks_first_with_the_amount(tg: FakeTelegram,
                                                                tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        alice, bob, carol = users
        record = table.current
        asked = t("zh", "escape_confirm", points=record.hand.escape_quote(2))
        assert asked.startswith("确定逃跑?将赔每家至少 ")
        # /leave: the question comes in Carol's private chat, never in the group
        await tg.send_text(group, carol, "/leave")
        question = await tg.wait_for(lambda: question_in(tg, carol, asked))
        assert [text for row in question.keyboard for text, _ in row] == ["确认逃跑", "取消"]
        # the group is told where the question went, without its amount
        told = t("zh", "escape_asked", name="Carol")
        assert told == "Carol:要不要逃跑,请在你和机器人的私聊里确认。"
        await tg.wait_for(lambda: any(m.text == told for m in tg.messages(group)))
        assert (await tg.press_button(question, carol, "取消")).text == t("zh", "kept")
        cancelled = await tg.wait_for(lambda: (m := tg.message(carol, question.message_id))
                                      and m.keyboard == [] and m)
        assert cancelled.text == "已取消。"  # the question is not left standing
        assert table.status == "playing" and table.seat_of(carol.id) == 2
        # the lobby's 离开 during the hand: outdated, asked again by /leave only
        answer = await tg.press(group, lobby.message_id, carol, f"l:{table.id}:0")
        assert answer.text == t("zh", "stale") and table.seat_of(carol.id) == 2
        await tg.send_text(group, carol, "/leave")
        await svc.presenter.idle()
        assert not any(str(record.hand.escape_quote(2)) in (m.text or "") and "逃跑" in m.text
                       for m in tg.messages(group))
        # Bob asks too, then Carol confirms: she escapes, the hand is over
        await tg.send_text(group, bob, "/leave")
        bobs = await tg.wait_for(lambda: question_in(
            tg, bob, t("zh", "escape_confirm", points=record.hand.escape_quote(1))))
        question = await tg.wait_for(lambda: question_in(tg, carol, asked))
        assert (await tg.press_button(question, carol, "确认逃跑")).text == t("zh", "escaped")
        assert record.hand.outcome.kind == "escape" and record.hand.outcome.escaper == 2
        assert table.status == "lobby" and table.seat_of(carol.id) is None
        # Bob's question was about that hand: outdated now, he stays seated
        assert (await tg.press_button(bobs, bob, "确认逃跑")).text == t("zh", "stale")
        assert table.seat_of(bob.id) == 1


async def test_stop_of_a_running_hand_asks_the_group_first(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        alice, bob, _ = users
        asked = t("zh", "stop_confirm", hand=1)
        await tg.send_text(group, alice, "/stop")
        question = await tg.wait_for(lambda: question_in(tg, group, asked))
        # only the opener (or an admin) answers it
        assert (await tg.press_button(question, bob, "确认结束")).text == t("zh", "only_opener")
        assert (await tg.press_button(question, bob, "取消")).text == t("zh", "only_opener")
        assert (await tg.press_button(question, alice, "取消")).text == t("zh", "kept")
        cancelled = await tg.wait_for(lambda: (m := tg.message(group, question.message_id))
                                      and m.keyboard == [] and m)
        assert cancelled.text == t("zh", "question_cancelled")
        assert table.status == "playing"
        await tg.send_text(group, alice, "/stop")
        question = await tg.wait_for(lambda: question_in(tg, group, asked))
        await tg.press_button(question, alice, "确认结束")
        await tg.wait_for(lambda: svc.service.in_chat(group.id) is None)
        assert table.status == "closed"
        rows = await svc.store._all("SELECT status FROM hands")
        assert [r["status"] for r in rows] == ["aborted"]  # void: nobody scores
