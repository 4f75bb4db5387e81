"""A seat's presses: which moves it may make now, their labels, their checks and their
answers — one table for the buttons of its private picture (:mod:`bot.present.screens.
seat_keys`, :mod:`bot.telegram.seat`, the settlement's 再来一局 of
:mod:`bot.telegram.lobby_buttons`) and for its live page (:mod:`bot.webapp.press`), so that
a press is checked and answered the same wherever it is made. Nothing here knows Telegram."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.i18n import t
from bot.table import HandRecord, Table, TableService, TableStatus
from engine import actions as A


class Move(StrEnum):
    ACT = "act"  # entry ``index`` of the seat's legal actions at decision ``version``
    TAKE_BACK = "takeback"  # 托管 switched off
    AGAIN = "again"  # 再来一局 on the settlement of hand ``mark``


@dataclass(frozen=True)
class Press:
    """A press as it arrives, from a button's data or the page's JSON."""

    move: Move
    version: int | None = None
    index: int | None = None
    mark: int | None = None


@dataclass(frozen=True)
class SeatPress:
    """A press the seat may make now, with its label; ``card``: a discard's card."""

    press: Press
    label: str
    card: int | None = None

    @property
    def discard(self) -> bool:
        return self.card is not None


def seat_presses(table: Table, record: HandRecord, seat: int, lang: str) -> tuple[SeatPress, ...]:
    """While the hand is played: the take-back in 托管, else exactly the seat's legal actions;
    between hands, on the latest settlement, 再来一局 until it is pressed (not at a cup's
    table, which deals its next hand by itself)."""
    player, decision = table.players.get(seat), table.decisions.get(seat)
    if player is None or player.user_id != record.users[seat]:
        return ()
    if table.status == TableStatus.PLAYING and not record.hand.is_terminal():
        if player.autoplay:
            return (SeatPress(Press(Move.TAKE_BACK), t(lang, "btn_takeback")),)
        if decision is None:
            return ()
        return tuple(SeatPress(Press(Move.ACT, decision.version, i), A.label(a, lang),
                               A.parse(a).card if a.startswith("d:") else None)
                     for i, a in enumerate(decision.legal))
    if table.status == TableStatus.BETWEEN and table.current is record \
            and table.cup is None and not player.ready:
        return (SeatPress(Press(Move.AGAIN, mark=record.id), t(lang, "btn_again")),)
    return ()


async def answer(service: TableService, table_id: int, user_id: int, lang: str,
                 press: Press) -> str:
    """Apply the press for the user's own seat and say what it did; a press the table no
    longer allows (an old decision, another hand's settlement, not his turn…) raises
    :class:`bot.table.Refusal` and changes nothing."""
    if press.move == Move.TAKE_BACK:
        await service.take_back(table_id, user_id)
        return t(lang, "autoplay_off")
    if press.move == Move.AGAIN:
        assert press.mark is not None
        service.check_live(table_id, TableStatus.BETWEEN, press.mark)
        await service.again(table_id, user_id)
        return t(lang, "ready")
    assert press.version is not None and press.index is not None
    done = await service.act(table_id, user_id, press.version, press.index)
    return t(lang, done.key, move=A.label(done.move, lang))
