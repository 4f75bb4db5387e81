"""Nothing lost: the real bot (``python -m bot`` in a subprocess) is stopped mid-hand, abruptly
(SIGKILL) or gracefully (SIGTERM, SIGINT), and started again on the same database.

The players press what a deterministic chooser (``engine.player``, no randomness) picks for the
lowest awaited seat, read from the database the bot commits to, and pressed on the button their
DM shows; so a whole run is a function of ``BOT_SEED`` and the result can be checked against
the engine alone playing the same deal with the same choices (an uninterrupted run).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.chooser import choice, hand_message, reference, taken
from support.e2e import make_config, running_bot, settlement_closed
from support.fakebot import FakeMessage, FakeTelegram, FakeUser
from support.play import play_hand
from support.play import start_hand as start_hand_in_process
from support.posted import settlement_id

from bot.i18n import t
from bot.present.panels import GroupPanels
from engine import actions as A
from engine.rules import QQ, get_rule_set
from engine.state import Hand, next_dealer

ROOT = Path(__file__).resolve().parents[3]
SEED = 20261129
REFUSED = {t("zh", "stale"), t("zh", "not_your_turn")}


def accepted(answer_text: str | None, action: str) -> bool:
    """The press of ``action`` was taken: confirmed, or a claim recorded that waits for
    higher ones (either way it is in the log)."""
    move = A.label(action, "zh")
    return answer_text in (t("zh", "played", move=move), t("zh", "claim_pending", move=move))


# --- the bot as a process -------------------------------------------------------------------


@dataclass
class BotProcess:
    tg: FakeTelegram
    db: Path
    proc: asyncio.subprocess.Process | None = None
    starts: int = 0

    async def start(self) -> None:
        """Run ``python -m bot`` and wait until it polls (its start-up refresh is then queued)."""
        env = {**os.environ, "BOT_TOKEN": self.tg.token, "BOT_API_BASE_URL": self.tg.base_url,
               "DB_PATH": str(self.db), "BOT_SEED": str(SEED), "ACTION_TIMEOUT": "600",
               "PYTHONPATH": str(ROOT)}
        seen = len(self.tg.calls)
        log = open(self.db.with_suffix(f".log{self.starts}"), "wb")  # noqa: SIM115
        self.starts += 1
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.db.parent, env=env,
            stdout=log, stderr=log)
        log.close()
        await self.tg.wait_for(
            lambda: any(c.method == "getUpdates" for c in self.tg.calls[seen:]), timeout=30,
            what="the bot to poll")

    async def stop(self, how: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(how)
        code = await asyncio.wait_for(self.proc.wait(), 30)
        if how != signal.SIGKILL:
            assert code == 0, self.output()
        self.proc = None

    def output(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in
                         sorted(self.db.parent.glob(f"{self.db.stem}.log*")))


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(tg, tmp_path / "db.sqlite3")
    await process.start()
    try:
        yield process
    finally:
        if process.proc is not None:
            process.proc.kill()
            await process.proc.wait()


# --- what the database says ---------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    version: int
    status: str
    hand_no: int
    hand_status: str
    seed: int
    dealer: int
    log: list[tuple[int, str]]
    hand: Hand
    points: list[int]


def stored(db: Path, table_id: int = 1) -> Stored:
    """The table as committed (read with a separate connection, as another process would)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        version, status, base = con.execute(
            "SELECT version, status, base FROM tables WHERE id = ?", (table_id,)).fetchone()
        hand_id, no, rule_set, seed, dealer, hand_status = con.execute(
            "SELECT id, no, rule_set, seed, dealer, status FROM hands WHERE table_id = ?"
            " ORDER BY no DESC LIMIT 1", (table_id,)).fetchone()
        log = [(s, a) for s, a in con.execute(
            "SELECT seat, action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,))]
        points = [p for (p,) in con.execute(
            "SELECT points FROM results WHERE hand_id = ? ORDER BY seat", (hand_id,))]
    hand = Hand.replay(get_rule_set(rule_set), seed=int(seed), dealer=dealer, base=base, log=log)
    return Stored(version, status, no, hand_status, int(seed), dealer, log, hand, points)


def dealt(table_id: int, no: int, dealer: int | None) -> tuple[int, int]:
    """(seed, dealer) of a hand under BOT_SEED, as documented in .env.example."""
    rng = random.Random(f"{SEED}:{table_id}:{no}")
    first = dealer if dealer is not None else rng.randrange(3)
    return rng.getrandbits(64), first


# --- the players ----------------------------------------------------------------------------


def button(tg: FakeTelegram, user: FakeUser, label: str) -> tuple[FakeMessage, str] | None:
    msg = hand_message(tg, user)
    if msg is None:
        return None
    data = next((d for row in msg.keyboard for text, d in row
                 if text == label and d and d.startswith("a:")), None)
    return (msg, data) if data else None


# (user, button) pairs whose press was accepted in this test (cleared by seat_three): pressed
# again, such a button is answered as the first time (a double tap) and plays nothing, so it
# is not a new move. (Another seat's button may carry the same data: the seat is the presser's.)
USED: set[tuple[int, str]] = set()


async def press_action(tg: FakeTelegram, user: FakeUser, action: str) -> bool:
    """Press the DM button for ``action`` once it is shown; an outdated keyboard is refused
    (and changes nothing), then the refreshed one is pressed."""
    refused: set[str] = set()
    while True:
        msg, data = await tg.wait_for(
            lambda: (b := button(tg, user, A.label(action, "zh"))) and b[1] not in refused
            and (user.id, b[1]) not in USED and b,
            timeout=20, what=f"{user.first_name}'s button {action}")
        answer = await tg.press(user, msg.message_id, user, data, timeout=20)
        if accepted(answer.text, action) or taken(answer.text):
            USED.add((user.id, data))
            return not taken(answer.text)  # False: another seat took the card first
        assert answer.text in REFUSED, answer
        refused.add(data)


async def play_until(tg: FakeTelegram, db: Path, users: list[FakeUser],
                     stop: Callable[[Hand], bool]) -> Stored:
    """Play the chooser's moves until ``stop(hand)`` or the hand ends; every accepted press is
    in the database when its answer comes (write-ahead)."""
    state = stored(db)
    while not state.hand.is_terminal() and not stop(state.hand):
        seat, action = choice(state.hand)
        counted = await press_action(tg, users[seat], action)
        after = stored(db)
        assert after.log == [*state.log, (seat, action)] or not counted  # acknowledged: committed
        state = after
    return state


def claiming(hand: Hand) -> bool:
    """Some seat may claim (吃/碰/胡) or pass: the moment between a card shown and taken."""
    return any(A.PASS in hand.legal_actions(s) for s in hand.to_act())


def discarding(hand: Hand) -> bool:
    return any(a.startswith("d:") for s in hand.to_act() for a in hand.legal_actions(s))


async def seat_three(tg: FakeTelegram) -> tuple[list[FakeUser], object, FakeMessage]:
    USED.clear()
    users = [tg.user(n) for n in ("Alice", "Bob", "Carol")]
    group = tg.group("牌友群", members=tuple(users))
    for user in users:
        tg.start_private(user)
    lobby = await tg.wait_reply(await tg.send_text(group, users[0], "/new"), timeout=20)
    for user in users[1:]:
        assert (await tg.press(group, lobby.message_id, user, "j:1:0", timeout=20)).text == \
            t("zh", "ok")
    return users, group, lobby


async def begin(tg: FakeTelegram, db: Path, users: list[FakeUser], lobby: FakeMessage) -> Stored:
    assert (await tg.press(lobby.chat, lobby.message_id, users[0], "b:1:0", timeout=20)).text \
        is None
    state = stored(db)
    assert (state.seed, state.dealer) == dealt(1, 1, None)
    return state


async def dms_current(tg: FakeTelegram, db: Path, users: list[FakeUser]) -> None:
    """After a restart every DM is refreshed: each shows exactly its seat's legal actions."""
    hand = stored(db).hand

    def shown(user: FakeUser) -> list[str]:
        msg = hand_message(tg, user)
        return sorted(text for row in (msg.keyboard if msg else []) for text, d in row
                      if d and d.startswith("a:"))

    want = {u.id: sorted(A.label(a, "zh") for a in hand.legal_actions(s))
            for s, u in enumerate(users)}
    await tg.wait_for(lambda: all(shown(u) == want[u.id] for u in users), timeout=20,
                      what="refreshed hand messages")


def check_finished(state: Stored) -> None:
    """The interrupted hand ended exactly as the uninterrupted one."""
    ref = reference(state.seed, state.dealer)
    assert state.log == ref.log
    assert state.hand_status == "done" and state.status == "between"
    assert ref.outcome is not None and state.points == list(ref.outcome.points)
    assert state.version == 1 + len(state.log)  # begin, then one per action: none half-done


# --- the tests ------------------------------------------------------------------------------


async def test_sigkill_during_claims_discard_and_settlement(tg: FakeTelegram,
                                                            bot: BotProcess) -> None:
    users, group, lobby = await seat_three(tg)
    await begin(tg, bot.db, users, lobby)
    for moment, after in ((claiming, 2), (discarding, 10)):  # this deal ends in a win at 21
        state = await play_until(tg, bot.db, users,
                                 lambda h, m=moment, n=after: len(h.log) > n and m(h))
        assert moment(state.hand)
        print(f"SIGKILL while {moment.__name__}, after {len(state.log)} actions")
        await bot.stop(signal.SIGKILL)
        await bot.start()
        assert stored(bot.db).log == state.log
        await dms_current(tg, bot.db, users)
    state = await play_until(tg, bot.db, users, lambda h: False)
    check_finished(state)
    await bot.stop(signal.SIGKILL)  # during settlement, before 再来一局
    await bot.start()
    for user in users:
        await tg.press(group, lobby.message_id, user, "g:1:1", timeout=20)
    nxt = stored(bot.db)
    assert nxt.hand_no == 2 and nxt.hand_status == "running"
    ref = reference(state.seed, state.dealer)
    assert ref.outcome is not None
    dealer, _ = next_dealer(QQ, state.dealer, ref.outcome, 0)
    assert (nxt.seed, nxt.dealer) == dealt(1, 2, dealer)
    await dms_current(tg, bot.db, users)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_graceful_stop_mid_hand(tg: FakeTelegram, bot: BotProcess,
                                      how: signal.Signals) -> None:
    users, group, lobby = await seat_three(tg)
    await begin(tg, bot.db, users, lobby)
    state = await play_until(tg, bot.db, users, lambda h: len(h.log) >= 5 and claiming(h))
    await bot.stop(how)
    await bot.start()
    await dms_current(tg, bot.db, users)
    check_finished(await play_until(tg, bot.db, users, lambda h: False))
    assert state.log == stored(bot.db).log[:len(state.log)]


async def test_acknowledged_press_survives_sigkill(tg: FakeTelegram, bot: BotProcess) -> None:
    """Killed right after answering a press (before any DM edit for it): the press stands."""
    users, group, lobby = await seat_three(tg)
    state = await begin(tg, bot.db, users, lobby)
    for _ in range(3):
        seat, action = choice(state.hand)
        counted = await press_action(tg, users[seat], action)  # on answerCallbackQuery
        bot.proc.kill()  # type: ignore[union-attr]
        await bot.proc.wait()  # type: ignore[union-attr]
        await bot.start()
        after = stored(bot.db)
        assert after.log == [*state.log, (seat, action)] or not counted
        await dms_current(tg, bot.db, users)
        state = after


async def test_unacknowledged_press_is_never_half_applied(tg: FakeTelegram,
                                                          bot: BotProcess) -> None:
    """Killed while a press is being handled: after the restart the press is either wholly
    there or wholly absent (the fake, like Telegram, delivers the unconfirmed update again),
    and play goes on to the same result as an uninterrupted run."""
    users, group, lobby = await seat_three(tg)
    state = await begin(tg, bot.db, users, lobby)
    for delay in (0.0, 0.005, 0.02):
        seat, action = choice(state.hand)
        msg, data = await tg.wait_for(lambda s=seat, a=action: button(tg, users[s],
                                                                     A.label(a, "zh")),
                                      timeout=20)
        handed = len(tg.calls)
        pressing = asyncio.ensure_future(tg.press(users[seat], msg.message_id, users[seat], data,
                                                  timeout=60))
        await tg.wait_for(lambda h=handed: any(c.method == "getUpdates"
                                               for c in tg.calls[h:]), timeout=20)
        await asyncio.sleep(delay)  # a kill at some point while the press is handled
        bot.proc.kill()  # type: ignore[union-attr]
        await bot.proc.wait()  # type: ignore[union-attr]
        after = stored(bot.db)
        assert after.log in (state.log, [*state.log, (seat, action)])
        assert after.version == 1 + len(after.log)
        await bot.start()
        # a press fetched before the kill is gone unanswered; one still queued comes again
        await tg.wait_for(lambda p=pressing: p.done() or not any(
            "callback_query" in u for u in tg.world.updates), timeout=20)
        await tg.settle()
        if pressing.done():
            answer = pressing.result()
            assert accepted(answer.text, action) or answer.text in REFUSED
            if answer.text not in REFUSED:
                assert stored(bot.db).log == [*state.log, (seat, action)]
        else:
            assert stored(bot.db).log == after.log  # lost, wholly
            pressing.cancel()
        await dms_current(tg, bot.db, users)
        state = stored(bot.db)
    check_finished(await play_until(tg, bot.db, users, lambda h: False))


@pytest.mark.parametrize("moved_on", ["stopped", "next_hand"])
async def test_a_settlement_never_posted_is_posted_after_a_restart(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moved_on: str) -> None:
    """The bot stops between a hand's end and its settlement post, and the table moves on
    first (/stop, or all three pressed 再来一局 and the next hand began): after the restart
    the group gets that settlement, with its seed, and without buttons."""
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        users, group, lobby, _svc, table = await start_hand_in_process(tg, app)
        # the post never runs, as if the bot had died the moment the hand was stored
        monkeypatch.setattr(GroupPanels, "settlement_later", lambda *_: None)
        table = await play_hand(tg, app, users, group, random.Random(3))
        record = table.current
        assert table.status == "between" and settlement_id(app, table, record) is None
        if moved_on == "stopped":
            await tg.send_text(group, users[0], "/stop")
            await tg.wait_for(lambda: table.status == "closed" or None, what="the table closed")
        else:
            for user in users:  # 再来一局 from a client that still had the settlement's data
                await tg.press(group, lobby.message_id, user, f"g:{table.id}:{record.id}")
            assert table.status == "playing" and table.current is not record
    monkeypatch.undo()
    seal = str(record.hand.seed)  # told only once the hand is over, in its settlement
    assert not any(seal in (m.caption or "") for m in tg.messages(group))
    async with running_bot(config):
        posted = await tg.wait_for(lambda: next(
            (m for m in tg.messages(group) if m.photo_bytes and seal in (m.caption or "")),
            None), what="the settlement posted")
        assert settlement_closed(posted)  # no live buttons: only its 验证
        # its id is stored once Telegram's answer is back (a stop before that would leave
        # the hand marked as being posted, see GroupPanels.post_settlement)
        await tg.wait_for(lambda: settle_msg_id(config.db_path, record.id) == posted.message_id,
                          what="the settlement's id stored")
    # posted once: not again at the next start
    assert settle_msg_id(config.db_path, record.id) == posted.message_id


def settle_msg_id(db_path: Path, hand_id: int) -> int | None:
    with closing(sqlite3.connect(db_path)) as db:
        return db.execute("SELECT settle_msg_id FROM hands WHERE id = ?", (hand_id,)).fetchone()[0]
