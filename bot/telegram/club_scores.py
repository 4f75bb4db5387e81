"""/season, /stats, /void and /dispute in a group (:mod:`bot.commands.club`,
:mod:`bot.commands.fairplay`): answered in the topic they were sent in, each a read or one
short transaction, so they answer at once while hands are played; every refusal is a short
reason and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from telegram import Chat, Update, User

from bot.commands import club, fairplay, hands, skill
from bot.i18n import t
from bot.present import fairness
from bot.present.reviews import record_of
from bot.store import PlayedHand, Season, board_of
from bot.telegram.env import Context, Env, topic_of
from engine.review import review_hand

Q = TypeVar("Q")


def _asked(env: Env, update: Update, context: Context,
           parse: Callable[[Sequence[str], str], Q | None],
           usage: Callable[[str], str]) -> tuple[Chat, User, Q] | None:
    """The group, the sender and the command's arguments read with ``parse`` (given the
    group's table's rule set); None, the usage said, when they do not read."""
    chat, user = env.group_chat(update), update.effective_user
    if chat is None or user is None:
        return None
    query = parse(context.args or [], board_of(env.chat_rules(chat, update).key))
    if query is None:
        env.answer(update, usage)
        return None
    return chat, user, query


def _usage(key: str, lang: str) -> str:
    return t(lang, key)


async def _finished(env: Env, update: Update, chat: Chat, no: int) -> PlayedHand | None:
    """The group's finished hand #``no``; None, the reason said, when it has none such."""
    hand = await hands.numbered_hand(env.reads, chat.id, no, "club")
    if isinstance(hand, str):
        _refuse(env, update, hand, no=no)
        return None
    return hand


def _refuse(env: Env, update: Update, key: str, **fields: object) -> None:
    env.answer(update, lambda lang: t(lang, key, **fields))


async def season(env: Env, update: Update, context: Context) -> None:
    """/season [N] [rule set] [技术]: a season's standings (the current one by default), with
    技术 its 技术分 (:mod:`bot.commands.skill`); /season new [name]: an admin closes the
    current season and starts the next."""
    asked = _asked(env, update, context, _season_words, club.season_usage)
    if asked is None:
        return
    chat, user, query = asked
    if not query.new and skill.skill_asked(context.args or [])[0]:
        season = await env.reads.season(chat.id, query.no)
        if season is None:
            _refuse(env, update, "season_unknown", no=query.no)
            return
        rows = await skill.season_tech(env.reads, chat.id, season, query.rule_set)
        label = partial(_label, season)
        env.picture(update, lambda lang: skill.draw_tech(label(lang), rows, query.rule_set,
                                                          lang),
                    lambda lang: skill.tech_text(label(lang), rows, query.rule_set, lang))
        return
    if query.new:
        if not await env.is_admin(context, chat.id, user.id):
            _refuse(env, update, "club_only_admin")
            return
        closed = await env.settings.close_season(chat.id, user.id, query.name)
        if closed is None:
            _refuse(env, update, "season_nothing")
            return
        await _season_picture(env, update, chat, closed, query.rule_set, True, query.name)
        return
    shown = await env.reads.season(chat.id, query.no)
    if shown is None:
        _refuse(env, update, "season_unknown", no=query.no)
        return
    await _season_picture(env, update, chat, shown, query.rule_set)


def _season_words(args: Sequence[str], table_rule_set: str) -> club.SeasonQuery | None:
    """/season's words, 技术 aside (a new season's name keeps every word)."""
    if not (args and args[0].lower() in club.NEW_WORDS):
        args = skill.skill_asked(args)[1]
    return club.season_query(args, table_rule_set)


def _label(season: Season, lang: str) -> str:
    return club.season_label(season, lang)


async def _season_picture(env: Env, update: Update, chat: Chat, season: Season, rule_set: str,
                          closing: bool = False, next_name: str | None = None) -> None:
    """The season's board; for a season just closed (``closing``), its caption says so first
    and names the next."""
    rows, board = await club.season_board(env.reads, chat.id, season, rule_set)
    caption = (partial(club.closed_text, season, next_name, rows, rule_set) if closing
               else partial(club.season_text, season, rows, rule_set))
    env.picture(update, partial(club.draw_season, board, season, rule_set), caption)


async def stats(env: Env, update: Update, context: Context) -> None:
    """/stats [today|week|season] [rule set]: every member's figures over the span."""
    asked = _asked(env, update, context, club.stats_query, club.stats_usage)
    if asked is None:
        return
    chat, _, query = asked
    span, season = await club.stats_span(env.reads, chat.id, query.period)
    rows = await env.reads.club_stats(chat.id, span, query.rule_set)
    env.picture(update, partial(club.draw_stats, rows, query, season),
                partial(club.stats_text, rows, query, season))


async def void(env: Env, update: Update, context: Context) -> None:
    """/void N 理由: an admin voids the group's finished hand #N as a whole, once."""
    asked = _asked(env, update, context, lambda args, _: fairplay.void_query(args),
                   partial(_usage, "void_usage"))
    if asked is None:
        return
    chat, user, query = asked
    if not await env.is_admin(context, chat.id, user.id):
        _refuse(env, update, "club_only_admin")
        return
    hand = await _finished(env, update, chat, query.no)
    if hand is None:
        return
    done = await env.settings.void_hand(hand.id, user.id, query.reason)
    if done is None:
        _refuse(env, update, "void_already", no=query.no)
        return
    person = await env.person(user)
    env.answer(update, partial(fairplay.void_text, hand, person.name, query.reason))
    if env.rater is not None:  # its match's places may change: the ratings are folded again
        env.rater.nudge()


async def dispute(env: Env, update: Update, context: Context) -> None:
    """/dispute N: a player of the group's finished hand #N posts its fairness check at once,
    then every seat's 复盘 summary once computed (off the event loop: up to a second a seat)."""
    asked = _asked(env, update, context, lambda args, _: fairplay.hand_number(args),
                   partial(_usage, "dispute_usage"))
    if asked is None:
        return
    chat, user, no = asked
    hand = await _finished(env, update, chat, no)
    if hand is None:
        return
    if user.id not in hand.users:
        _refuse(env, update, "dispute_not_seated", no=no)
        return
    birds = await env.reads.hand_birds(hand.id)
    checked = fairness.check(hand, birds)
    person = await env.person(user)
    env.answer(update, partial(fairplay.dispute_text, hand, checked, person.name))
    thread = topic_of(update)

    async def reviews() -> int:
        review = await asyncio.to_thread(review_hand, record_of(hand))
        env.presenter.note(chat.id, partial(fairplay.reviews_text, hand, review),
                           thread_id=thread)
        return 0  # the note is paced in its own turn
    env.presenter.chats.put(("dispute", chat.id), hand.id, reviews)
