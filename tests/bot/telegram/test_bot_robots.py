"""Computer players (电脑) and 托管 through the real bot and a fake Telegram: one human and two
/addbot computers play whole hands; computer seats get no private messages, act only after the
pause, play the policy, are left out of /rank and come back after a restart."""

from __future__ import annotations

import random
from collections.abc import Callable

from support.e2e import SCALE, hand_message, make_config, running_bot, services
from support.fakebot import FakeTelegram, FakeUser
from support.play import press_result
from support.posted import settlement_id
from support.robots import alice_plays, one_human_two_computers, public

from bot.i18n import t
from bot.table import Table, TableService, robots
from bot.table.clock import Pace
from engine import player
from engine.rules import QQ
from engine.state import Hand

# the computers' pause in the test of their pace: a move at once must stay under half of it,
# and on a loaded machine the loop's own lag reached 0.045 s (with the tests' usual 0.05)
DELAY = 0.3


class Moves(list[tuple[int, str, bool, float, str | None]]):
    """The moves applied, and for each how many computer discards came before it since the
    human's (seat 0's) last move."""

    def __init__(self) -> None:
        super().__init__()
        self.after_computers: list[int] = []


def watch_moves(service: TableService) -> Moves:
    """Record every applied move: (seat, action, auto, seconds its decision waited, the
    policy's choice for that seat just before it)."""
    moves = Moves()
    apply: Callable = service._apply

    async def spy(tx, table: Table, seat: int, action: str, *, auto: bool,  # type: ignore[no-untyped-def]
                  leaving: bool = False):
        hand = table.current.hand
        waited = service.clock() - table.decisions[seat].since
        wanted = player.choose(hand.private_view(seat), public(table)) \
            if hand.legal_actions(seat) else None
        moves.append((seat, action, auto, waited, wanted))
        since = next((i + 1 for i in range(len(hand.log) - 1, -1, -1) if hand.log[i][0] == 0), 0)
        moves.after_computers.append(sum(a.startswith("d:") for _, a in hand.log[since:]))
        return await apply(tx, table, seat, action, auto=auto, leaving=leaving)

    service._apply = spy  # type: ignore[method-assign]
    return moves


def no_dm_to_computers(tg: FakeTelegram, table: Table, group) -> None:  # type: ignore[no-untyped-def]
    robot_ids = {p.user_id for p in table.players.values() if p.robot}
    assert robot_ids and all(robots.is_robot(u) for u in robot_ids)
    assert not [c for c in tg.calls if c.chat_id in robot_ids]
    assert {c.chat_id for c in tg.calls if isinstance(c.chat_id, int) and c.chat_id < 0} \
        <= {group.id}


async def test_one_human_and_two_computers_play_hands(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       autoplay_delay=DELAY)) as app:
        svc = services(app)
        alice, group, lobby, table = await one_human_two_computers(tg, app)
        moves = watch_moves(svc.service)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        rng = random.Random(7)
        for n in (1, 2):
            assert table.status == "playing" and table.current.no == n
            pressed, hinted = await alice_plays(tg, app, alice, table, rng, hint=True)
            assert hinted or n == 2  # these seeds give her a turn of her own in hand 1
            assert table.status == "between" and table.current.hand.is_terminal()
            await svc.presenter.idle()
            settle = tg.message(group, settlement_id(app, table))
            assert "电脑·小明" in settle.caption and "电脑·小红" in settle.caption
            assert pressed > 0
            if n == 1:  # 再来一局 needs only the human: the computers are always ready
                await press_result(tg, alice)
                await tg.wait_for(lambda: table.status == "playing")
        # the computers played every move of theirs as the policy would, an answer to an
        # offered card (过, 吃, 碰) without a pause
        robot_moves = [m for m in moves if m[0] != 0]
        assert robot_moves and all(auto for _, _, auto, _, _ in robot_moves)
        # alone with her, a discard right after her move goes at once, the next alone_paced
        # after another computer's discard wait the pause (her picture shows each), any
        # later one goes at once (bot.table.clock)
        discards = [(before, waited) for (seat, action, _, waited, _), before
                    in zip(moves, moves.after_computers, strict=True)
                    if seat != 0 and action.startswith("d:")]
        paced = [waited for before, waited in discards if 1 <= before <= Pace.alone_paced]
        unpaced = [waited for before, waited in discards if before > Pace.alone_paced]
        answers = [waited for _, action, _, waited, _ in robot_moves
                   if not action.startswith("d:")]
        assert paced and all(waited >= DELAY - 1e-3 for waited in paced)
        assert not unpaced or min(unpaced) < DELAY / 2
        assert answers and min(answers) < DELAY / 2
        assert all(action == wanted for _, action, _, _, wanted in robot_moves)
        assert not any(auto for seat, _, auto, _, _ in moves if seat == 0)
        assert not any(p.autoplay for p in table.players.values())  # 电脑 is not 托管
        no_dm_to_computers(tg, table, group)
        per_minute = tg.max_per_minute(group)
        print(f"1 human + 2 computers: {len(moves)} moves, {len(tg.send_times(group))} group "
              f"messages-or-edits, at most {per_minute} in a (scaled ×{SCALE:.0f}) minute")
        assert per_minute <= 20
        assert not tg.unknown_methods
        assert not [e for e in tg.errors if e.code != 403], tg.errors
        # scores: the computers are scored at the table but never ranked
        totals = await svc.store.table_totals(table.id)
        assert set(totals) == {p.user_id for p in table.players.values()}
        assert [r.user_id for r in await svc.store.ranking(group.id)] == [alice.id]
        assert [r.user_id for r in await svc.store.ranking(None)] == [alice.id]
        rank = await tg.wait_reply(await tg.send_text(group, alice, "/rank"))
        assert "Alice" in rank.caption and "电脑" not in rank.caption
        history = await tg.wait_reply(await tg.send_text(group, alice, "/history"))
        assert "电脑·小明" in history.text
        me = await tg.wait_reply(await tg.send_text(group, alice, "/me"))
        assert "Alice" in me.caption
        # both menus list the new commands; /help explains them
        group_menu = dict(tg.commands(scope="all_group_chats"))
        assert group_menu["addbot"] == t("zh", "cmd_addbot")
        assert group_menu["removebot"] == t("zh", "cmd_removebot")
        assert dict(tg.commands(scope="all_group_chats", language_code="en"))["addbot"] == \
            t("en", "cmd_addbot")
        assert "/addbot" in t("zh", "help") and "/addbot" in t("en", "help")


async def test_tuoguan_after_a_timeout_plays_the_policy(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.5)
    async with running_bot(config) as app:
        svc = services(app)
        alice, group, lobby, table = await one_human_two_computers(tg, app)
        moves = watch_moves(svc.service)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        # Alice never presses: she goes into 托管 and the hand is played to the end
        await tg.wait_for(lambda: table.players[0].autoplay, timeout=10)
        await tg.wait_for(lambda: "托管中" in (hand_message(tg, alice).caption or ""))
        await tg.wait_for(lambda: table.status != "playing", timeout=30)
        alice_moves = [m for m in moves if m[0] == 0]
        assert alice_moves and all(auto for _, _, auto, _, _ in alice_moves)
        assert all(action == wanted for _, action, _, _, wanted in moves)
        first = alice_moves[0][3]
        assert first >= config.action_timeout - 1e-3  # the first after the timeout
        await svc.presenter.idle()
        no_dm_to_computers(tg, table, group)


async def test_restart_with_computers_mid_hand_finishes(tg: FakeTelegram, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    rng = random.Random(3)
    async with running_bot(config) as app:
        alice, group, lobby, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        await alice_plays(tg, app, alice, table, rng, until=lambda: len(table.current.hand.log) >= 6)
        await services(app).presenter.idle()
        log_before = list(table.current.hand.log)
    assert table.status == "playing"  # with these seeds the hand is still on
    async with running_bot(config) as app:
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table.current.hand.log[:len(log_before)] == log_before
        assert [table.players[s].name for s in range(3)] == ["Alice", "电脑·小明", "电脑·小红"]
        moves = watch_moves(svc.service)
        await alice_plays(tg, app, alice, table, rng)
        assert table.status == "between" and table.current.hand.is_terminal()
        assert any(seat != 0 for seat, *_ in moves)  # the computers played on after the restart
        await svc.presenter.idle()
        no_dm_to_computers(tg, table, group)


async def test_adding_and_removing_computers(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        alice, bob = tg.user("Alice"), tg.user("Bob", language_code="en")
        group = tg.group("Mixed", members=(alice, bob))
        tg.start_private(alice)

        async def says(user: FakeUser, text: str) -> str:
            return (await tg.wait_reply(await tg.send_text(group, user, text))).text

        assert await says(alice, "/addbot") == t("zh", "no_table")
        lobby = await says(alice, "/new")
        assert "Alice" in lobby
        assert await says(bob, "/addbot") == t("zh", "not_seated")
        assert await says(alice, "/removebot") == t("zh", "no_robot")
        table = svc.service.in_chat(group.id)
        tg.start_private(bob)  # two humans: a full table waits before it deals
        await tg.send_text(group, bob, "/join")
        await tg.wait_for(lambda: table.seat_of(bob.id) == 1)
        await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: len(table.players) == 3)
        assert await says(alice, "/addbot") == t("zh", "table_full")
        await tg.send_text(group, alice, "/removebot")
        await tg.wait_for(lambda: len(table.players) == 2)
        assert [p.name for p in table.players.values()] == ["Alice", "Bob"]
        await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: len(table.players) == 3)
        # the last human to leave closes the table: computers alone never keep one open
        await tg.send_text(group, bob, "/leave")
        await tg.wait_for(lambda: table.seat_of(bob.id) is None)
        assert svc.service.in_chat(group.id) is table
        await tg.send_text(group, alice, "/leave")
        await tg.wait_for(lambda: svc.service.in_chat(group.id) is None)
        assert table.status == "closed"
        rows = await svc.store.open_tables()
        assert rows == []


def test_computer_names_and_ids() -> None:
    ids = {robots.robot_id(i, lang) for lang in ("zh", "en") for i in range(len(robots.names(lang)))}
    assert len(ids) == len(robots.names("zh")) + len(robots.names("en")) and all(i < 0 for i in ids)
    assert robots.names("zh")[0] == "电脑·小明" and robots.names("en")[0] == "Bot Xiaoming"
    first = robots.pick((), "en")
    assert first == (robots.robot_id(0, "en"), "Bot Xiaoming")
    assert robots.pick({first[0], 12345}, "en") == (robots.robot_id(1, "en"), "Bot Xiaohong")
    every = {robots.robot_id(i, "zh") for i in range(len(robots.names("zh")))}
    assert robots.pick(every, "zh") is None


async def test_a_failing_policy_does_not_stall_a_table(monkeypatch) -> None:
    hand = Hand.new(QQ, seed=5, dealer=0)
    seat = hand.to_act()[0]
    assert await robots.decide(hand, seat) == player.choose(hand.private_view(seat),
                                                             robots.public_events(hand))

    def broken(*args: object) -> str:
        raise RuntimeError("policy bug")
    monkeypatch.setattr(player, "choose", broken)
    assert await robots.decide(hand, seat) == hand.legal_actions(seat)[0]
