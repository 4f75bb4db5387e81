"""The keyboard of a seat's private picture, from its presses (:mod:`bot.present.screens.
seat_presses`): its legal actions, discards five a row, with 提示 and 解散 (proposing to end
the hand) under them, or the take-back button while in 托管."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import t
from bot.present.screens.seat import DISCARDS_PER_ROW
from bot.present.screens.seat_presses import Move, SeatPress


def keyboard(table_id: int, presses: Sequence[SeatPress],
             lang: str) -> InlineKeyboardMarkup | None:
    """The picture's buttons for ``presses`` (:attr:`SeatModel.presses`); None without a
    move to make. 再来一局 is the settlement's, not the picture's."""
    rows: list[list[InlineKeyboardButton]] = []
    discards: list[InlineKeyboardButton] = []
    for p in presses:
        if p.press.move == Move.TAKE_BACK:
            return InlineKeyboardMarkup(
                [[InlineKeyboardButton(p.label, callback_data=cb.TakeBack(table_id).pack())]])
        if p.press.move != Move.ACT:
            continue
        assert p.press.version is not None and p.press.index is not None
        button = InlineKeyboardButton(p.label, callback_data=cb.Act(
            table_id, p.press.version, p.press.index).pack())
        if p.discard:
            discards.append(button)
        else:
            rows.append([button])
    if not rows and not discards:
        return None
    rows[:0] = [discards[i:i + DISCARDS_PER_ROW] for i in range(0, len(discards), DISCARDS_PER_ROW)]
    rows.append([InlineKeyboardButton(t(lang, "btn_hint"), callback_data=cb.Hint(table_id).pack()),
                 InlineKeyboardButton(t(lang, "btn_dissolve"),
                                      callback_data=cb.Dissolve(table_id).pack())])
    return InlineKeyboardMarkup(rows)
