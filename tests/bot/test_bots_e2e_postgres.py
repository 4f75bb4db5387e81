"""Two bots, two processes (``python -m bot``, two tokens) on one PostgreSQL, one fake Bot API
serving both: a player seated at one bot's table is refused a seat at the other's; one bot
killed (SIGKILL) mid-hand leaves the other playing on, and restarted resumes its hand exactly
where it was; /me under either bot counts the hands played under both; a second process on
a running bot's token is refused.

The players press what a deterministic chooser (``engine.policy``) picks for the lowest
awaited seat, read from the database the bots commit to, on the button their DM with that
bot shows; so each hand can be checked against the engine alone playing the same deal with
the same choices (an uninterrupted run).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import asyncpg
from support.botproc import fake_env, refused_start, start_bot, stop_bot
from support.chooser import choice, hand_message, reference, taken
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

from bot.commands.stats import win_rate
from bot.i18n import t
from engine import actions as A
from engine.rules import get_rule_set
from engine.state import Hand

SEED = 20261201
TOKEN_B = "7000000002:AAFakeTokenForTestsOnly_zyxwvutsrqp"
REFUSED = {t("zh", "stale"), t("zh", "not_your_turn")}


@dataclass(frozen=True)
class Stored:
    status: str
    seed: int
    dealer: int
    hand_status: str
    log: list[tuple[int, str]]
    hand: Hand


async def stored(db: asyncpg.Connection, table_id: int) -> Stored:
    """The table's latest hand as committed (read as a third process would)."""
    status, base = await db.fetchrow("SELECT status, base FROM tables WHERE id = $1", table_id)
    hand_id, rule_set, seed, dealer, hand_status = await db.fetchrow(
        "SELECT id, rule_set, seed, dealer, status FROM hands WHERE table_id = $1"
        " ORDER BY no DESC LIMIT 1", table_id)
    log = [(r["seat"], r["action"]) for r in await db.fetch(
        "SELECT seat, action FROM actions WHERE hand_id = $1 ORDER BY seq", hand_id)]
    hand = Hand.replay(get_rule_set(rule_set), seed=int(seed), dealer=dealer, base=base, log=log)
    return Stored(status, int(seed), dealer, hand_status, log, hand)


def shown_actions(tg: FakeTelegram, user: FakeUser) -> list[str]:
    msg = hand_message(tg, user)
    return sorted(text for row in (msg.keyboard if msg else []) for text, d in row
                  if d and d.startswith("a:"))


@dataclass
class Table:
    """One bot's table as its players see it."""

    tg: FakeTelegram
    group: FakeChat
    players: list[FakeUser]  # by seat
    id: int = 0
    lobby: FakeMessage | None = None

    async def open(self, db: asyncpg.Connection) -> None:
        """The first player opens the table with /new, the others press 加入."""
        opener, *others = self.players
        self.lobby = await self.tg.wait_reply(await self.tg.send_text(self.group, opener, "/new"),
                                              timeout=20)
        self.id = await db.fetchval("SELECT id FROM tables WHERE chat_id = $1 AND status !="
                                    " 'closed'", self.group.id)
        for user in others:
            assert await self.join(user) == t("zh", "ok")

    async def join(self, user: FakeUser) -> str | None:
        assert self.lobby is not None
        return (await self.tg.press(self.group, self.lobby.message_id, user, f"j:{self.id}:0",
                                    timeout=20)).text

    async def begin(self) -> None:
        assert self.lobby is not None
        answer = await self.tg.press(self.group, self.lobby.message_id, self.players[0],
                                     f"b:{self.id}:0", timeout=20)
        assert answer.text is None

    async def press(self, user: FakeUser, action: str, used: set[tuple[int, str]]) -> bool:
        """Press the DM button for ``action`` once shown; an outdated keyboard is refused
        (changing nothing), then the refreshed one is pressed. False: another seat took the
        card first (see :func:`support.chooser.taken`)."""
        refused: set[str] = set()
        label = A.label(action, "zh")
        while True:
            def ready() -> tuple[FakeMessage, str] | None:
                msg = hand_message(self.tg, user)
                data = None if msg is None else next(
                    (d for row in msg.keyboard for text, d in row if text == label and d
                     and d.startswith("a:") and d not in refused and (user.id, d) not in used),
                    None)
                return (msg, data) if msg is not None and data else None
            msg, data = await self.tg.wait_for(ready, timeout=20,
                                               what=f"{user.first_name}'s button {action}")
            answer = await self.tg.press(user, msg.message_id, user, data, timeout=20)
            if answer.text in (t("zh", "played", move=label),
                               t("zh", "claim_pending", move=label)) or taken(answer.text):
                used.add((user.id, data))
                return not taken(answer.text)
            assert answer.text in REFUSED, answer
            refused.add(data)

    async def play_until(self, db: asyncpg.Connection,
                         stop: Callable[[Hand], bool] = lambda h: False) -> Stored:
        """Play the chooser's moves until ``stop(hand)`` or the hand ends; each accepted press
        is committed when its answer comes."""
        used: set[tuple[int, str]] = set()
        state = await stored(db, self.id)
        while not state.hand.is_terminal() and not stop(state.hand):
            seat, action = choice(state.hand)
            counted = await self.press(self.players[seat], action, used)
            after = await stored(db, self.id)
            assert after.log == [*state.log, (seat, action)] or not counted
            state = after
        return state

    async def dms_current(self, db: asyncpg.Connection) -> None:
        """Every DM shows exactly its seat's legal actions."""
        hand = (await stored(db, self.id)).hand
        want = {u.id: sorted(A.label(a, "zh") for a in hand.legal_actions(s))
                for s, u in enumerate(self.players)}
        await self.tg.wait_for(
            lambda: all(shown_actions(self.tg, u) == want[u.id] for u in self.players),
            timeout=20, what="refreshed hand messages")


async def closed(db: asyncpg.Connection, table_id: int) -> None:
    """Wait (10 s at most) until the table is closed in the database."""
    for _ in range(100):
        if await db.fetchval("SELECT status FROM tables WHERE id = $1", table_id) == "closed":
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table_id} was not closed")


def check_finished(state: Stored) -> None:
    """The hand ended exactly as the engine alone plays it with the same choices."""
    ref = reference(state.seed, state.dealer)
    assert state.log == ref.log and state.hand_status == "done"


async def test_two_bots_share_players_and_survive_each_other(
        fake_tg: FakeTelegram, fresh_postgres_url: str, tmp_path: Path) -> None:
    tg_a, tg_b = fake_tg, fake_tg.another_bot(TOKEN_B, "PaohuziSecondBot")
    settings = {"DATABASE_URL": fresh_postgres_url, "BOT_SEED": str(SEED),
                "ACTION_TIMEOUT": "600", "DB_PATH": str(tmp_path / "unused.sqlite3")}
    env_a, env_b = fake_env(tg_a, **settings), fake_env(tg_b, **settings)
    a = await start_bot(tg_a, tmp_path, env_a, log=tmp_path / "a.log")
    b = await start_bot(tg_b, tmp_path, env_b, log=tmp_path / "b.log")
    db = await asyncpg.connect(fresh_postgres_url)
    try:
        assert await refused_start(tmp_path, env_a) == [  # the same token twice
            f"paohuzi-bot: bot {tg_a.bot.id} is served by another running paohuzi-bot on"
            " DATABASE_URL; stop it first (one process per bot token)"]

        alice, bob, carol, grace = (tg_a.user(n) for n in ("Alice", "Bob", "Carol", "Grace"))
        dave, erin = tg_b.user("Dave"), tg_b.user("Erin")
        alice_b = tg_b.same_user(alice)  # one person, who opened both bots' private chats
        for tg, user in ((tg_a, alice), (tg_a, bob), (tg_a, carol), (tg_a, grace),
                         (tg_b, alice_b), (tg_b, dave), (tg_b, erin)):
            tg.start_private(user)
        group_a = tg_a.group("甲群", members=(alice, bob, carol, grace))
        group_b = tg_b.group("乙群", members=(alice_b, dave, erin))

        first_a = Table(tg_a, group_a, [alice, bob, carol])
        await first_a.open(db)
        at_b = Table(tg_b, group_b, [dave, erin])
        await at_b.open(db)
        # seated at A's table: at B's she gets the refusal of a second seat, and nothing changes
        assert await at_b.join(alice_b) == t("zh", "seated_elsewhere")
        assert await db.fetchval("SELECT COUNT(*) FROM seats WHERE table_id = $1", at_b.id) == 2

        await first_a.begin()
        check_finished(await first_a.play_until(db))
        await tg_a.send_text(group_a, alice, "/stop")  # between hands: it closes at once
        await closed(db, first_a.id)

        assert await at_b.join(alice_b) == t("zh", "ok")  # free now
        at_b.players.append(alice_b)
        await at_b.begin()
        second_a = Table(tg_a, group_a, [bob, carol, grace])
        await second_a.open(db)
        await second_a.begin()
        await at_b.play_until(db, lambda h: len(h.log) >= 3)
        before = await second_a.play_until(db, lambda h: len(h.log) >= 6)

        assert await stop_bot(a, signal.SIGKILL) == -signal.SIGKILL
        check_finished(await at_b.play_until(db))  # B plays on without A
        assert (await stored(db, second_a.id)).log == before.log

        a = await start_bot(tg_a, tmp_path, env_a, log=tmp_path / "a.log")
        assert (await stored(db, second_a.id)).log == before.log
        await second_a.dms_current(db)  # its hand exactly where it was
        check_finished(await second_a.play_until(db))

        points, hands, wins = await db.fetchrow(
            "SELECT SUM(r.points), COUNT(*), COUNT(*) FILTER (WHERE r.seat = h.winner)"
            " FROM results r JOIN hands h ON h.id = r.hand_id WHERE r.user_id = $1", alice.id)
        assert hands == 2
        total = t("zh", "me_total", points=points, hands=hands, wins=wins,
                  rate=win_rate(hands, wins))
        for tg, user in ((tg_a, alice), (tg_b, alice_b)):  # either bot counts both hands
            reply = await tg.wait_reply(await tg.send_text(user, user, "/me"), timeout=20)
            assert total in (reply.caption or reply.text or "")
    finally:
        await db.close()
        for proc in (a, b):
            if proc.returncode is None:
                await stop_bot(proc)

