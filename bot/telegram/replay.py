"""/replay and its ⏮ ◀ ▶ ⏭ buttons (:mod:`bot.present.replays`): a finished hand, a step at a time."""

from __future__ import annotations

from telegram import Chat, Message, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot import callbacks as cb
from bot.commands import hands
from bot.i18n import t
from bot.present import replays
from bot.store import PlayedHand
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
    found = await (hands.own_hand(env.reads, user.id, number) if private
                   else hands.group_hand(env.reads, chat.id, number))
    if isinstance(found, str):
        key = found
        env.answer(update, lambda lang: t(lang, key, no=number, id=number))
        return
    env.presenter.replay(chat.id, found, replays.OPENING_STEP,
                         lang=env.lang(user) if private else None, thread_id=topic_of(update))


async def open_privately(env: Env, context: Context, user_id: int, hand_id: int,
                         lang: str) -> bool:
    """/start r<hand id> (the group replay's link): the same replay, at the deal, in the
    viewer's private chat; False when he may not see it (no such finished hand, or one of a
    group he is not in)."""
    found = await hands.step_of(env.reads, hand_id, replays.OPENING_STEP)
    if found is None or not await may_view(env, context, user_id, *found):
        return False
    env.presenter.replay(user_id, found[1], replays.OPENING_STEP, lang=lang)
    return True


async def may_view(env: Env, context: Context, user_id: int, chat_id: int,
                    played: PlayedHand) -> bool:
    """A private replay is a hand one sat at, or one of a group one is in (as its /replay
    shows it to every member)."""
    if user_id in played.users:
        return True
    try:
        member = await context.bot.get_chat_member(env.presenter.chat_now(chat_id), user_id)
    except TelegramError:
        return False
    return member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


def _shown_step(msg: Message) -> int | None:
    """The step a replay message shows: its middle button's (k/n)."""
    rows = msg.reply_markup.inline_keyboard if msg.reply_markup is not None else ()
    if not rows or len(rows[0]) < 3:
        return None
    press = cb.Replay.unpack(rows[0][2].callback_data
                             if isinstance(rows[0][2].callback_data, str) else None)
    return press.step if press is not None else None


@on(cb.Replay)
async def step(p: Pressed[cb.Replay]) -> None:
    """A replay button: its message's edit to the step asked for is queued (paced; see
    ``Presenter.replay``) and the press answered at once with the step it asked for; a
    press for the step shown uploads nothing (:func:`bot.present.replays.already`).
    Refused unless the hand is the group's (in a group) or one the presser may see (in
    private: see :func:`may_view`)."""
    msg = p.query.message
    found = await hands.step_of(p.env.reads, p.press.hand, p.press.step)
    if not isinstance(msg, Message) or found is None:  # gone, or too old to be read
        await p.query.answer(t(p.lang, "stale"))
        return
    chat_id, played = found
    private = msg.chat.type == Chat.PRIVATE
    belongs = (await may_view(p.env, p.context, p.user.id, chat_id, played) if private
               else p.env.presenter.chat_now(chat_id) == msg.chat.id)
    if not belongs:
        await p.query.answer(t(p.lang, "replay_foreign"))
        return
    asked, total = p.press.step, replays.total_steps(played)
    key = replays.already(played, asked, _shown_step(msg))
    if key is None:
        p.env.presenter.replay(msg.chat.id, played, asked, message_id=msg.message_id,
                               lang=p.lang if private else None)
    await p.query.answer(t(p.lang, key or "replay_step", step=asked, total=total))
