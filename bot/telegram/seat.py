"""The buttons of a seat's private chat: a move, 托管 taken back (checked and answered by
the seat's presses, :mod:`bot.present.screens.seat_presses`, as on its live page), 提示
and 解散."""

from __future__ import annotations

from bot import callbacks as cb
from bot.i18n import t
from bot.present.screens.seat_presses import Move, Press, answer
from bot.telegram.press import Pressed, Reply, on


@on(cb.Act)
async def move(p: Pressed[cb.Act]) -> Reply:
    """Entry ``index`` of the presser's legal actions at keyboard ``version``. Its toast
    confirms the move: the pressed keyboard may stay a moment (``Presenter._sync_hand``)."""
    return Reply(await answer(p.env.service, p.press.table, p.user.id, p.lang,
                              Press(Move.ACT, p.press.version, p.press.index)))


@on(cb.TakeBack)
async def take_back(p: Pressed[cb.TakeBack]) -> Reply:
    return Reply(await answer(p.env.service, p.press.table, p.user.id, p.lang,
                              Press(Move.TAKE_BACK)))


@on(cb.Hint)
async def hint(p: Pressed[cb.Hint]) -> Reply:
    """提示: its own text, shown until dismissed."""
    reason = await p.env.service.hint(p.press.table, p.user.id, p.lang)
    return Reply(t(p.lang, "hint", reason=reason), alert=True)


@on(cb.Dissolve)
async def dissolve(p: Pressed[cb.Dissolve]) -> Reply:
    """解散: the vote is posted in the group."""
    assert p.env.votes is not None
    await p.env.votes.propose_dissolve(p.press.table, await p.env.person(p.user))
    return Reply(t(p.lang, "vote_proposed"))
