"""Tables played by bot processes on a PostgreSQL store, as their players see them (the fake
Bot API) and as the store holds them (read as a third process would)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import asyncpg

from bot.i18n import t
from engine import actions as A
from engine.rules import get_rule_set
from engine.state import Hand
from support.chooser import choice, hand_message, taken
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

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
        """Every DM has its hand picture, showing exactly its seat's legal actions (a seat
        with none to show has its picture too: else its first picture, still on the way,
        could be the one that shows a later move)."""
        hand = (await stored(db, self.id)).hand
        want = {u.id: sorted(A.label(a, "zh") for a in hand.legal_actions(s))
                for s, u in enumerate(self.players)}
        await self.tg.wait_for(
            lambda: all(hand_message(self.tg, u) is not None
                        and shown_actions(self.tg, u) == want[u.id] for u in self.players),
            timeout=20, what="refreshed hand messages")
