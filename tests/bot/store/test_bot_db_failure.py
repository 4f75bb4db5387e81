"""One failed database write does not stall the table: the press is answered
with an error toast, the table is reloaded from the database, and every seat's current
decision is shown again, with buttons that work; a press or a command while the database is
locked by another process is answered, and counts when made again."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from support.e2e import action_buttons, hand_message, make_config, running_bot
from support.fakebot import FakeTelegram
from support.play import start_hand

from bot.i18n import t
from bot.store.writes import Writes as Tx


def fail_next_action_write(monkeypatch) -> list[int]:
    """The next ``append_action`` raises as a full disk would; later ones succeed. Returns
    the list that counts the failures."""
    failures: list[int] = []
    real = Tx.append_action

    async def flaky(self: Tx, *args: object) -> int:
        if not failures:
            failures.append(1)
            raise sqlite3.OperationalError("database or disk is full")
        return await real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Tx, "append_action", flaky)
    return failures


async def test_a_failed_write_is_answered_reloaded_and_reshown(
        tg: FakeTelegram, tmp_path, monkeypatch) -> None:  # noqa: F811
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, _group, _lobby, _svc, table = await start_hand(tg, app)
        seat = next(s for s, d in table.decisions.items() if d.legal)
        await tg.wait_for(lambda: action_buttons(hand_message(tg, users[seat])) or None)
        await tg.settle()
        log = list(table.current.hand.log)
        failures = fail_next_action_write(monkeypatch)
        shown = hand_message(tg, users[seat])
        _, data = action_buttons(shown)[0]

        answer = await tg.press(shown.chat, shown.message_id, users[seat], data)

        assert failures == [1]
        assert answer.text == t("zh", "store_failed")
        assert table.current.hand.log == log  # nothing half-applied stays in memory
        await tg.settle()
        for s, user in enumerate(users):  # every seat sees its decision, with live buttons
            legal = table.current.hand.legal_actions(s)
            assert len(action_buttons(hand_message(tg, user))) == len(legal)
        retry = hand_message(tg, users[seat])
        _, data = action_buttons(retry)[0]
        again = await tg.press(retry.chat, retry.message_id, users[seat], data)
        assert (again.text or "").startswith(("✓ ", "已选 ")), again
        assert len(table.current.hand.log) == len(log) + 1


async def test_a_failed_write_of_a_timed_out_move_does_not_stop_the_clock(
        tg: FakeTelegram, tmp_path, monkeypatch) -> None:  # noqa: F811
    """The move the bot plays for a seat whose time is up fails to be stored: the turn timer
    is armed again from the reloaded table, and the seat is played for on the next try."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.5)
    async with running_bot(config) as app:
        _users, _group, _lobby, _svc, table = await start_hand(tg, app)
        failures = fail_next_action_write(monkeypatch)
        moves = len(table.current.hand.log)
        await tg.wait_for(lambda: failures or None, what="the timed-out move to fail")
        await tg.wait_for(lambda: len(table.current.hand.log) > moves or None, timeout=10,
                          what="the timed-out move played on the next try")


@contextlib.contextmanager
def locked(db: Path) -> Iterator[None]:
    """The database held by another process's write transaction (a backup, an ``sqlite3``
    shell) for longer than the bot's busy timeout."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_a_press_while_the_database_is_locked_is_answered_and_counts_when_pressed_again(
        tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db)):
        alice, bob = tg.user("Alice"), tg.user("Bob", language_code="en")
        group = tg.group("牌友群", members=(alice, bob))
        tg.start_private(alice)
        tg.start_private(bob)
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        await tg.settle()  # its id stored
        with locked(db):
            answer = await tg.press_button(lobby, bob, "加入", timeout=30)
        assert answer.text == t("en", "store_unavailable")
        assert "Bob" not in (tg.message(group, lobby.message_id).text or "")
        # the database is back: the same press counts
        assert (await tg.press_button(lobby, bob, "加入")).text == t("en", "ok")
        await tg.wait_for(lambda: "Bob" in (tg.message(group, lobby.message_id).text or ""))


async def test_a_command_while_the_database_is_locked_is_answered(
        tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db)):
        alice = tg.user("Alice")
        group = tg.group("牌友群", members=(alice,))
        tg.start_private(alice)
        with locked(db):
            sent = await tg.send_text(group, alice, "/new")
            reply = await tg.wait_reply(sent, timeout=30)
        assert reply.text == t("zh", "command_unavailable")
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new"))
        assert "Alice" in lobby.text
