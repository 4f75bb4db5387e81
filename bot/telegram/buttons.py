"""Every inline button press: parsed by :func:`bot.callbacks.parse`, dispatched to the
handler bound to its kind (:data:`bot.telegram.press.ROUTES`), answered once — whatever
fails: a press whose handler raised (the database locked past its busy timeout by a backup
or an ``sqlite3`` shell, a full disk) is told that it did not count and to press again. What
it changed was rolled back with its transaction (:mod:`bot.table.work`), so pressing again
once the database is back is the whole recovery."""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.error import TelegramError

from bot import callbacks as cb
from bot.i18n import t
from bot.store import StoreUnavailable
from bot.table import Refusal
from bot.telegram import (
    challenge,
    confirm,
    cup,
    lobby_buttons,
    replay,
    review,
    seat,
    verify,
    votes,
)
from bot.telegram.env import Context, Env, refusal_text
from bot.telegram.press import ROUTES, Pressed

log = logging.getLogger(__name__)

HANDLER_MODULES = (seat, lobby_buttons, confirm, votes, replay, review, verify, challenge, cup)  # the handlers' modules
_unbound = set(cb.KINDS.values()) - set(ROUTES)
assert not _unbound, f"button kinds without a handler: {sorted(k.__name__ for k in _unbound)}"


async def button(env: Env, update: Update, context: Context) -> None:
    """The query is answered once, after the service has ruled, so that a refusal is its
    toast; malformed or foreign data is refused as outdated."""
    query, user = update.callback_query, update.effective_user
    if query is None or user is None:
        return
    lang = env.lang(user)
    press = cb.parse(query.data)
    if press is None:
        await query.answer(t(lang, "stale"))
        return
    route = ROUTES[type(press)]
    try:
        if route.live is not None:  # of this very lobby or settlement, or outdated
            assert isinstance(press, cb.Marked)  # bot.telegram.press.on: only those are live
            env.service.check_live(press.table, route.live, press.mark)
        reply = await route.handler(Pressed(env, query, press, user, lang, context))
    except Refusal as r:
        await query.answer(refusal_text(r, lang), show_alert=False)
        return
    except StoreUnavailable:  # said once by the store (bot.store.health), not per press
        with contextlib.suppress(TelegramError):
            await query.answer(t(lang, "store_unavailable"))
        return
    except Exception:
        log.exception("the press %r of user %s failed", query.data, user.id)
        with contextlib.suppress(TelegramError):  # e.g. the handler had answered it
            await query.answer(t(lang, "press_failed"))
        return
    if reply is None:  # the handler answered
        return
    if reply.url is not None:
        await query.answer(t(lang, "need_dm_toast"), url=reply.url)
    else:
        await query.answer(reply.text, show_alert=reply.alert)
