"""The private screens of a hand's end: each seat's result (his points, who won with what in
one line, his 醒筹, his share of the birds) with its keyboard (再来一局, 离开, 🔍 复盘), a
bird's result for the onlooker who placed it, and the note of a hand voided by /stop."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import t
from bot.present import fairness
from bot.present.screens.group import verify_button
from bot.present.screens.review import review_button
from bot.present.screens.seat import Settled, settlement
from bot.present.screens.words import cup_prefix, outcome_lines, table_no
from bot.store import BirdRow
from bot.table import HandRecord, Table
from engine.points import signed


def result_keyboard(table: Table, record: HandRecord, seat: int, lang: str, *,
                    live: bool) -> InlineKeyboardMarkup | None:
    """The seat's result's buttons: 再来一局 and 离开 while its settlement is the table's live
    one (the group's own kinds and mark: a press here counts as one there), and under them,
    for good, 🔍 复盘 (his own review, :mod:`bot.present.screens.review`), unless he was the
    醒家 who made no choice to review, and at a private table (``Table.private``: no group
    settlement) the 🔒 验证 the group's settlement has elsewhere; None without any."""
    rows: list[list[InlineKeyboardButton]] = []
    if live and table.cup is None:  # a cup deals its table's next hand by itself
        rows.append([InlineKeyboardButton(t(lang, "btn_again"),
                                          callback_data=cb.Again(table.id, record.id).pack()),
                     InlineKeyboardButton(t(lang, "btn_leave"),
                                          callback_data=cb.Quit(table.id, record.id).pack())])
    outcome = record.hand.outcome
    if outcome is None or seat != outcome.xing:
        rows.append([review_button(record.id, lang)])
    if table.private and record.hand.seed is not None:  # no settlement in the group to carry it
        rows.append([verify_button(record.id, lang)])
    return InlineKeyboardMarkup(rows) if rows else None


def result_text(table: Table, record: HandRecord, seat: int, lang: str, *, total: int,
                hand_birds: Sequence[BirdRow], live: bool) -> str:
    """The seat's result: his points this hand with their parts and his running total, as
    the group's settlement writes them (a 醒家's are his 醒筹), and how the hand ended in
    one line — the seat model's settlement (:func:`bot.present.screens.seat.settlement`),
    as his live page's sheet shows it; at a private table its head carries the 🔒
    fingerprint, as his hand's did."""
    outcome = record.hand.outcome
    sheet = settlement(record, lang, Settled({record.users[seat]: total}, hand_birds))
    assert outcome is not None and sheet is not None
    xing, points = seat == outcome.xing, sheet.rows[seat].text
    head = t(lang, "result_head", table=table.no, hand=record.table_no) if table.cup is None \
        else t(lang, "cup_result_head", id=table.cup.cup_id, round=table.cup.round,
               table=table.cup.no, hand=record.table_no)
    if table.private and record.hand.seed is not None:  # what 验证 checks, as the deal showed
        head += " · " + fairness.seal(record.hand.seed, lang)
    lines = [head,
             t(lang, "result_xing" if xing else "result_points", points=points),
             " · ".join(sheet.lines)]
    if live and table.cup is None:
        lines.append(t(lang, "settle_next"))
    return "\n".join(lines)


def bird_result_text(table: Table, record: HandRecord, bird: BirdRow, lang: str) -> str:
    """An onlooker's bird (打鸟) on the hand: the seat the last card sent it with, its points,
    and how the hand ended."""
    assert bird.points is not None
    followed = record.names[bird.seat] if bird.seat is not None else "—"
    return "\n".join((t(lang, "bird_result", table=table.no, hand=record.table_no, name=followed,
                        points=signed(bird.points)),
                      " · ".join(outcome_lines(record, lang))))


def voided_text(table: Table, record: HandRecord, stopper: str, lang: str) -> str:
    """The hand was voided by /stop: who stopped the table, and that the hand does not count."""
    return cup_prefix(table, lang) + t(lang, "voided_dm", name=stopper, table=table_no(table),
                                       hand=record.table_no)
