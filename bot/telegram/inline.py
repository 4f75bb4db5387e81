"""Share cards (inline mode): ``@the_bot`` typed in any chat offers the user's /me card, his
last 总结算, a replay of the last hand he sat at, and the open challenges of his groups he
has not played. Each is a text message with a button whose deep link
(``t.me/<bot>?start=…``) opens that thing in the bot's private chat of whoever presses it:
``p<user>_<seal>`` the sharer's /me card (``bot.links.card``), ``r<hand>`` the replay,
``x<challenge>`` joins the challenge (``bot.telegram.chat.start``).
Inline mode is turned on at @BotFather (/setinline)."""

from __future__ import annotations

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)

from bot import links
from bot.commands import stats
from bot.i18n import t
from bot.present import fairness
from bot.present.screens import challenge as challenge_screens
from bot.present.screens.match import summary_caption, summary_of
from bot.present.screens.words import hand_outcome_lines
from bot.telegram.env import Context, Env

CHALLENGES = 3  # open challenges offered at most


def _card(key: str, title: str, text: str, link: str, button: str) -> InlineQueryResultArticle:
    """A share card: ``text`` with a button to ``link``."""
    return InlineQueryResultArticle(
        key, title, InputTextMessageContent(text), description=text.splitlines()[0],
        reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(button, url=link)]]))


async def inline(env: Env, update: Update, context: Context) -> None:
    """The user's cards, answered to him alone (``is_personal``) and not cached: they change
    with every hand he plays."""
    query = update.inline_query
    if query is None:
        return
    user, lang = query.from_user, env.lang(query.from_user)
    person = await env.person(user)
    mine = await stats.me_data(env.reads, user.id, person.name, None)
    bot = env.presenter.username
    results = [_card(links.ME, t(lang, "share_me"), stats.me_text(mine, lang),
                     links.card(bot, user.id, context.bot.token), t(lang, "share_open_me"))]
    match_id = await env.reads.last_summary_match(user.id)
    row = None if match_id is None else await env.reads.match(match_id)
    if row is not None:
        played = await env.reads.match_played(row.id)
        if played:
            text = summary_caption(summary_of(row, played), row, lang)
            results.append(_card(f"match{row.id}", t(lang, "share_match"), text,
                                 links.start(bot, links.REPLAY, played[-1].id),
                                 t(lang, "share_open_replay")))
    hand_id = await env.reads.last_played_id(user.id)
    found = None if hand_id is None else await env.reads.played_hand(hand_id)
    if found is not None:
        hand = found[1]
        lines = [t(lang, "share_hand_head", table=hand.table_number, hand=hand.table_no,
                   id=hand.id, fp=fairness.fingerprint(hand.seed)),
                 *hand_outcome_lines(fairness.replay(hand), hand.names, lang)]
        results.append(_card(f"hand{hand.id}", t(lang, "share_hand"), "\n".join(lines),
                             links.start(bot, links.REPLAY, hand.id),
                             t(lang, "share_open_replay")))
    service = env.challenges
    for open_row in await env.reads.user_challenges(user.id, CHALLENGES * 2):
        players = await env.reads.challenge_players(open_row.id)
        if service is None or any(p.user_id == user.id for p in players):
            continue
        text = challenge_screens.card_text(open_row, await service.standings(open_row), lang,
                                           await env.reads.chat_timezone(open_row.chat_id))
        results.append(_card(f"challenge{open_row.id}", t(lang, "share_challenge"),
                             text, links.start(bot, links.CHALLENGE, open_row.id),
                             t(lang, "btn_challenge_join")))
        if len(results) >= 3 + CHALLENGES:
            break
    await query.answer(results, cache_time=0, is_personal=True)
