"""/challenge and the buttons of a 复式挑战 (:mod:`bot.table.challenges`): 参加 on the group's
card, each decision and 离开 in the participant's private chat, and the final card's 🔍."""

from __future__ import annotations

from functools import partial

from telegram import Update

from bot import callbacks as cb
from bot import links
from bot.i18n import t
from bot.present.screens import challenge as screens
from bot.table import Refusal
from bot.table.challenge_service import ChallengeService
from bot.table.challenges import split_args
from bot.telegram.env import Context, Env, refusal_text, topic_of
from bot.telegram.lobby import house_refusal, rules_from_args
from bot.telegram.press import Pressed, Reply, on
from engine import actions as A
from engine.rules import HouseRuleError
from render.difference import render_difference

END_WORD = "end"


def _service(env: Env) -> ChallengeService:
    assert env.challenges is not None
    return env.challenges


async def challenge(env: Env, update: Update, context: Context) -> None:
    """/challenge [rule set] [N局] [deadline] opens the group's challenge; /challenge end
    (its opener) ends it now. Bad words get the usage, a second challenge a reason."""
    chat, user = env.group_chat(update), update.effective_user
    if chat is None or user is None:
        return
    args, thread = list(context.args or []), topic_of(update)
    person = await env.person(user)
    try:
        if args[:1] == [END_WORD]:
            await _service(env).end(chat.id, person.user_id)
            return  # the final card says it
        words, hands, seconds = split_args(args)
        try:
            rules = rules_from_args(words)
        except HouseRuleError as refused:  # an unknown word: the usage, as before
            said = house_refusal(refused, words)
            raise (Refusal("challenge_usage") if said.code == "house_unknown" else said) from None
        except ValueError:
            raise Refusal("challenge_usage") from None
        await _service(env).open(chat.id, thread, person, rules, hands, seconds)
    except Refusal as r:
        env.say(chat, user, partial(refusal_text, r), thread)


@on(cb.ChallengeJoin)
async def join_pressed(p: Pressed[cb.ChallengeJoin]) -> Reply:
    """参加: one who has not opened the bot gets its link (its /start joins him)."""
    person = await p.env.person(p.user)
    if not await p.env.can_dm(person):
        return Reply(None, url=links.start(p.env.presenter.username, links.CHALLENGE,
                                           p.press.challenge))
    await _service(p.env).join(p.press.challenge, person)
    return Reply(t(p.lang, "challenge_joined"))


async def open_privately(env: Env, update: Update, challenge_id: int) -> None:
    """/start x<challenge id>: join it from the private chat, or, playing it already, get
    his current deal again (a refusal says why)."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    try:
        try:
            await _service(env).join(challenge_id, await env.person(user, dm_ok=True))
        except Refusal as r:
            if r.code != "challenge_once":
                raise
            await _service(env).resume(challenge_id, user.id)
    except Refusal as r:
        env.say(chat, user, partial(refusal_text, r))


@on(cb.ChallengeMove)
async def move(p: Pressed[cb.ChallengeMove]) -> Reply:
    press = p.press
    action = await _service(p.env).press(press.challenge, p.user.id, press.version, press.index)
    return Reply(t(p.lang, "played", move=A.label(action, p.lang)))


@on(cb.ChallengeLeave)
async def leave(p: Pressed[cb.ChallengeLeave]) -> Reply:
    await _service(p.env).leave(p.press.challenge, p.user.id)
    return Reply(t(p.lang, "challenge_left_toast"))


@on(cb.ChallengeDiff)
async def difference(p: Pressed[cb.ChallengeDiff]) -> Reply:
    """The final card's 🔍: the picture of the position where that player first left the
    best one's choices, both marked (:mod:`render.difference`), sent to the presser's
    private chat."""
    row, his, best, diff, deal = await _service(p.env).difference(p.press.challenge,
                                                                  p.press.place)
    person = await p.env.person(p.user)
    if not await p.env.can_dm(person):
        return Reply(None, url=links.private(p.env.presenter.username))
    rules, view = deal.hand.rules, deal.view()
    p.env.presenter.photo(
        p.user.id, lambda lang: render_difference(
            view, row.id, diff.deal + 1, diff.seq + 1, (his.player.name, diff.his),
            (best.player.name, diff.best), screens.seat_names(rules, lang), lang),
        lambda lang: screens.diff_caption(row, his, best, diff, lang), lang=p.lang)
    return Reply(t(p.lang, "challenge_diff_sent", name=his.player.name))
