"""The settlement's 验证 button (:mod:`bot.present.verify`): the fairness check of a finished
hand, answered in the presser's private chat."""

from __future__ import annotations

from telegram import Message

from bot import callbacks as cb
from bot import links
from bot.i18n import t
from bot.present import verify
from bot.store import PlayedHand
from bot.telegram.env import Context, Env
from bot.telegram.press import Pressed, Reply, on
from bot.telegram.replay import may_view


@on(cb.Verify)
async def check(p: Pressed[cb.Verify]) -> Reply:
    """The check goes to the presser's private chat, against the 🔒 of the settlement he
    pressed it under; one who has not opened the bot yet gets its link, whose /start sends
    it (:func:`open_privately`). The button is under the group's settlement, or under a
    seated player's own result in his private chat (a private table's: it has no group
    settlement); anywhere else it is outdated."""
    hand_id, msg = p.press.hand, p.query.message
    found = await p.env.reads.played_hand(hand_id)
    if found is None or not isinstance(msg, Message) or \
            msg.chat.id not in (p.env.presenter.chat_now(found[0]), *_own(p, found[1])):
        return Reply(t(p.lang, "stale"))
    known = await p.env.reads.user(p.user.id)
    if known is None or not known.dm_ok:
        return Reply(None, url=links.start(p.env.presenter.username, links.VERIFY, hand_id))
    await _send(p.env, p.user.id, hand_id, verify.shown_fingerprint(msg.caption or msg.text),
                p.lang)
    return Reply(t(p.lang, "verify_sent"))


def _own(p: Pressed, played: PlayedHand) -> tuple[int, ...]:
    """The presser's private chat, if he sat at the hand."""
    return (p.user.id,) if p.user.id in played.users else ()


async def open_privately(env: Env, context: Context, user_id: int, hand_id: int,
                         lang: str) -> bool:
    """/start c<hand id> (the 验证 link): the check in the private chat; False when the user
    may not see that hand (as for its replay: :func:`bot.telegram.replay.may_view`)."""
    found = await env.reads.played_hand(hand_id)
    if found is None or not await may_view(env, context, user_id, *found):
        return False
    await _send(env, user_id, hand_id, None, lang)
    return True


async def _send(env: Env, user_id: int, hand_id: int, shown: str | None, lang: str) -> None:
    found = await env.reads.played_hand(hand_id)
    assert found is not None
    birds = await env.reads.hand_birds(hand_id)
    text = verify.check_text(verify.check(found[1], birds, shown, lang), lang)
    env.presenter.note(user_id, lambda _lang: text, lang=lang)
