"""Questions about a running hand and their answers: 逃跑 (asked privately on /leave) and
/stop (asked in the group when it would void the hand). The buttons carry the hand's id
(``e``/``s`` confirm, ``k`` cancels either): an answer to a hand no longer running is
outdated. The answer comes first, then the question loses its buttons (a cancelled one its
words too: it says 已取消)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram.error import TelegramError

from bot import callbacks as cb
from bot.i18n import t
from bot.telegram.env import Env
from bot.telegram.press import Pressed, on

log = logging.getLogger(__name__)


def confirm_buttons(kind: type[cb.AboutHand], table_id: int,
                    hand_id: int) -> Callable[[str], list[tuple[str, str]]]:
    return lambda lang: [(t(lang, f"btn_confirm_{kind.letter}"), kind(table_id, hand_id).pack()),
                         (t(lang, "btn_cancel"), cb.KeepPlaying(table_id, hand_id).pack())]


def ask_escape(env: Env, table_id: int, user_id: int, lang: str,
               quote: tuple[int, int]) -> None:
    """Ask in the user's private chat whether to 逃跑 from hand ``quote[0]``, paying at least
    ``quote[1]`` to each other seat (a public figure: ``TableService.escape_quote``)."""
    hand_id, points = quote
    env.presenter.note(user_id, lambda lang: t(lang, "escape_confirm", points=points),
                       lang=lang, buttons_of=confirm_buttons(cb.ConfirmEscape, table_id, hand_id))


async def _admin(p: Pressed[cb.Button]) -> bool:
    """Whether the presser may stop the table: an admin of the group the question is in."""
    chat_id = p.query.message.chat.id if p.query.message is not None else p.user.id
    return chat_id < 0 and await p.env.is_admin(p.context, chat_id, p.user.id)


async def _drop_buttons(p: Pressed[cb.Button]) -> None:
    try:
        await p.query.edit_message_reply_markup(None)
    except TelegramError as e:  # e.g. already without buttons: nothing to do
        log.info("could not remove the buttons of a question: %s", e)


@on(cb.ConfirmEscape)
async def escape(p: Pressed[cb.ConfirmEscape]) -> None:
    """确认逃跑."""
    await p.env.service.leave(p.press.table, p.user.id, p.press.hand)
    await p.query.answer(t(p.lang, "escaped"))
    await _drop_buttons(p)


@on(cb.ConfirmStop)
async def stop(p: Pressed[cb.ConfirmStop]) -> None:
    """确认结束: /stop voids the running hand; its private chats are told who stopped it."""
    table = await p.env.service.stop(p.press.table, p.user.id, await _admin(p),
                                     p.press.hand)
    assert table.current is not None  # the hand it voided (a stale press was refused)
    p.env.presenter.voided(table, table.current, (await p.env.person(p.user)).name)
    await p.query.answer(t(p.lang, "ok"))
    await _drop_buttons(p)


async def _cancel_question(p: Pressed[cb.Button]) -> None:
    """The question's message says 已取消 (in the group's language there), without buttons."""
    message = p.query.message
    chat_id = message.chat.id if message is not None else 0
    lang = await p.env.presenter.group_lang(chat_id) if chat_id < 0 else p.lang
    try:
        await p.query.edit_message_text(t(lang, "question_cancelled"), reply_markup=None)
    except TelegramError as e:  # e.g. already cancelled: nothing to do
        log.info("could not mark a question cancelled: %s", e)


@on(cb.KeepPlaying)
async def keep(p: Pressed[cb.KeepPlaying]) -> None:
    """取消: in the group only who may stop the table may say no."""
    if p.query.message is not None and p.query.message.chat.id < 0:
        p.env.service.stop_quote(p.press.table, p.user.id, await _admin(p))
    await p.query.answer(t(p.lang, "kept"))
    await _cancel_question(p)
