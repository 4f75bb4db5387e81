"""/notify: a private note when a table opens in a group, or its lobby lacks one player
(which lobbies: :func:`bot.table.notify.wants_players`).

Who asked is kept per group in the store (``notify``), and who was told of which table
(``notified``), so that each subscriber hears of a table at most once, over restarts too.
Only users who started the bot privately are written to (Telegram refuses the others); one
seated at a table already is not told of another. The note carries the table's join deep
link, which seats him there (``Handlers.start``).
"""

from __future__ import annotations

import asyncio
import logging

from telegram.error import TelegramError

from bot.i18n import isolate, rule_set_name, t
from bot.present.presenter import Presenter
from bot.store import Store, StoreUnavailable
from bot.table import Table, TableService
from bot.table.notify import wants_players

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, store: Store, presenter: Presenter, service: TableService) -> None:
        self.store = store
        self.presenter = presenter
        self.service = service
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, table: Table) -> None:
        """Told of every committed change (it must not block): a lobby that wants players
        has its subscribers told, in a task of its own."""
        if not wants_players(table):
            return
        task = asyncio.get_running_loop().create_task(self._tell(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait until every note decided so far is queued (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def _tell(self, table: Table) -> None:
        try:
            for user_id in await self.store.subscribers(table.chat_id):
                if self.service.table_of_user(user_id) is not None:
                    continue  # seated here or elsewhere: he cannot take this seat
                user = await self.store.user(user_id)
                if user is None or not user.dm_ok:
                    continue
                if await self.store.mark_notified(table.id, user_id):
                    await self._send(table, user_id, user.lang)
        except StoreUnavailable as e:  # said once by the store (bot.store.health)
            log.info("could not notify the subscribers of table %s: %s", table.id, e)
        except Exception:  # a note is a courtesy: never let it disturb the table
            log.exception("could not notify the subscribers of table %s", table.id)

    async def _send(self, table: Table, user_id: int, lang: str | None) -> None:
        title = await self._title(table.chat_id)
        seated, seats = len(table.players), table.rules.players
        key = "notify_one_short" if seats - seated == 1 else "notify_opened"
        link = self.presenter.deep_link(table.id)
        self.presenter.link_note(
            user_id,
            lambda lang: t(lang, key, chat=title, rules=rule_set_name(table.rules.id, lang),
                           seated=seated, seats=seats),
            lambda lang: [(t(lang, "btn_notify_join"), link)], lang=lang)

    async def _title(self, chat_id: int) -> str:
        try:
            chat = await self.presenter.bot.get_chat(chat_id)
        except TelegramError:
            return str(chat_id)
        return isolate(chat.title) if chat.title else str(chat_id)
