"""The buttons of a seat's private chat: a move, 托管 taken back, 提示 and 解散."""

from __future__ import annotations

from bot import callbacks as cb
from bot.i18n import t
from bot.telegram.press import Pressed, Reply, on
from engine import actions as A


@on(cb.Act)
async def move(p: Pressed[cb.Act]) -> Reply:
    """Entry ``index`` of the presser's legal actions at keyboard ``version``. Its toast
    confirms the move: the pressed keyboard may stay a moment (``Presenter._sync_hand``)."""
    answer = await p.env.service.act(p.press.table, p.user.id, p.press.version,
                                     p.press.index)
    return Reply(t(p.lang, answer.key, move=A.label(answer.move, p.lang)))


@on(cb.TakeBack)
async def take_back(p: Pressed[cb.TakeBack]) -> Reply:
    await p.env.service.take_back(p.press.table, p.user.id)
    return Reply(t(p.lang, "autoplay_off"))


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
