"""The 🔍 复盘 button (:mod:`bot.present.reviews`): one's own review of a finished hand."""

from __future__ import annotations

from telegram import Chat

from bot import callbacks as cb
from bot.i18n import t
from bot.telegram.press import Pressed, Reply, on


@on(cb.Review)
async def review(p: Pressed[cb.Review]) -> Reply:
    """The presser's own seat's review goes to his private chat, from wherever the button
    was pressed (his hand message, a /replay there or in the group). Refused politely, with
    nothing sent, unless the store has him at a seat of that finished hand."""
    found = await p.env.reads.played_hand(p.press.hand)
    if found is None:
        return Reply(t(p.lang, "stale"))
    played = found[1]
    if p.user.id not in played.users:
        return Reply(t(p.lang, "review_foreign"))
    seat = played.users.index(p.user.id)
    if not p.env.presenter.review(p.user.id, played, seat, p.lang):
        return Reply(t(p.lang, "review_busy"))
    msg = p.query.message
    private = msg is not None and msg.chat.type == Chat.PRIVATE
    return Reply(t(p.lang, "review_coming" if private else "review_coming_dm"))
