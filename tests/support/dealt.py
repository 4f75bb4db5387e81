"""A running bot with three seated and a hand dealt from a chosen deck
(``support.handkit.deck``: dealer, 下家, 上家), and the decks of the claim tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.table import HandRecord, Table
from bot.telegram.app import Services
from engine.state import Hand
from support.e2e import hand_message, make_config, running_bot
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.handkit import card, deck
from support.play import start_hand
from support.posted import picture_id

EIGHT = card("八")
# the dealer discards 八: only his 上家 (a pair of 八) may claim it, by 碰
ONE_ASKED = {"dealer": "八", "shang": "八八", "keep_out": {1: "七九捌"}}
# the dealer discards 八: his 下家 may 吃 it (七九), his 上家 may 碰 it, which ranks higher
TWO_ASKED = {"dealer": "八", "xia": "七九", "shang": "八八", "keep_out": {1: "八六十捌"}}


@dataclass
class Dealt:
    """A running bot, three seated and a hand dealt from a chosen deck."""

    tg: FakeTelegram
    svc: Services
    users: list[FakeUser]
    group: FakeChat
    table: Table

    @property
    def record(self) -> HandRecord:
        assert self.table.current is not None
        return self.table.current

    def seat(self, offset: int) -> int:
        """The dealer (0), his 下家 (1) or his 上家 (2)."""
        return (self.record.hand.dealer + offset) % 3

    def name(self, seat: int) -> str:
        return self.record.names[seat]

    def caption(self, seat: int) -> str:
        msg = hand_message(self.tg, self.users[seat])
        return msg.caption or "" if msg is not None else ""

    def group_caption(self) -> str:
        msg = self.tg.message(self.group, picture_id(self.svc, self.table) or 0)
        return msg.caption or "" if msg is not None else ""

    async def told(self) -> int:
        """Wait until the presenter has been told of the last move applied and has sent
        what it makes; returns the moves then. (The service applies a move, stores it, then
        refreshes its decisions and tells the presenter at once.)"""
        hand = self.record.hand
        await self.tg.wait_for(lambda: all(
            self.table.decisions[s].legal == hand.legal_actions(s) for s in range(3)))
        moves = len(hand.log)
        await self.svc.presenter.idle()
        return moves

    async def press(self, seat: int, action: str, *, may_be_late: bool = False,
                    answer_starts: str = "✓ ") -> None:
        """The seat presses the button of ``action`` on its decision as the bot keeps it
        (``may_be_late``: the decision may be gone by the time the press arrives;
        ``answer_starts``: how the answer must begin, a confirmation by default)."""
        decision = self.table.decisions[seat]
        msg = await self.tg.wait_for(lambda: hand_message(self.tg, self.users[seat]))
        data = f"a:{self.table.id}:{decision.version}:{decision.legal.index(action)}"
        answer = await self.tg.press(self.users[seat], msg.message_id, self.users[seat], data)
        assert may_be_late or (answer.text or "").startswith(answer_starts), answer


def deal_from(monkeypatch: pytest.MonkeyPatch, **places: Any) -> None:
    """Every hand the bot deals from now on comes from ``support.handkit.deck(**places)``."""
    new = Hand.new.__func__  # type: ignore[attr-defined]
    order = deck(**places)

    def fixed(cls: type[Hand], rules: Any, *, seed: int | None = None,
              deck: list[int] | None = None, dealer: int = 0, base: int | None = None) -> Hand:
        return new(cls, rules, deck=list(order), dealer=dealer, base=base)
    monkeypatch.setattr(Hand, "new", classmethod(fixed))


@asynccontextmanager
async def dealt(tg: FakeTelegram, tmp_path: Path, **config: object) -> AsyncIterator[Dealt]:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3", **config)) as app:
        users, group, _, svc, table = await start_hand(tg, app)
        yield Dealt(tg, svc, users, group, table)
