"""A competition's card posted as the store goes down: the store refuses every write from
the moment the card is sent (a full disk), so the card's id cannot be stored then, and a
press meanwhile is answered that the store is unavailable. Once the store is back, the next
change edits that card — no second card appears — its id reaches the store by itself, and a
restart edits the same card too. For a 群杯's card and a 复式挑战's."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from telegram.ext import Application

from bot.i18n import t
from bot.present import posts
from bot.store import sqlite as sqlite_store


class Outage:
    """Every write of the bot's SQLite store refused as a full disk refuses it, while on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        real = sqlite_store.SqliteConn.run

        async def run(conn: sqlite_store.SqliteConn, sql: str, args: object) -> int:
            if self.on:
                full = sqlite3.OperationalError("database or disk is full")
                full.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
                with conn._health.watch():  # as the driver's error reaches the store
                    raise full
            return await real(conn, sql, args)  # type: ignore[arg-type]

        monkeypatch.setattr(sqlite_store.SqliteConn, "run", run)

    def from_send(self, app: Application, mark: str) -> None:  # type: ignore[type-arg]
        """On from the moment the bot sends a message starting with ``mark``."""
        courier = services(app).presenter.bot
        real = courier.send_message

        async def send_message(chat_id: int, text: str, **kwargs: object):  # type: ignore[no-untyped-def]
            msg = await real(chat_id, text, **kwargs)
            if text.startswith(mark):
                self.on = True
            return msg

        courier.send_message = send_message  # type: ignore[method-assign]


def cards(tg: FakeTelegram, group: FakeChat, mark: str) -> list[FakeMessage]:
    return [m for m in tg.messages(group) if (m.text or "").startswith(mark)]


def kept(db: Path, slot: str) -> list[int]:
    """The message ids the store keeps in ``slot`` (read as another process would)."""
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT msg_id FROM posts WHERE slot = ?", (slot,))]


async def check_one_card(tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         command: str, mark: str, button: str, slot: str,
                         answer: Callable[[str], str],
                         shows: Callable[[FakeMessage, FakeUser], bool]) -> None:
    """``command`` posts a card (``mark``) as the store goes down; each of three users
    presses ``button`` on it: one during the outage (``answer``: the press counted), one
    after it, one after a restart. Only ever one card, showing every press that counted."""
    monkeypatch.setattr(posts, "STORE_RETRY", 0.2)
    db = tmp_path / "db.sqlite3"
    config = make_config(tg, db)
    ann, bob, cat, dan = (tg.user(n, language_code="zh-hans") for n in ("Ann", "Bob", "Cat",
                                                                         "Dan"))
    group = tg.group("卡片群", members=(ann, bob, cat, dan))
    for user in (ann, bob, cat, dan):
        tg.start_private(user)
    outage = Outage(monkeypatch)
    async with running_bot(config) as app:
        outage.from_send(app, mark)
        await tg.send_text(group, ann, command)
        card = await tg.wait_for(lambda: next(iter(cards(tg, group, mark)), None), timeout=30)
        await services(app).presenter.idle()
        assert outage.on and kept(db, slot) == [0]  # reserved before the send, no id yet
        refused = await tg.press_button(card, bob, button, timeout=30)
        assert refused.text == t("zh", "store_unavailable")
        outage.on = False  # the store is back
        assert (await tg.press_button(card, cat, button)).text == answer("zh")
        await tg.wait_for(lambda: shows(tg.message(group, card.message_id), cat) or None,
                          timeout=30, what="the card edited")
        await tg.wait_for(lambda: kept(db, slot) == [card.message_id] or None, timeout=30,
                          what="the card's id stored once the store took it")
        await services(app).presenter.idle()
        assert cards(tg, group, mark) == [card]
    async with running_bot(config) as app:  # restarted: the card is found in the store
        assert (await tg.press_button(card, dan, button)).text == answer("zh")
        await tg.wait_for(lambda: shows(tg.message(group, card.message_id), dan) or None,
                          timeout=30, what="the same card edited after the restart")
        await services(app).presenter.idle()
    assert cards(tg, group, mark) == [card]
    assert not shows(tg.message(group, card.message_id), bob)  # his press did not count


def named(msg: FakeMessage, user: FakeUser) -> bool:
    return user.first_name in (msg.text or "")


async def test_a_cup_card_posted_as_the_store_goes_down_is_the_only_one(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await check_one_card(tg, tmp_path, monkeypatch, "/cup 1轮 2局", "🏅", "报名", "cup_card",
                         lambda lang: t(lang, "cup_joined"), named)


async def test_a_challenge_card_posted_as_the_store_goes_down_is_the_only_one(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await check_one_card(tg, tmp_path, monkeypatch, "/challenge 2局 2h", "⚔️", "参加",
                         "challenge_card", lambda lang: t(lang, "challenge_joined"), named)
