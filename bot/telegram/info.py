"""/rules, /calc, /rank, /me, /history and /export: answers computed by :mod:`bot.commands`
(and ``bot.present.fairness``), sent in the chat and forum topic they were asked in."""

from __future__ import annotations

from functools import partial

from telegram import Chat, Update

from bot.commands import calc as calculator
from bot.commands import rulebook, skill, stats
from bot.i18n import t
from bot.present import fairness
from bot.store import board_of
from bot.store.boards import board_rule_set
from bot.table import ChallengeStatus
from bot.telegram.env import Context, Env, topic_of


async def rules(env: Env, update: Update, context: Context) -> None:
    """/rules [rule set [seats [option]]]: the rules of the chat's table (or those named)
    in a few lines, as the caption of the rule set's full page."""
    chat = update.effective_chat
    if chat is None:
        return
    asked = rulebook.asked_rules(context.args or [], env.chat_rules(chat, update))
    if asked is None:
        env.answer(update, rulebook.usage)
        return
    found = rulebook.page(asked.id)
    if found is None:
        env.answer(update, lambda lang: "\n".join(
            (rulebook.summary(asked, lang), t(lang, "rules_no_page"))))
        return
    name, data = found
    env.presenter.document(chat.id, name, data, lambda lang: "\n".join(
        (rulebook.summary(asked, lang), t(lang, "rules_page"))),
        lang=env.chat_lang(update), thread_id=topic_of(update))


async def calc(env: Env, update: Update, context: Context) -> None:
    """/calc [rule set] cards [melds] [+ card] [自摸], in any chat."""
    msg = update.effective_message
    if msg is None or not msg.text:
        return
    parts = msg.text.split(maxsplit=1)
    text = parts[1] if len(parts) > 1 else ""
    env.answer(update, lambda lang: calculator.reply(text, lang))


async def rank(env: Env, update: Update, context: Context) -> None:
    """/rank [rule set] [all] [技术]: the top players of one rule set (the chat's table's by
    default) in this group, or with ``all`` (and in private) in every group; with 技术 by
    their skill rating (:mod:`bot.commands.skill`)."""
    chat = update.effective_chat
    if chat is None:
        return
    asked_skill, args = skill.skill_asked(context.args or [])
    query = stats.rank_query(args, chat.type == Chat.PRIVATE,
                             board_of(env.chat_rules(chat, update).key))
    if query is None:
        env.answer(update, stats.rank_usage)
        return
    if asked_skill:
        await _skill_rank(env, update, chat.id, query)
        return
    rows = await env.reads.ranking(None if query.everyone else chat.id, stats.READ,
                                   rule_set=query.rule_set)
    if not rows:
        env.answer(update, lambda lang: stats.rank_text(rows, lang, query))
        return
    board = await stats.board_rows(env.reads, rows, query, chat.id)
    env.picture(update, partial(stats.draw_board, board, query),
                lambda lang: stats.rank_text(rows, lang, query))


async def me(env: Env, update: Update, context: Context) -> None:
    """/me: one's points, 等级, hands, wins and best hand (and this group's share), as
    the caption of the player card of one rule set (see :func:`bot.commands.stats.card_part`)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    person = await env.person(user)
    await _card(env, update, chat, user.id, person.name)


async def shared_card(env: Env, update: Update, user_id: int) -> None:
    """Player ``user_id``'s /me card, privately, to whoever opened his share card's link
    (``bot.links.card``): the same card and words his /me in a private chat gives."""
    chat = update.effective_chat
    if chat is None:
        return
    found = await env.reads.user(user_id)
    if found is None:
        env.answer(update, lambda lang: t(lang, "link_unknown"))
        return
    await _card(env, update, chat, user_id, found.name)


async def _card(env: Env, update: Update, chat: Chat, user_id: int, name: str) -> None:
    """The player card of ``user_id`` (``name``) in ``chat``, captioned with his /me text; in
    a group its share too, and the card of the rule set of the group's table."""
    here = None if chat.type == Chat.PRIVATE else chat.id
    mine = await stats.me_data(env.reads, user_id, name, here)
    table = None if here is None else env.service.in_chat(chat.id, topic_of(update))
    part = stats.card_part(mine, None if table is None else board_of(table.rules.key))
    played = await env.reads.user_hands(user_id, part.rule_set, stats.CARD_HANDS)
    ratings = await skill.me_skills(env.reads, user_id,
                                    list(dict.fromkeys(board_rule_set(p.rule_set)
                                                       for p in mine.parts)))
    env.picture(update, partial(skill.draw_card, name, user_id, part, played,
                                ratings[board_rule_set(part.rule_set)]),
                lambda lang: "\n".join((stats.me_text(mine, lang), *(
                    skill.me_skill_line(r, rating, lang) for r, rating in ratings.items()))))


async def _skill_rank(env: Env, update: Update, chat_id: int, query: stats.RankQuery) -> None:
    """/rank 技术: the skill ratings' board of the query's rule set (its house rules
    aside: a rating is of how one plays the rule set), as a picture with its text."""
    rule_set = board_rule_set(query.rule_set)
    rows = await env.reads.skill_board(None if query.everyone else chat_id, rule_set,
                                       skill.READ)
    text = partial(skill.rank_text, rows, rule_set, query.everyone)
    if not rows:
        env.answer(update, text)
        return
    env.picture(update, partial(skill.draw_rank, rows, rule_set, query.everyone), text)


async def history(env: Env, update: Update, context: Context) -> None:
    """/history: the group's last finished hands."""
    chat = env.group_chat(update)
    if chat is None:
        return
    items = await stats.history_data(env.reads, chat.id)
    env.answer(update, lambda lang: stats.history_text(items, lang))


async def export(env: Env, update: Update, context: Context) -> None:
    """/export: the group's last finished hand as a verifiable JSON document; /export 挑战 N
    the group's ended 复式挑战 #N (every player's deals)."""
    chat = env.group_chat(update)
    if chat is None:
        return
    if context.args:
        await _export_challenge(env, update, chat, context.args)
        return
    last = await env.reads.finished_hands(chat.id, 1)
    if not last:
        env.answer_key(update, "export_none")
        return
    played = last[0]
    name, data, sha = fairness.export_file(played)
    env.presenter.document(chat.id, name, data, lambda lang: t(
        lang, "export_caption", no=played.no, seed=played.seed, sha=sha, file=name),
        thread_id=topic_of(update))


CHALLENGE_WORDS = frozenset({"挑战", "challenge"})


async def _export_challenge(env: Env, update: Update, chat: Chat, args: list[str]) -> None:
    """/export 挑战 N: refused (nothing sent) for anything but an ended challenge of this
    group; an open one's seeds are its deals."""
    number = args[1] if len(args) == 2 and args[0].lower() in CHALLENGE_WORDS else ""
    if not (number.isascii() and number.isdigit() and 0 < int(number) < 2**31):
        env.answer_key(update, "export_usage")
        return
    row = await env.reads.challenge(int(number))
    if row is None or row.chat_id != chat.id or env.challenges is None:
        env.answer(update, lambda lang: t(lang, "export_challenge_none", id=number))
        return
    if row.status == ChallengeStatus.OPEN:
        env.answer(update, lambda lang: t(lang, "export_challenge_open", id=row.id))
        return
    table = await env.challenges.standings(row)
    runs = {s.player.user_id: await env.challenges.run(row, s.player.user_id) for s in table}
    name, data, sha = fairness.challenge_file(row, table, runs)
    env.presenter.document(chat.id, name, data, lambda lang: t(
        lang, "export_challenge_caption", id=row.id, players=len(table), hands=len(row.seeds),
        seeds=",".join(map(str, row.seeds)), sha=sha, file=name), thread_id=topic_of(update))
