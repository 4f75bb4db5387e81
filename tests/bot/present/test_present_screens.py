"""Screens as plain values: the lobby's and a seat's text and keyboard from a table, a hand,
a seat and a language, compared without a bot (:mod:`bot.present.screens`)."""

from __future__ import annotations

from bot.i18n import t
from bot.present.screens.group import table_screen
from bot.present.screens.lobby import lobby_keyboard, lobby_text
from bot.present.screens.seat import hand_caption
from bot.present.screens.seat_keys import keyboard
from bot.present.screens.seat_presses import seat_presses
from bot.table import Decision, HandRecord, Player, Table
from engine import actions as A
from engine.rules import QQ
from engine.state import Hand

NAMES = ("Alice", "Bob", "Carol")


def labels(markup) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [[button.text for button in row] for row in markup.inline_keyboard]


def lobby(seated: int) -> Table:
    table = Table(7, -100, 1, 1, "lobby", None, 0, 0, rules=QQ)
    table.players = {s: Player(s + 1, NAMES[s], "zh") for s in range(seated)}
    return table


def test_the_lobby_offers_a_seat_while_one_is_free() -> None:
    link = "https://t.me/paohuzi_bot?start=j7"
    free = labels(lobby_keyboard(lobby(2), "zh", mark=0, timer=30, deep_link=link))
    full = labels(lobby_keyboard(lobby(3), "zh", mark=0, timer=30, deep_link=link))
    assert t("zh", "btn_join") in free[0] and t("zh", "btn_addbot") in free[1]
    assert t("zh", "btn_join") not in full[0] and t("zh", "btn_addbot") not in full[1]
    assert t("zh", "btn_begin") in full[0] and t("zh", "btn_leave") in full[0]
    text = lobby_text(lobby(2), "zh", timer=30, full_start_delay=10)
    assert "Alice" in text and "Bob" in text and "Carol" not in text


def dealt() -> tuple[Table, HandRecord]:
    table = lobby(3)
    hand = Hand.new(QQ, seed=5, dealer=0)
    record = HandRecord(1, 1, hand, (1, 2, 3), NAMES)
    table.status, table.current = "playing", record
    for seat in range(3):
        legal = tuple(hand.legal_actions(seat))
        table.decisions[seat] = Decision(1, legal, (), 0.0)
    return table, record


def test_a_seat_sees_exactly_its_legal_actions_and_what_the_table_waits_for() -> None:
    table, record = dealt()
    dealer = record.hand.to_act()[0]
    rows = labels(keyboard(table.id, seat_presses(table, record, dealer, "zh"), "zh"))
    shown = [label for row in rows[:-1] for label in row]
    assert sorted(shown) == sorted(A.label(a, "zh") for a in record.hand.legal_actions(dealer))
    assert rows[-1] == [t("zh", "btn_hint"), t("zh", "btn_dissolve")]
    other = (dealer + 1) % 3
    assert not record.hand.legal_actions(other)  # the dealer's first discard: nobody else
    assert keyboard(table.id, seat_presses(table, record, other, "zh"), "zh") is None
    caption = hand_caption(table, record, other, record.hand.private_view(other), "zh",
                           asked_at=None)
    assert caption.splitlines()[-1] == t("zh", "wait_discard", name=NAMES[dealer])
    _, group = table_screen(table, record, (), "zh")
    assert group.splitlines()[-1] == t("zh", "wait_discard", name=NAMES[dealer])
    assert table_screen(table, record, (), "zh") == table_screen(table, record, (), "zh")
