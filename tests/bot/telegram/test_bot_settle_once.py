"""A hand's settlement is posted once in its group, whatever the database does when it is
posted: a message id the store refuses is not a reason to post it again, in this run or
after a restart."""

from __future__ import annotations

import random
import sqlite3

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeTelegram
from support.play import play_hand, start_hand

from bot.store.posts import Slot
from bot.store.writes import Writes


def refuse_settlement_ids(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every write of a settlement's message id fails as a full disk would; the ids refused."""
    refused: list[int] = []
    real = Writes.set_post

    async def flaky(self: Writes, slot: Slot, key: tuple[int, ...], msg_id: int | None) -> None:
        if slot == Slot.SETTLEMENT and isinstance(msg_id, int) and msg_id > 0:
            refused.append(msg_id)
            raise sqlite3.OperationalError("database or disk is full")
        await real(self, slot, key, msg_id)

    monkeypatch.setattr(Writes, "set_post", flaky)
    return refused


async def test_a_settlement_whose_id_was_never_stored_is_not_posted_again(
        tg: FakeTelegram, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        users, group, _lobby, _svc, _table = await start_hand(tg, app)
        refused = refuse_settlement_ids(monkeypatch)
        table = await play_hand(tg, app, users, group, random.Random(3))
        record = table.current
        seal = str(record.hand.seed)  # told only in the settlement
        await tg.wait_for(lambda: refused or None, what="the settlement's id refused")
        await tg.settle()  # the id is written again meanwhile, and refused again
    monkeypatch.undo()
    async with running_bot(config):
        await tg.settle()
    settlements = [m for m in tg.messages(group) if m.photo_bytes and seal in (m.caption or "")]
    assert [m.message_id for m in settlements] == [refused[0]]
