"""End to end: three users play complete hands through the real bot and a fake Telegram.

Time in the fake is scaled so that the bot's fast test pacing (one group call per 0.05 s)
stands for the real default (one per 3.5 s): ``max_per_minute`` is then measured in the
scaled minutes the real bot would live through.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from support.e2e import (
    action_buttons,
    hand_message,
    make_config,
    running_bot,
    services,
    settlement_closed,
)
from support.fakebot import FakeTelegram, FakeUser, RateLimits
from support.play import (
    check_group,
    check_private,
    play_hand,
    press_current,
    press_result,
    seat_three,
    start_hand,
)
from support.posted import settlement_id

from bot.commands import rulebook
from bot.i18n import t
from engine.points import signed
from engine.rules import QQ
from engine.views import OutcomeKind


async def test_three_players_play_hands_to_settlement(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby = await seat_three(tg, langs=("zh-hans", "en", "zh-hans"))
        svc = services(app)
        assert (await tg.press_button(lobby, users[0], "开局")).text is None
        rng = random.Random(20261129)
        kinds = []
        for n in range(3):
            table = await play_hand(tg, app, users, group, rng)
            kinds.append(table.current.hand.outcome.kind)
            record = table.current
            assert table.status == "between"
            settle = tg.message(group, settlement_id(app, table, record))
            outcome = record.hand.outcome
            if outcome.winner is not None:
                win = outcome.win
                assert f"{record.names[outcome.winner]} 胡牌!胡息 {win.huxi} · 底 {win.di} · " \
                    f"番 {win.fan}" in settle.caption
            elif outcome.kind == "draw":
                assert "荒庄" in settle.caption
            for seat, user in enumerate(users):
                points = outcome.points[seat]
                assert f"{user.first_name}: {signed(points)}" in settle.caption
            # every hand message is final: no action buttons left
            assert not any(action_buttons(hand_message(tg, u)) for u in users)
            if n < 2:
                for user in users:
                    await press_result(tg, user)
                await tg.wait_for(lambda t=table: t.status == "playing")
                assert table.current.no == n + 2
                dealer = table.current.hand.dealer  # the winner deals; after 荒庄 he stays
                if outcome.winner is not None:
                    assert dealer == outcome.winner
                else:
                    assert dealer in (record.hand.dealer, (record.hand.dealer + 1) % 3)
                await svc.presenter.idle()  # the old settlement keeps only 验证
                assert settlement_closed(tg.message(group, settle.message_id))
        assert OutcomeKind.WIN in kinds  # these seeds see a win settled (and a 荒庄)
        assert tg.message(group, lobby.message_id).keyboard == []  # nor the lobby
        # Carol leaves after the last hand: the settlement keeps only 验证, a lobby opens
        await press_result(tg, users[2], "q")
        await svc.presenter.idle()
        assert table.status == "lobby"
        assert settlement_closed(tg.message(group, settle.message_id))
        assert "(空)" in tg.last_message(group).text
        # scores: results sum to zero per hand and add up in the chat's score table
        totals = await svc.store.table_totals(table.id)
        assert sum(totals.values()) == 0
        for user in users:
            points, hands, _ = await svc.store.score(user.id, group.id)
            assert (points, hands) == (totals.get(user.id, 0), 3)
        per_minute = tg.max_per_minute(group)
        print(f"group: {len(tg.send_times(group))} messages-or-edits, at most {per_minute} "
              "in a (scaled) minute")
        assert per_minute <= 20
        assert not tg.unknown_methods
        assert not [e for e in tg.errors if e.code != 403], tg.errors
        assert ("join", t("zh", "cmd_join")) in tg.commands(scope="all_group_chats")
        assert ("join", t("en", "cmd_join")) in tg.commands(scope="all_group_chats",
                                                            language_code="en")


async def test_foreign_stale_and_double_presses_change_nothing(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        mover = next(u for u in users if action_buttons(hand_message(tg, u)))
        other = next(u for u in users if not action_buttons(hand_message(tg, u)))
        msg = hand_message(tg, mover)
        buttons = action_buttons(msg)  # a discard: more than one button
        data = buttons[0][1]
        stranger = tg.user("Dave")
        before = (table.version, list(table.current.hand.log))

        async def refused(user: FakeUser, payload: str, key: str) -> None:
            answer = await tg.press(mover, msg.message_id, user, payload)
            assert answer.text == t("zh", key), (payload, answer)
            assert (table.version, list(table.current.hand.log)) == before

        await refused(stranger, data, "not_seated")
        _, tid, version, index = data.split(":")
        await refused(other, data, "not_your_turn")  # another seat's button: its own seat
        await refused(mover, f"a:{tid}:{int(version) + 7}:{index}", "stale")
        await refused(mover, f"a:{tid}:{version}:99", "stale")
        await refused(mover, "a:999:1:0", "unknown_table")
        await refused(mover, "x" * 80, "stale")
        # a double press: one of them plays, both are answered with the move (a discard)
        answers = await asyncio.gather(tg.press(mover, msg.message_id, mover, data),
                                       tg.press(mover, msg.message_id, mover, data))
        assert [a.text for a in answers] == [f"✓ {buttons[0][0]}"] * 2
        assert len(table.current.hand.log) == len(before[1]) + 1
        # later, the same button still answers with the move; the keyboard's others are old
        await svc.presenter.idle()
        after = (table.version, len(table.current.hand.log))
        assert (await tg.press(mover, msg.message_id, mover, data)).text == answers[0].text
        assert (await tg.press(mover, msg.message_id, mover, buttons[1][1])).text == \
            t("zh", "stale") == "这个按钮已过时,请用最新的按钮。"
        assert (table.version, len(table.current.hand.log)) == after


async def test_timeout_autoplays_and_control_comes_back(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=1.0)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        # nobody presses: the first awaited seat goes into 托管 and is played for
        first = table.current.hand.to_act()[0]
        user = users[first]
        await tg.wait_for(lambda: table.players[first].autoplay, timeout=5)
        await tg.wait_for(lambda: "托管中" in (hand_message(tg, user).caption or ""), timeout=5)
        msg = hand_message(tg, user)
        assert msg.keyboard == [[("取消托管", f"m:{table.id}")]]
        answer = await tg.press_button(msg, user, "取消托管")
        assert answer.text == t("zh", "autoplay_off")
        assert not table.players[first].autoplay
        # left alone, every seat times out and the bot finishes the hand
        await tg.wait_for(lambda: table.status != "playing", timeout=60)
        assert table.current.hand.is_terminal()
        await svc.presenter.idle()
        auto = await svc.store._all("SELECT COUNT(*) AS n FROM actions WHERE auto = 1")
        assert auto[0]["n"] == len(table.current.hand.log)


async def test_leaving_mid_hand_is_escape(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        await tg.send_text(group, users[2], "/leave")  # asked first, privately (see test_bot_leave)
        penalty = record.hand.escape_quote(2)
        question = await tg.wait_for(lambda: next(
            (m for m in tg.messages(users[2]) if m.text == t("zh", "escape_confirm",
                                                               points=penalty)), None))
        assert (await tg.press_button(question, users[2], "确认逃跑")).text == t("zh", "escaped")
        await tg.wait_for(lambda: table.status == "lobby")
        outcome = record.hand.outcome
        assert outcome.kind == "escape" and outcome.escaper == 2
        assert outcome.points[2] < 0 and sum(outcome.points) == 0
        settle = await tg.wait_for(lambda: tg.message(group, settlement_id(app, table, record) or 0))
        assert "Carol 逃跑" in settle.caption
        assert table.seat_of(users[2].id) is None
        # the lobby is back; Carol's hand message lost its buttons
        await svc.presenter.idle()
        carol_hand = hand_message(tg, users[2])
        assert carol_hand.keyboard == [] and carol_hand.caption.endswith(t("zh", "dm_over"))
        lobby = next(m for m in reversed(tg.messages(group)) if "(空)" in (m.text or ""))
        assert lobby.keyboard
        # Dave takes the empty seat: he must never see the hand Carol held there
        dave = tg.user("Dave")
        tg.start_private(dave)
        await tg.press_button(lobby, dave, "加入")
        assert table.seat_of(dave.id) == 2
        await svc.presenter.idle()
        assert hand_message(tg, dave) is None
        # only the opener or an admin may close the table
        await tg.send_text(group, users[1], "/stop")
        note = await tg.wait_for(lambda: tg.last_message(group).text == t("zh", "only_opener"))
        assert note and svc.service.in_chat(group.id) is table
        tg.set_admin(group, users[1])  # a group admin may
        await tg.send_text(group, users[1], "/stop")
        await tg.wait_for(lambda: svc.service.in_chat(group.id) is None)
        assert tg.max_per_minute(group) <= 20


async def test_restart_resumes_the_running_hand(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    rng = random.Random(5)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        for _ in range(6):
            await svc.presenter.idle()
            if table.status != "playing":
                break
            mover = next(u for u in users if action_buttons(hand_message(tg, u)))
            msg = hand_message(tg, mover)
            await tg.press(mover, msg.message_id, mover, rng.choice(action_buttons(msg))[1])
        await svc.presenter.idle()
        log_before = list(table.current.hand.log)
        view_before = table.current.hand.public_view()
        hand_ids = {u.id: hand_message(tg, u).message_id for u in users}
    assert table.status == "playing"  # with these seeds the hand is still on
    async with running_bot(config) as app:
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table.current.hand.log == log_before
        assert table.current.hand.public_view() == view_before
        await svc.presenter.idle()
        # the same hand messages, refreshed with keyboards of the new version
        for user in users:
            assert hand_message(tg, user).message_id == hand_ids[user.id]
        table = await play_hand(tg, app, users, group, rng)
        assert table.status == "between"


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # PTB's 429 parsing
async def test_429_never_loses_a_move(fake_tg: FakeTelegram, tmp_path) -> None:
    """Flood limits on private chats: the moves stand and every DM ends up current."""
    tg = fake_tg
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby = await seat_three(tg)
        svc = services(app)
        # one message-or-edit every 2 s per private chat: refusals come however slowly the
        # presses go on a busy machine
        tg.rate_limits = RateLimits(private_per_second=0.5, private_burst=1,
                                    group_per_minute=1000, global_per_second=1000)
        await tg.press_button(lobby, users[0], "开局")
        table = svc.service.in_chat(group.id)
        rng = random.Random(2)
        for _ in range(10):  # quick presses of the current buttons, not waiting for the DMs
            await press_current(tg, table, users, rng, lobby)
        log = list(table.current.hand.log)
        assert len(log) == 10
        await svc.presenter.idle()
        assert tg.rejections  # Telegram did refuse some calls
        assert table.current.hand.log == log
        check_private(tg, table, users, render=True)


async def test_fast_play_is_coalesced_under_20_a_minute(tg: FakeTelegram, tmp_path) -> None:
    """Presses as fast as the bot answers them: the group sees coalesced edits, ≤ 20 a minute."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        rng = random.Random(11)
        presses = 0
        for hand_no in (1, 2):
            while table.status == "playing":
                await press_current(tg, table, users, rng, lobby)
                presses += 1
            if hand_no == 1:
                for user in users:
                    await svc.service.again(table.id, user.id)
        await svc.presenter.idle()
        sent = len(tg.send_times(group))
        print(f"fast play: {presses} presses, {sent} group messages-or-edits, at most "
              f"{tg.max_per_minute(group)} in a (scaled) minute")
        assert sent < presses
        assert tg.max_per_minute(group) <= 20
        check_group(tg, group, svc, table, table.current)


async def test_a_deleted_hand_message_is_sent_again(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        old = {u.id: hand_message(tg, u).message_id for u in users}
        for user in users:
            tg.delete(user, old[user.id])
        rng = random.Random(3)
        for _ in range(3):  # play on: every DM whose picture changes comes back
            await press_current(tg, table, users, rng, lobby)
            await svc.presenter.idle()
        for user in users:
            assert hand_message(tg, user).message_id != old[user.id]
        check_private(tg, table, users, render=True)


async def test_commands_help_and_group_language(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        alice, bob = tg.user("Alice"), tg.user("Bob", language_code="en")
        group = tg.group("Mixed", members=(alice, bob))

        async def group_says(user: FakeUser, text: str) -> str:
            sent = await tg.send_text(group, user, text)
            return (await tg.wait_reply(sent)).text

        async def dm_says(user: FakeUser, text: str) -> str:
            sent = await tg.send_text(user, user, text)
            return (await tg.wait_reply(sent)).text

        assert await dm_says(bob, "/start") == t("en", "start_private", name="Bob")
        rules = await tg.wait_reply(await tg.send_text(bob, bob, "/rules"))  # the page attached
        assert rules.caption == rulebook.summary(QQ, "en") + "\n" + t("en", "rules_page")
        assert await dm_says(alice, "/new") == t("zh", "group_only")
        assert await group_says(alice, "/join") == t("zh", "no_table")
        assert await group_says(alice, "/help") == t("zh", "help")
        assert await group_says(alice, "/help club") == t("zh", "help_club")
        assert await group_says(alice, "/help 俱乐部") == t("zh", "help_club")
        assert await group_says(alice, "/help club x") == t("zh", "help")  # one word only
        assert await group_says(bob, "/lang en") == t("zh", "only_admin")
        assert await group_says(alice, "/lang xx") == t("zh", "lang_usage")
        tg.set_admin(group, alice)
        assert await group_says(alice, "/lang en") == t("en", "lang_set")
        lobby = await group_says(alice, "/new")
        assert lobby.startswith("🀄 跑胡子 · table 1") and "Alice" in lobby
        assert await group_says(bob, "/begin") == t("en", "not_seated")
        assert await group_says(alice, "/begin") == t("en", "need_seats", n=3)
        assert await group_says(alice, "/new") == t("en", "table_exists")
        assert await group_says(alice, "/nonsense@PaohuziTestBot") == t("en", "unknown_command")
        assert await dm_says(bob, "hello?") == t("en", "private_hint")
        assert await dm_says(bob, "/nonsense") == t("en", "unknown_command")


async def test_restart_rearms_the_turn_timer(tg: FakeTelegram, tmp_path) -> None:
    """Timers live in no database: after a restart they are armed again from the state."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.5)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        version = table.version
    async with running_bot(config) as app:
        table = services(app).service.in_chat(group.id)
        assert table.status == "playing" and table.version >= version
        await tg.wait_for(lambda: table.status != "playing", timeout=60)
        assert table.current.hand.is_terminal()
