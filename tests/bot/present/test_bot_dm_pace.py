"""How the private hand messages follow play in real time (no ``idle()`` flush here): a new
decision is shown at once, a seat's other changes wait and ride on a later edit, a ping comes
only for a decision left open a while, and one private chat gets one message-or-edit per
``dm_interval``, new buttons sooner on its burst (``dm_burst``). A player alone with computer
players sees each computer discard as it comes, and his buttons after however many."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from math import inf
from pathlib import Path
from typing import Any

import pytest
from support.e2e import (
    FAST_PACING,
    action_buttons,
    hand_message,
    make_config,
    running_bot,
    services,
)
from support.fakebot import FakeMessage, FakeTelegram, FakeUser
from support.fakebot.watch import watch
from support.play import seat_three
from support.robots import one_human_two_computers, public

from bot.present.screens.words import event_line
from bot.table import Table
from engine import actions as A
from engine import player

DM_INTERVAL = 0.3
PRESSED_PACE = 1.2
PING_DELAY = 3.0
SHORT_PACES = replace(FAST_PACING, dm_interval=DM_INTERVAL, pressed_pace=PRESSED_PACE,
                      table_pace=2 * PRESSED_PACE, ping_delay=PING_DELAY)


def edits(tg: FakeTelegram, user: FakeUser) -> int:
    msg = hand_message(tg, user)
    return msg.edits if msg is not None else 0


def bucket(times: Sequence[float], at: float, interval: float, slack: float = 1.0) -> float:
    """A private chat's bucket at ``at`` after its calls at ``times``, each taking one: it
    holds ``1 + dm_burst`` and gains one per ``interval`` (``slack`` of it, for the clocks)."""
    full, level, last = 1 + SHORT_PACES.dm_burst, float(1 + SHORT_PACES.dm_burst), -inf
    for t in times:
        level, last = min(full, level + (t - last) / (interval * slack)) - 1, t
    return min(full, level + (at - last) / (interval * slack))


def paced(times: list[float], interval: float = DM_INTERVAL) -> bool:
    """The chat's calls fit its bucket: ``1 + dm_burst`` at once, one more per ``interval``."""
    return all(bucket(times[:i], at, interval, slack=0.95) >= 1 for i, at in enumerate(times))


def pings(tg: FakeTelegram, user: FakeUser) -> int:
    return sum(1 for c in tg.calls if c.method == "sendMessage" and c.chat_id == user.id)


def shows_decision(tg: FakeTelegram, table: Table, user: FakeUser, seat: int) -> bool:
    """The DM's buttons are exactly the seat's current decision."""
    assert table.current is not None
    legal = table.current.hand.legal_actions(seat)
    shown = sorted(text for text, _ in action_buttons(hand_message(tg, user)))
    return bool(legal) and shown == sorted(A.label(a, "zh") for a in legal)


@asynccontextmanager
async def first_hand(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[tuple[list[FakeUser], Table]]:
    """A running bot with DMs paced at ``DM_INTERVAL``, three seated and the first hand
    dealt."""
    # half the decision time is PING_DELAY: the first ping comes no sooner than either
    config = make_config(tg, tmp_path / "db.sqlite3", pacing=SHORT_PACES,
                         action_timeout=2 * PING_DELAY)
    async with running_bot(config) as app:
        users, group, lobby = await seat_three(tg)
        await tg.press_button(lobby, users[0], "开局")
        table = app.bot_data["services"].service.in_chat(group.id)
        assert table is not None and table.current is not None
        yield users, table


async def test_dm_edits_are_immediate_for_decisions_and_held_otherwise(
        fake_tg: FakeTelegram, tmp_path: Path) -> None:
    tg = fake_tg
    async with first_hand(tg, tmp_path) as (users, table):
        clock = tg.world.clock
        hand = table.current.hand
        # the first decision is on the dealt message; play until a seat without a new
        # decision after its press: a discard that leaves others deciding on claims
        for _ in range(40):
            seat = hand.to_act()[0]
            user = users[seat]
            await tg.wait_for(lambda u=user, s=seat: shows_decision(tg, table, u, s), timeout=5)
            msg = hand_message(tg, user)
            assert msg is not None
            label, data = action_buttons(msg)[0]
            before, pressed_at = edits(tg, user), clock()
            answer = await tg.press(user, msg.message_id, user, data)
            assert answer.text == f"✓ {label}"  # the move is confirmed by its answer
            if hand.legal_actions(seat) or not hand.to_act():
                continue  # the presser decides again (one edit shows both) or the hand ended
            others = [(users[s], s) for s in hand.to_act()]
            for other, s in others:  # a new decision is shown at once
                await tg.wait_for(lambda o=other, s=s: shows_decision(tg, table, o, s),
                                  timeout=PRESSED_PACE / 2)
            offered_at, counts = clock(), {u.id: pings(tg, u) for u in users}
            assert edits(tg, user) == before  # the presser's keyboard waits, still there
            await tg.wait_for(lambda u=user: not action_buttons(hand_message(tg, u)),
                              timeout=2 * PRESSED_PACE)
            assert clock() - pressed_at >= PRESSED_PACE * 0.9
            assert edits(tg, user) == before + 1  # one edit caught it up
            assert counts == {u.id: pings(tg, u) for u in users}  # no ping this early
            break
        else:
            pytest.fail("no press left its presser without a decision")
        # nobody presses now: the waiting seats are pinged after PING_DELAY, not before
        waiting = [users[s] for s in hand.to_act()]
        await tg.wait_for(lambda: all(pings(tg, u) > counts[u.id] for u in waiting),
                          timeout=2 * PING_DELAY)
        assert clock() - offered_at >= PING_DELAY * 0.8
        assert pings(tg, user) == counts[user.id] or user in waiting  # only deciders
        for u in users:  # the seating DMs included: replies are paced too
            times = tg.send_times(u)
            assert len(times) >= 2
            assert paced(times), (u, times)


async def test_a_player_who_presses_in_time_is_not_pinged(fake_tg: FakeTelegram,
                                                          tmp_path: Path) -> None:
    tg = fake_tg
    async with first_hand(tg, tmp_path) as (users, table):
        hand = table.current.hand
        before = sum(pings(tg, u) for u in users)  # the seating DMs
        for _ in range(12):  # every decision pressed well within PING_DELAY
            if not hand.to_act():
                break
            seat = hand.to_act()[0]
            user = users[seat]
            await tg.wait_for(lambda u=user, s=seat: shows_decision(tg, table, u, s), timeout=5)
            msg = hand_message(tg, user)
            assert msg is not None
            await tg.press(user, msg.message_id, user, action_buttons(msg)[0][1])
        assert sum(pings(tg, u) for u in users) == before


async def her_buttons(tg: FakeTelegram, alice: FakeUser,
                      table: Table) -> tuple[FakeMessage, list[tuple[str, str]]] | None:
    """Wait until the lone player's picture shows buttons of her current decision: (it,
    them); None once the hand is over."""
    def shown() -> object:
        if table.status != "playing":
            return "over"
        msg, decision = hand_message(tg, alice), table.decisions[0]
        buttons = action_buttons(msg)
        current = f"a:{table.id}:{decision.version}:"
        return (msg, buttons) if decision.legal and buttons and \
            all(d.startswith(current) for _, d in buttons) else None
    found = await tg.wait_for(shown, timeout=20)
    return None if found == "over" else found


async def press_as_policy(tg: FakeTelegram, alice: FakeUser, table: Table, msg: FakeMessage,
                          buttons: list[tuple[str, str]]) -> None:
    """She presses the button the policy would (the first, if play moved on meanwhile)."""
    view = table.current.hand.private_view(0)
    wanted = A.label(player.choose(view, public(table)), "zh") if view.legal else None
    data = next((d for text, d in buttons if text == wanted), buttons[0][1])
    await tg.press(alice, msg.message_id, alice, data)


async def test_a_player_alone_with_computers_sees_each_of_their_discards_as_it_comes(
        fake_tg: FakeTelegram, tmp_path: Path) -> None:
    """Each computer discard reaches his picture within about one ``dm_interval`` (not the
    catch-up pace of a table of people), his chat still paced; his own presses wait for
    nothing but the computers' discards (their answers to a card take no pause)."""
    tg = fake_tg
    config = make_config(tg, tmp_path / "db.sqlite3", pacing=SHORT_PACES, autoplay_delay=1.0)
    async with running_bot(config) as app:
        service = services(app).service
        discards: list[float] = []  # when a computer discarded (the fake's clock)
        apply = service._apply

        async def spy(tx, table, seat, action, *, auto, leaving=False):  # type: ignore[no-untyped-def]
            if table.players[seat].robot and action.startswith("d:"):
                discards.append(tg.world.clock())
            return await apply(tx, table, seat, action, auto=auto, leaving=leaving)
        service._apply = spy  # type: ignore[method-assign]
        alice, _, _, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing")
        while (found := await her_buttons(tg, alice, table)) is not None:
            await press_as_policy(tg, alice, table, *found)
        edits = [c.time for c in tg.calls if c.chat_id == alice.id
                 and c.method in ("editMessageMedia", "editMessageCaption")]
    assert len(discards) >= 3
    late = [at for at in discards if not any(at <= e <= at + 2 * DM_INTERVAL + 0.3
                                              for e in edits)]
    assert not late, (late, discards, edits)  # the catch-up pace here is 2.4 s
    assert paced(tg.send_times(alice))


LONE_INTERVAL = 1.0  # his chat at Telegram's pace; the computers faster
PAUSE = 0.4  # theirs: more than CHANGING_WAIT, so that his picture shows each paced discard
THINK = 2 * LONE_INTERVAL  # he looks a while before he presses: his chat's bucket fills


async def test_a_lone_players_buttons_never_wait_behind_a_chain_of_computer_moves(
        fake_tg: FakeTelegram, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The computers outrun his chat's one edit a second here: each of their discards still
    reaches him, named in the 刚才 line of an edit made after it and no later than his next
    buttons; and his buttons wait for nothing but his chat's bucket, never behind the edit
    just made of an older state (they spend its burst)."""
    tg = fake_tg
    # the pictures in private chats: (chat, time, caption, buttons); the table deals as its
    # last seat is taken, before his account is known here
    pictures: list[tuple[int, float, str, list[str]]] = []

    def seen(chat_id: int, message: dict[str, Any], p: object) -> None:
        if chat_id > 0 and "photo" in message:
            rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
            pictures.append((chat_id, tg.world.clock(), message.get("caption") or "",
                             [b.get("callback_data", "") for row in rows for b in row]))
    request.addfinalizer(watch(seen, ("sendphoto", "editmessagemedia", "editmessagecaption")))
    config = make_config(tg, tmp_path / "db.sqlite3", autoplay_delay=PAUSE,
                         pacing=replace(SHORT_PACES, dm_interval=LONE_INTERVAL))
    async with running_bot(config) as app:
        service = services(app).service
        discards: list[tuple[float, str]] = []  # a computer's discard: (time, its words)
        arose: dict[int, float] = {}  # his decisions after a move: version -> since when
        apply = service._apply

        async def spy(tx, table, seat, action, *, auto, leaving=False):  # type: ignore[no-untyped-def]
            await apply(tx, table, seat, action, auto=auto, leaving=leaving)
            record, now = table.current, tg.world.clock()
            if table.players[seat].robot and action.startswith("d:"):
                event = next(e for e in reversed(record.hand.history) if e.kind == "discard")
                discards.append((now, event_line(event, record.names, "zh")))
            if table.decisions[0].legal:
                arose.setdefault(table.decisions[0].version, now)
        service._apply = spy  # type: ignore[method-assign]
        alice, _, _, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing")
        behind = 0  # decisions that arose right after an edit of his: the pace would hold them
        while not (behind and len(discards) >= 4) \
                and (found := await her_buttons(tg, alice, table)) is not None:
            version = table.decisions[0].version
            calls = [t for t in tg.send_times(alice) if t < arose.get(version, -inf)]
            behind += bool(calls) and arose[version] - calls[-1] < LONE_INTERVAL / 2
            await asyncio.sleep(THINK)
            await press_as_policy(tg, alice, table, *found)
    assert behind, "no decision of his came right after an edit of his picture"
    shown = [(at, caption, data) for chat, at, caption, data in pictures if chat == alice.id]
    times = tg.send_times(alice)
    assert paced(times, LONE_INTERVAL)
    waited = []  # (how long his buttons waited past his bucket, what his steady pace allows)
    for version, since in arose.items():
        tag = f"a:{table.id}:{version}:"
        at = next((at for at, _, data in shown if at >= since and any(d.startswith(tag)
                                                                       for d in data)), None)
        if at is None:
            continue  # the hand ended first, or another seat took the card meanwhile
        before = [t for t in times if t < since]
        left = bucket(before, since, LONE_INTERVAL)
        ready = since if left >= 1 else since + (1 - left) * LONE_INTERVAL
        # behind the edit just made, the chat's one a second would have held them until
        # then (half a second or more: such a decision is counted in ``behind``); else they
        # wait no whole pace (a busy machine adds its commit, render and the fake's time)
        steady = before[-1] + LONE_INTERVAL - ready if before else 0.0
        waited.append((at - ready, steady if steady >= LONE_INTERVAL / 2 else LONE_INTERVAL))
    assert waited and all(wait < bound for wait, bound in waited), waited
    seen = []
    for at, words in discards:
        after = [(caption, data) for t, caption, data in shown if t >= at]
        upto = next((i for i, (_, data) in enumerate(after)
                     if any(d.startswith("a:") for d in data)), None)
        if upto is None:
            continue  # no buttons of his after it: the hand's end shows it
        seen.append(any(words in caption for caption, _ in after[:upto + 1]))
    assert seen and all(seen), (discards, shown)
