"""/replay and its ⏮ ◀ ▶ ⏭ buttons (:mod:`bot.present.replays`): a finished hand, a step at a time."""

from __future__ import annotations

from telegram import Chat, Update

from bot.commands import hands
from bot.i18n import t
from bot.present import replays
from bot.telegram.env import Context, Env, topic_of
from bot.telegram.press import Pressed, on


async def replay(env: Env, update: Update, context: Context) -> None:
    """/replay [N]: in a group its hand number N (the last by default), in private the id N
    of a hand one sat at (:mod:`bot.commands.hands`)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    private = chat.type == Chat.PRIVATE
    number = replays.hand_number(context.args or [])
    if number is None:
        env.answer_key(update, "replay_dm_usage" if private else "replay_usage")
        return
    found = await (hands.own_hand(env.store, user.id, number) if private
                   else hands.group_hand(env.store, chat.id, number))
    if isinstance(found, str):
        key = found
        env.answer(update, lambda lang: t(lang, key, no=number, id=number))
        return
    env.presenter.replay(chat.id, found, replays.total_steps(found),
                         lang=env.lang(user) if private else None, thread_id=topic_of(update))


@on("p")
async def step(p: Pressed) -> None:
    """A replay button: its message's edit to the step asked for is queued (paced; see
    ``Presenter.replay``) and the press answered at once. Refused unless the hand is the
    group's (in a group) or the presser's own (in private)."""
    msg = p.query.message
    found = await hands.step_of(p.env.store, p.press.table_id, p.press.version)
    if msg is None or found is None:
        await p.query.answer(t(p.lang, "stale"))
        return
    chat_id, played = found
    private = msg.chat.type == Chat.PRIVATE
    belongs = (p.user.id in played.users if private
               else p.env.presenter.chat_now(chat_id) == msg.chat.id)
    if not belongs:
        await p.query.answer(t(p.lang, "replay_foreign"))
        return
    p.env.presenter.replay(msg.chat.id, played, p.press.version, message_id=msg.message_id,
                           lang=p.lang if private else None)
    await p.query.answer()
