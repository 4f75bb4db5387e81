"""Votes at a table, end to end through the fake Bot API: a 解散 that passes (no
points, nobody penalised, the group told who agreed, the record verifies), one that times out,
one refused (a second proposal while one is open) and a 拒绝, stale and foreign presses, a
vote cancelled by a restart, and a seat in 托管 two whole hands handed to a computer player."""

from __future__ import annotations

import asyncio
import json
import random

from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeMessage, FakeTelegram, FakeUser
from support.forum import command, people
from support.play import seat_three, start_hand

from bot.i18n import t
from bot.table import ABSENT_HANDS, Refusal, Table
from engine.record import verify
from engine.views import OutcomeKind

DISSOLVE_WHAT = t("zh", "vote_what_dissolve")


def vote_message(tg: FakeTelegram, group, start: str) -> FakeMessage | None:  # type: ignore[no-untyped-def]
    return next((m for m in reversed(tg.messages(group)) if (m.text or "").startswith(start)),
                None)


async def propose(tg: FakeTelegram, group, user: FakeUser, command: str,  # type: ignore[no-untyped-def]
                  start: str) -> FakeMessage:
    await tg.send_text(group, user, command)
    return await tg.wait_for(lambda: vote_message(tg, group, start))


async def answer(tg: FakeTelegram, msg: FakeMessage, user: FakeUser, label: str) -> str:
    return (await tg.press_button(msg, user, label)).text or ""


async def press_old(tg: FakeTelegram, msg: FakeMessage, user: FakeUser, data: str) -> str:
    """Press a button ``msg`` no longer shows (its data kept from when it did)."""
    return (await tg.press(msg.chat, msg.message_id, user, data)).text or ""


async def test_a_dissolve_vote_that_passes_scores_nothing_and_verifies(tg: FakeTelegram,
                                                                       tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        _, no = msg.find_button("拒绝")
        assert "(还剩 " in msg.text and "等待:Bob、Carol" in msg.text
        # who has no say is told so; the proposer waits; nothing changes
        dave = tg.user("Dave")
        assert await answer(tg, msg, dave, "同意") == t("zh", "vote_not_voter")
        assert await answer(tg, msg, alice, "同意") == t("zh", "vote_proposer")
        assert await answer(tg, msg, bob, "同意") == t("zh", "vote_agreed")
        assert await answer(tg, msg, bob, "同意") == t("zh", "vote_already")
        await tg.wait_for(lambda: "同意:Bob" in (tg.message(group, msg.message_id).text or ""))
        assert table.status == "playing"
        assert await answer(tg, msg, carol, "同意") == t("zh", "vote_agreed")
        assert table.status == "between" and record.hand.outcome.kind == OutcomeKind.DISSOLVED
        passed = t("zh", "vote_passed", what=DISSOLVE_WHAT, names="Alice、Bob、Carol")
        await tg.wait_for(lambda: tg.message(group, msg.message_id).text == passed)
        assert tg.message(group, msg.message_id).keyboard == []
        assert await press_old(tg, msg, carol, no) == t("zh", "stale")  # the vote is over
        # no points and no hand counted for anyone; the settlement says why
        for user in (alice, bob, carol):
            assert await svc.store.score(user.id, group.id) == (0, 0, 0)
        await svc.presenter.idle()
        assert any(t("zh", "settle_dissolved") in (m.caption or m.text or "")
                   for m in tg.messages(group))
        # the record /export gives replays and verifies
        exported = await tg.wait_reply(await tg.send_text(group, alice, "/export"))
        doc = json.loads(exported.document_bytes)
        assert doc["result"]["kind"] == "dissolved" and doc["log"][-1] == [0, "dissolve"]
        assert verify(doc).ok
        reply = await tg.wait_reply(await tg.send_text(group, bob, "/dissolve"))
        assert reply.text == t("zh", "vote_no_hand")  # between hands: nothing to end
        # the table goes on: 再来一局 by all deals the next hand, the dealer unchanged
        dealer = record.hand.dealer
        for user in (alice, bob, carol):
            await svc.service.again(table.id, user.id)
        assert table.status == "playing" and table.current.hand.dealer == dealer


async def test_a_dissolve_vote_times_out(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", vote_timeout=0.3)
    async with running_bot(config) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        msg = await propose(tg, group, bob, "/dissolve", "🗳 Bob 提议解散本局")
        _, yes = msg.find_button("同意")
        await answer(tg, msg, alice, "同意")
        timed_out = t("zh", "vote_timed_out", what=DISSOLVE_WHAT, seconds=0)
        await tg.wait_for(lambda: tg.message(group, msg.message_id).text == timed_out)
        assert table.status == "playing" and tg.message(group, msg.message_id).keyboard == []
        assert await press_old(tg, msg, carol, yes) == t("zh", "stale")
        # over: a new proposal is taken (here privately: the table he sits at)
        await tg.send_text(carol, carol, "/dissolve")
        await tg.wait_for(lambda: vote_message(tg, group, "🗳 Carol 提议解散本局"))


async def test_one_vote_at_a_time_and_a_refusal_ends_it(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        reply = await tg.wait_reply(await tg.send_text(group, bob, "/dissolve"))
        assert reply.text == t("zh", "vote_busy")
        # the 解散 button of a seat's private keyboard proposes too: refused as well
        await svc.presenter.idle()
        deciding = next(u for u in (alice, bob, carol) if hand_message(tg, u).keyboard)
        dm = hand_message(tg, deciding)
        _, button = dm.find_button(t("zh", "btn_dissolve"))
        assert (await tg.press(deciding, dm.message_id, deciding, button)).text == \
            t("zh", "vote_busy")
        assert await answer(tg, msg, bob, "同意") == t("zh", "vote_agreed")
        assert await answer(tg, msg, carol, "拒绝") == t("zh", "vote_declined")
        refused = t("zh", "vote_refused", what=DISSOLVE_WHAT, name="Carol")
        await tg.wait_for(lambda: tg.message(group, msg.message_id).text == refused)
        assert table.status == "playing" and table.current.hand.outcome is None
        # over: the button proposes a new vote (posted in the group)
        assert (await tg.press(deciding, dm.message_id, deciding, button)).text == \
            t("zh", "vote_proposed")
        await tg.wait_for(lambda: vote_message(tg, group, f"🗳 {deciding.first_name} 提议解散"))
        # who is not seated has no say
        outsider = tg.user("Dave")
        reply = await tg.wait_reply(await tg.send_text(group, outsider, "/dissolve"))
        assert reply.text == t("zh", "not_seated")


async def test_a_restart_cancels_an_open_vote_and_says_so(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        _, yes = msg.find_button("同意")
        await answer(tg, msg, bob, "同意")
        await services(app).presenter.idle()
    async with running_bot(config) as app:
        cancelled = t("zh", "vote_cancelled_restart", what=DISSOLVE_WHAT)
        await tg.wait_for(lambda: tg.message(group, msg.message_id).text == cancelled)
        assert tg.message(group, msg.message_id).keyboard == []
        assert await press_old(tg, msg, carol, yes) == t("zh", "stale")
        table = services(app).service.in_chat(group.id)
        assert table.status == "playing"
        assert await services(app).store.open_votes() == []
        # and a new vote may be proposed at once
        await propose(tg, group, bob, "/dissolve", "🗳 Bob 提议解散本局")


async def play_without(tg: FakeTelegram, app, table: Table, users: list[FakeUser],  # type: ignore[no-untyped-def]
                       absent: FakeUser, rng: random.Random) -> None:
    """Play the hand to its end: every seat but ``absent``'s presses at once; hers times out
    and is played for (托管)."""
    svc = services(app)
    for _ in range(2000):
        if table.status != "playing":
            return
        present = [s for s, d in table.decisions.items() if d.legal and users[s] is not absent]
        if not present:
            await asyncio.sleep(0.02)
            continue
        seat = rng.choice(present)
        d = table.decisions[seat]
        try:
            await svc.service.act(table.id, users[seat].id, d.version, rng.randrange(len(d.legal)))
        except Refusal:  # her 托管 took the card first (a higher claim): that keyboard is gone
            continue
    raise AssertionError("the hand did not end")


async def test_a_seat_in_tuoguan_two_hands_is_handed_to_a_computer(tg: FakeTelegram,
                                                                   tmp_path) -> None:
    # Carol's decisions time out, never Alice's or Bob's (pressed at once, but on a busy
    # machine the press may take a while): a seat in 托管 would not be asked to vote
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=2.0)
    rng = random.Random(3)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        alice, bob, carol = users
        await play_without(tg, app, table, users, carol, rng)
        await svc.presenter.idle()  # the settlement is out
        reply = await tg.wait_reply(await tg.send_text(group, bob, "/replace"))
        assert reply.text == t("zh", "replace_none")  # one hand is not enough
        for user in users:  # Carol comes back for 再来一局 only, then plays nothing
            await svc.service.again(table.id, user.id)
        await play_without(tg, app, table, users, carol, rng)
        assert await svc.service.absent_seats(table) == [2]
        what = t("zh", "vote_what_replace", target="Carol", hands=ABSENT_HANDS)
        msg = await propose(tg, group, bob, "/replace", f"🗳 Bob 提议{what}")
        assert await answer(tg, msg, carol, "同意") == t("zh", "vote_not_voter")
        points_before = await svc.store.score(carol.id, group.id)
        assert await answer(tg, msg, alice, "同意") == t("zh", "vote_agreed")
        assert table.seat_of(carol.id) is None and table.players[2].robot
        assert table.status == "between"  # Alice and Bob press 再来一局 for the next hand
        assert await svc.store.score(carol.id, group.id) == points_before  # no 逃跑
        passed = t("zh", "vote_passed", what=what, names="Bob、Alice")
        await tg.wait_for(lambda: tg.message(group, msg.message_id).text == passed)
        await svc.service.again(table.id, alice.id)
        await svc.service.again(table.id, bob.id)
        assert table.status == "playing"


async def test_a_hunan_four_table_in_a_forum_topic_votes_its_xing_included(tg: FakeTelegram,
                                                                           tmp_path) -> None:
    """湖南 4 seats in a forum topic: the 醒家 holds no cards but is seated and human, so he
    may propose (and would vote); the vote is posted in the table's topic, and the dissolved
    hand pays nobody, 醒筹 included."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users = people(tg, "Alice", "Bob", "Carol", "Dave")
        forum = tg.forum("论坛", members=tuple(users))
        topic = tg.create_topic(forum, "湖南")
        await command(tg, forum, users[0], "/new hunan 4", topic)
        table = services(app).service.in_chat(forum.id, topic)
        for user in users[1:]:
            await tg.send_text(forum, user, "/join", topic=topic)
        await tg.wait_for(lambda: table.full)
        await tg.send_text(forum, users[0], "/begin", topic=topic)
        await tg.wait_for(lambda: table.status == "playing")
        xing = table.current.hand.public_view().xing
        assert xing is not None
        proposer = users[xing]
        start = f"🗳 {proposer.first_name} 提议解散本局"
        await tg.send_text(forum, proposer, "/dissolve", topic=topic)
        msg = await tg.wait_for(lambda: vote_message(tg, forum, start))
        assert msg.thread_id == topic
        for user in users:
            if user is not proposer:
                assert await answer(tg, msg, user, "同意") == t("zh", "vote_agreed")
        outcome = table.current.hand.outcome
        assert outcome.kind == OutcomeKind.DISSOLVED and outcome.points == (0, 0, 0, 0)
        assert table.status == "between"


async def test_a_seat_in_tuoguan_has_no_say(tg: FakeTelegram, tmp_path) -> None:
    """An absent player (托管) would keep a stuck hand stuck: he is not asked."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        table.players[2].autoplay = True  # as after Carol's decision timed out
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        assert "等待:Bob" in msg.text and "Carol" not in msg.text
        assert await answer(tg, msg, carol, "同意") == t("zh", "vote_not_voter")
        assert await answer(tg, msg, bob, "同意") == t("zh", "vote_agreed")
        assert table.current.hand.outcome.kind == OutcomeKind.DISSOLVED


async def test_a_dissolve_in_a_match_ends_the_match_with_its_summary(tg: FakeTelegram,
                                                                     tmp_path) -> None:
    """解散 means the seats want to stop: in a match it ends the match too (as /stop does),
    with a 总结算 of the hands played, the dissolved one scoring nothing."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        (alice, bob, carol), group, lobby = await seat_three(tg)
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table is not None
        await svc.service.configure(table.id, alice.id, "match", "4")
        assert (await tg.press_button(lobby, alice, "开局")).text is None
        assert table.status == "playing" and table.match is not None
        match_id = table.match.id
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        await answer(tg, msg, bob, "同意")
        await answer(tg, msg, carol, "同意")
        await tg.wait_for(lambda: any((m.caption or "").startswith("🏁 总结算")
                                      for m in tg.messages(group)), timeout=20)
        summary = next(m for m in tg.messages(group) if (m.caption or "").startswith("🏁 总结算"))
        assert "1/4 局" in summary.caption
        assert t("zh", "match_caption_stopped") in summary.caption
        row = await svc.store.match(match_id)
        assert row is not None and row.status == "stopped"
        assert table.match is None and table.status == "lobby"


async def test_a_vote_cancelled_by_a_restart_loses_its_buttons_through_a_429(
        tg: FakeTelegram, tmp_path, monkeypatch) -> None:
    """The cancelling edit is refused with a 429 at start-up (a flood of start-up edits): it
    is made again once the wait is over, and the vote's row goes only then."""
    from telegram.error import RetryAfter

    from bot.present.courier import Courier
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        await services(app).presenter.idle()
    real, refused = Courier.edit_message_text, []

    async def flooded(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not refused:
            refused.append(1)
            raise RetryAfter(0.1)
        return await real(self, *args, **kwargs)
    monkeypatch.setattr(Courier, "edit_message_text", flooded)
    async with running_bot(config) as app:
        cancelled = t("zh", "vote_cancelled_restart", what=DISSOLVE_WHAT)
        await tg.wait_for(lambda: tg.message(group, msg.message_id).text == cancelled)
        assert refused == [1] and tg.message(group, msg.message_id).keyboard == []
        await services(app).presenter.idle()
        assert await services(app).store.open_votes() == []


async def test_a_vote_refused_with_a_429_is_shown_once_the_wait_is_over(
        tg: FakeTelegram, tmp_path, monkeypatch) -> None:
    """The vote's first message and its edits are waited out on a 429 and made again, not
    dropped: the group sees the vote and its count."""
    from telegram.error import RetryAfter

    from bot.present.courier import Courier
    real_send, real_edit, refused = Courier.send_message, Courier.edit_message_text, []

    def flooded(real):  # type: ignore[no-untyped-def]
        async def call(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            if any("🗳" in str(a) for a in (*args, kwargs.get("text"))) and len(refused) < 2 and real.__name__ not in refused:
                refused.append(real.__name__)
                raise RetryAfter(0.1)
            return await real(self, *args, **kwargs)
        return call
    monkeypatch.setattr(Courier, "send_message", flooded(real_send))
    monkeypatch.setattr(Courier, "edit_message_text", flooded(real_edit))
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        (alice, bob, carol), group, lobby, svc, table = await start_hand(tg, app)
        msg = await propose(tg, group, alice, "/dissolve", "🗳 Alice 提议解散本局")
        assert await answer(tg, msg, bob, "同意") == t("zh", "vote_agreed")
        await tg.wait_for(lambda: "同意:Bob" in (tg.message(group, msg.message_id).text or ""))
        assert sorted(refused) == ["edit_message_text", "send_message"]
