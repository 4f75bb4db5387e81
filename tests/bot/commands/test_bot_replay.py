"""The replay stepper (/replay) through the real bot and a fake Telegram: a
finished hand stepped to the end and back with ⏮ ◀ ▶ ⏭ 🏆, each step's picture the one
``engine.replay`` gives for the hand's record; refusals (a running, unknown or voided hand, a
button of another group's hand), /replay N, private chats, forum topics, and rapid presses
coalesced into few edits."""

from __future__ import annotations

import json
import random

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from support.forum import open_table, people, play_out
from support.play import play_hand, start_hand
from support.service import PEOPLE, Clock, Observer

from bot import callbacks as cb
from bot.i18n import t
from bot.present import replays
from bot.present.fairness import export_file
from bot.present.screens.review import review_row
from bot.store import PlayedHand, Store
from bot.table import HandRecord, Table, TableService
from engine.record import verify
from engine.replay import replay_views
from engine.rules import get_rule_set
from engine.views import OutcomeKind


def played_of(table: Table, record: HandRecord) -> PlayedHand:
    """The hand as the bot's own records hold it (not read back from the store)."""
    outcome = record.hand.outcome
    assert outcome is not None
    return PlayedHand(record.id, record.no, record.hand.rules.key, record.hand.seed,
                      record.hand.dealer, record.hand.base, outcome.winner, tuple(record.hand.log),
                      tuple(record.users), tuple(record.names), outcome.points, table.id,
                      record.table_no)


async def says(tg: FakeTelegram, app, chat: FakeChat | FakeUser, user: FakeUser, text: str,
               topic: int | None = None) -> FakeMessage:
    await services(app).presenter.idle()  # the reply is then the next message
    sent = await tg.send_text(chat, user, text, topic=topic)
    return await tg.wait_reply(sent)


async def step(tg: FakeTelegram, app, msg: FakeMessage, user: FakeUser, label: str,
               lang: str = "zh") -> FakeMessage:
    """Press a replay button (answered at once with the step it shows) and wait for the
    edit."""
    data = msg.find_button(label)[1]
    answer = await tg.press_button(msg, user, label)
    press = cb.Replay.unpack(data)
    assert press is not None
    n = int(msg.find_button(lambda text, _: "/" in text)[0].split("/")[1])
    assert answer.text == t(lang, "replay_step", step=press.step, total=n), answer
    await services(app).presenter.idle()
    current = tg.message(msg.chat, msg.message_id)
    assert current is not None
    return current


def shows(msg: FakeMessage, played: PlayedHand, k: int, lang: str = "zh") -> None:
    """The message is step k of the hand: its caption, its buttons (the stepper, then 🔍 复盘)
    and its very picture."""
    assert msg.caption == replays.caption(played, k, lang)
    n = len(played.log)
    assert f"第 {k}/{n} 步" in msg.caption if lang == "zh" else f"step {k}/{n}" in msg.caption
    rows = [*(list(row) for row in replays.buttons(played, k)), review_row(played.id, lang)]
    if msg.chat.id < 0:  # and the link opening it in the viewer's private chat
        rows.append([(t(lang, "btn_replay_dm"), None)])
    assert msg.keyboard == rows
    assert msg.photo_bytes == replays.picture(played, k, lang)


async def test_a_finished_hand_is_stepped_to_the_end_and_back(tg: FakeTelegram,  # noqa: F811
                                                              tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3"), seed=2) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        assert (await says(tg, app, group, users[0], "/replay")).text == t("zh", "replay_none")
        assert (await says(tg, app, group, users[0], "/replay 1")).text == \
            t("zh", "replay_running", no=1)
        await play_hand(tg, app, users, group, random.Random(4))
        played = played_of(table, record)
        n = len(played.log)
        assert n > 10

        replay = await says(tg, app, group, users[2], "/replay")  # the hand is over: its deal
        shows(replay, played, 0)
        replay = await step(tg, app, replay, users[0], "⏭")
        shows(replay, played, n)
        replay = await step(tg, app, replay, users[1], "◀")
        shows(replay, played, n - 1)
        replay = await step(tg, app, replay, users[0], "⏮")
        shows(replay, played, 0)
        assert replay.find_button("◀")[1] == cb.Replay(record.id, 0).pack()  # never below 0
        for k in (1, 2, 3):
            replay = await step(tg, app, replay, users[2], "▶")
            shows(replay, played, k)
        replay = await step(tg, app, replay, users[2], "⏭")
        shows(replay, played, n)
        assert replay.find_button("▶")[1] == cb.Replay(record.id, n).pack()  # never past the end
        edits = replay.edits
        for label in ("▶", "⏭"):  # at the end: said so, nothing uploaded again
            assert (await tg.press_button(replay, users[1], label)).text == \
                t("zh", "replay_at_last")
        await svc.presenter.idle()
        assert tg.message(group, replay.message_id).edits == edits
        assert record.hand.outcome.kind == OutcomeKind.WIN  # (this deal, these presses)
        await step(tg, app, replay, users[0], "⏮")
        replay = await step(tg, app, replay, users[0], "🏆")  # the winning move, from anywhere
        shows(replay, played, n)

        again = await says(tg, app, group, users[0], "/replay 1")  # the group's hand 1
        shows(again, played, 0)
        for label in ("⏮", "◀"):  # at the start: said so, nothing uploaded again
            assert (await tg.press_button(again, users[1], label)).text == \
                t("zh", "replay_at_first")
        await svc.presenter.idle()
        assert tg.message(group, again.message_id).edits == 0
        assert (await says(tg, app, group, users[0], "/replay 7")).text == \
            t("zh", "replay_unknown", no=7)
        assert (await says(tg, app, group, users[0], "/replay x")).text == \
            t("zh", "replay_usage")

        # a button of this group's hand pressed in another group is refused, nothing edited
        other = tg.group("别的群", members=tuple(users))
        there = await says(tg, app, other, users[0], "/replay")
        assert there.text == t("zh", "replay_none")
        edits = tg.message(group, replay.message_id).edits
        answer = await tg.press(other, there.message_id, users[0], cb.Replay(record.id, 2).pack())
        assert answer.text == t("zh", "replay_foreign")
        answer = await tg.press(group, replay.message_id, users[0], cb.Replay(record.id, n + 1).pack())
        assert answer.text == t("zh", "stale")  # a step the hand does not have
        await svc.presenter.idle()
        assert tg.message(group, replay.message_id).edits == edits

        # in private: one's own hands, by id (the last by default); not somebody else's
        mine = await says(tg, app, users[0], users[0], "/replay")
        shows(mine, played, 0)
        mine = await step(tg, app, mine, users[0], "⏭")
        shows(mine, played, n)
        stranger = tg.user("Dora", language_code="en")
        tg.start_private(stranger)
        assert (await says(tg, app, stranger, stranger, f"/replay {record.id}")).text == \
            t("en", "replay_dm_unknown", id=record.id)
        answer = await tg.press(stranger, (await says(tg, app, stranger, stranger, "/replay"))
                                .message_id, stranger, cb.Replay(record.id, 1).pack())
        assert answer.text == t("en", "replay_foreign")

        # the group's replay links to the same replay in the viewer's private chat: a member
        # who did not play opens it there, at the deal, and steps it unpaced by the group
        url = replay.reply_markup["inline_keyboard"][-1][0]["url"]
        assert url == f"https://t.me/{app.bot.username}?start=r{record.id}"
        onlooker = tg.user("Eve", language_code="en")
        group.members[onlooker.id] = "member"
        tg.start_private(onlooker)
        private = await says(tg, app, onlooker, onlooker, f"/start r{record.id}")
        shows(private, played, 0, "en")
        private = await step(tg, app, private, onlooker, "▶", "en")
        shows(private, played, 1, "en")
        # not to someone outside the group
        assert (await says(tg, app, stranger, stranger, f"/start r{record.id}")).text == \
            t("en", "replay_dm_unknown", id=record.id)


async def test_a_voided_hand_is_not_replayed(tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        question = await says(tg, app, group, users[0], "/stop")
        assert (await tg.press_button(question, users[0], t("zh", "btn_confirm_s"))).text
        await tg.wait_for(lambda: table.status == "closed")
        assert (await says(tg, app, group, users[1], "/replay 1")).text == \
            t("zh", "replay_aborted", no=1)
        assert (await says(tg, app, group, users[1], "/replay")).text == t("zh", "replay_none")


async def test_the_replay_of_a_topics_hand_goes_to_that_topic(tg: FakeTelegram,  # noqa: F811
                                                               tmp_path) -> None:
    forum = tg.forum("跑胡子论坛")
    topic = tg.create_topic(forum, "一桌")
    users = people(tg, "Alice", "Bob", "Carol")
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        table, lobby = await open_table(tg, app, forum, topic, users)
        await tg.press_button(lobby, users[0], "开局")
        await tg.wait_for(lambda: table.status == "playing")
        record = table.current
        await play_out(tg, table, users, random.Random(5))
        played = played_of(table, record)
        replay = await says(tg, app, forum, users[1], "/replay", topic=topic)
        assert replay.thread_id == topic
        shows(replay, played, 0)
        replay = await step(tg, app, replay, users[2], "⏭")
        shows(replay, played, len(played.log))
    assert tg.topic_messages(forum, None) == []  # nothing in General


async def test_rapid_presses_coalesce_into_few_edits_to_the_last_step(
        tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        await play_hand(tg, app, users, group, random.Random(6))  # these presses: a 荒庄
        played = played_of(table, record)
        assert record.hand.outcome.kind == OutcomeKind.DRAW  # 荒庄: no winning move to jump to
        replay = await says(tg, app, group, users[0], "/replay")
        assert all(label != "🏆" for row in replay.keyboard for label, _ in row)
        svc.presenter.outbox(group.id).interval = 2.0  # a busy group: presses outrun its edits
        presses = 12
        # one after another (each answered before the next is sent), so the last press is
        # the last the bot reads: concurrent presses could arrive in any order
        answers = [await tg.press(group, replay.message_id, users[k % 3], cb.Replay(record.id, k).pack())
                   for k in range(1, presses + 1)]
        assert [a.text for a in answers] == [  # every press answered at once, with its step
            t("zh", "replay_step", step=k, total=len(played.log)) for k in range(1, presses + 1)]
        await svc.presenter.idle()
        final = tg.message(group, replay.message_id)
        assert final is not None and final.edits <= 3, final.edits
        shows(final, played, presses)


@pytest.mark.parametrize("key", ["qq", "hunan/4", "hunan/3", "hunan/2/min21", "four14"])
async def test_every_shape_replays_its_exported_record(tmp_path, key: str) -> None:
    """A hand of each rule set and seat count (computers in the other seats, the human in
    托管), found by its group number, is the record /export gives, and every one of its
    steps is drawn (the 醒家's seat too), the last one the hand's end."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        await store.upsert_user(PEOPLE[0].user_id, PEOPLE[0].name, None, "zh", dm_ok=True)
        clock = Clock()
        service = TableService(store, Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                               autoplay_delay=1.5, clock=clock, rng=random.Random(3))
        rules = get_rule_set(key)
        table = await service.open(-100, PEOPLE[0], rules)
        for _ in range(rules.players - 1):
            await service.add_robot(table.id, PEOPLE[0].user_id, "zh")
        await service.begin(table.id, PEOPLE[0].user_id)
        record = table.current
        assert await store.hand_in_chat(-100, record.no) == (record.id, "running")
        assert await store.played_hand(record.id) is None  # not before its end
        while table.status == "playing":
            clock.now += 100
            await service.play_due(table.id)
        assert await store.hand_in_chat(-100, record.no) == (record.id, "done")
        found = await store.played_hand(record.id)
        assert found is not None and found[0] == -100
        played = found[1]
        assert (played.rule_set, played.seed, played.dealer, played.log, played.points) == (
            key, record.hand.seed, record.hand.dealer, tuple(record.hand.log),
            record.hand.outcome.points)
        _, data, _ = export_file(played)
        doc = json.loads(data)
        assert [tuple(m) for m in doc["log"]] == list(played.log) and verify(doc).ok
        n = len(played.log)
        for k in sorted({0, 1, n // 2, n - 1, n}):
            frame = replay_views(played.rule_set, played.seed, played.dealer, played.base,
                                 played.log, k)
            assert len(frame.views) == rules.players and frame.finished == (k == n)
            assert replays.picture(played, k, "en")[:2] == b"\xff\xd8"  # a JPEG
        assert replays.caption(played, n, "en").endswith(f"step {n}/{n}")
    finally:
        await store.close()


def test_replay_buttons_carry_the_hand_and_the_step() -> None:
    assert cb.parse(cb.Replay(12, 34).pack()) == cb.Replay(hand=12, step=34)
    assert cb.parse("p:12") is None and cb.parse("p:12:-1") is None
    assert cb.parse(cb.Replay(2**40, 999).pack()) is not None  # far within 64 bytes
