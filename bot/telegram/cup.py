"""/cup and the 报名 button of a 群杯 (:mod:`bot.table.cups`): ``/cup [rule set] [轮数]
[每轮局数]`` opens the sign-up, the opener's ``/cup start`` starts it, ``/cup`` during a cup
shows its standings, ``/cup cancel`` (the opener or an admin) ends it before its last round. In a group without topics the cup's tables play in private chats, so
only those who have opened the bot may open it or sign up."""

from __future__ import annotations

from functools import partial

from telegram import Update

from bot import callbacks as cb
from bot.i18n import t
from bot.table import Refusal
from bot.table.cup_service import CupService
from bot.table.cups import split_args
from bot.telegram.env import Context, Env, refusal_text, topic_of
from bot.telegram.lobby import house_refusal, rules_from_args
from bot.telegram.press import Pressed, Reply, on
from engine.rules import HouseRuleError

START_WORD = "start"
CANCEL_WORDS = frozenset({"cancel", "取消"})


def _service(env: Env) -> CupService:
    assert env.cups is not None
    return env.cups


async def cup(env: Env, update: Update, context: Context) -> None:
    chat, user = env.group_chat(update), update.effective_user
    if chat is None or user is None:
        return
    args, thread = list(context.args or []), topic_of(update)
    person = await env.person(user)
    service = _service(env)
    try:
        if args[:1] == [START_WORD]:
            await service.start(chat.id, person.user_id)
            return  # the card says it
        if len(args) == 1 and args[0].lower() in CANCEL_WORDS:
            admin = await env.is_admin(context, chat.id, person.user_id)
            await service.cancel(chat.id, person.user_id, admin)
            return  # the final card says it
        if not args:
            row = await env.reads.open_cup(chat.id)
            if row is not None:
                assert env.cup_messages is not None
                env.cup_messages.cup_standings(row, thread)
                return
        try:
            words, rounds, hands = split_args(args)
            rules = rules_from_args(words)
        except HouseRuleError as refused:  # an unknown word: the usage, as before
            said = house_refusal(refused, words)
            raise (Refusal("cup_usage") if said.code == "house_unknown" else said) from None
        except ValueError:
            raise Refusal("cup_usage") from None
        private = not getattr(chat, "is_forum", False)  # no topics: tables in private chats
        if private and not await env.can_dm(person):
            raise Refusal("cup_needs_dm")
        await service.open(chat.id, thread, person, rules, rounds, hands, private=private)
    except Refusal as r:
        env.say(chat, user, partial(refusal_text, r), thread)


@on(cb.CupJoin)
async def join_pressed(p: Pressed[cb.CupJoin]) -> Reply:
    """报名; a cup played in private chats takes only one who has opened the bot."""
    service, person = _service(p.env), await p.env.person(p.user)
    if await service.private(p.press.cup) and not await p.env.can_dm(person):
        raise Refusal("cup_needs_dm")
    await service.join(p.press.cup, person)
    return Reply(t(p.lang, "cup_joined"))
