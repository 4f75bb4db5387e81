"""Button presses in flight survive a kill: each press is kept in the store from the poll
that brought it until it is answered, and a start handles those a killed run left.

Why: PTB's polling tells Telegram that updates arrived (the next getUpdates' offset) as soon
as it has queued them, long before they are handled; a press being handled when the
process is killed (kill -9, a crash, the machine gone) was then never answered, and its
move never made. Now:

- the getUpdates client (:class:`JournalingPolls`) keeps every press of an answer in the
  store (``pending_presses``) before handing the answer on, so before the next poll
  acknowledges it: killed before that, Telegram still has it and sends it again; killed
  after, the store has it;
- once a press's handling is over (answered, or refused, or failed and told so) the
  processor (:class:`JournalingProcessor`) forgets it;
- a start (:meth:`PressJournal.replay`) queues the presses left before polling begins,
  each once: the same press sent again by Telegram (killed between keeping it and the next
  poll) is dropped.

A press killed after its move was made but before its answer is handled again: the move is
refused as outdated (its keyboard's version has passed) and that is its answer, so nothing
is made twice. With a webhook (WEBHOOK_URL) presses are not kept: Telegram does not send
again what PTB's server accepted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable
from inspect import iscoroutine
from typing import Any

from telegram import Bot, Update
from telegram.request import BaseRequest, RequestData

from bot.store.presses import PressStore
from bot.telegram.ordering import OrderedPerSender
from bot.telegram.request import AiohttpRequest

log = logging.getLogger(__name__)


class PressJournal:
    """The presses in flight of one bot, kept in its store (set by :meth:`open` once the
    store is open; until then nothing is kept)."""

    def __init__(self) -> None:
        self._store: PressStore | None = None
        self._bot_id = 0
        self._replayed: dict[int, Update] = {}  # update id -> the replay of this start

    def open(self, store: PressStore, bot_id: int) -> None:
        self._store, self._bot_id = store, bot_id

    async def keep(self, updates: list[dict[str, Any]]) -> None:
        """Keep the presses among ``updates`` (getUpdates' result) until answered. A store
        that fails is logged: the presses are handled all the same, only not kept."""
        presses = [(u["update_id"], json.dumps(u, ensure_ascii=False)) for u in updates
                   if "callback_query" in u and u["update_id"] not in self._replayed]
        if not presses or self._store is None:
            return
        try:
            await self._store.keep_presses(self._bot_id, presses)
        except Exception as e:  # the store's outage is said by the store (bot.store.health)
            log.warning("%d presses not kept until answered: %r", len(presses), e)

    async def replay(self, bot: Bot, queue: asyncio.Queue[object]) -> int:
        """Queue (``Application.update_queue``) every press a killed run left unanswered;
        how many."""
        assert self._store is not None
        for update_id, body in await self._store.pending_presses(self._bot_id):
            update = Update.de_json(json.loads(body), bot)
            self._replayed[update_id] = update
            await queue.put(update)
        if self._replayed:
            log.info("answering %d presses left unanswered by the last run",
                     len(self._replayed))
        return len(self._replayed)

    def again(self, update: object) -> bool:
        """Whether ``update`` is a press this start replays, sent again by Telegram."""
        return isinstance(update, Update) and \
            self._replayed.get(update.update_id, update) is not update

    async def answered(self, update: object) -> None:
        """A press's handling is over: forget it."""
        if self._store is None or not isinstance(update, Update) \
                or update.callback_query is None:
            return
        try:
            await self._store.forget_press(self._bot_id, update.update_id)
        except Exception as e:  # kept: the next start handles it again, as outdated
            log.warning("press %d not forgotten: %r", update.update_id, e)


class JournalingPolls(AiohttpRequest):
    """The getUpdates client: the presses of each answer are kept (:meth:`PressJournal.keep`)
    before PTB reads the answer, so before its next poll acknowledges them."""

    def __init__(self, journal: PressJournal, connections: int = 1) -> None:
        super().__init__(connections)
        self._journal = journal

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        status, body = await super().do_request(url, method, request_data, read_timeout,
                                                write_timeout, connect_timeout, pool_timeout)
        if status == 200 and url.endswith("/getUpdates") and b'"callback_query"' in body:
            with contextlib.suppress(ValueError, TypeError, KeyError):  # PTB says what is wrong
                answer = json.loads(body)
                if isinstance(answer.get("result"), list):
                    await self._journal.keep(answer["result"])
        return status, body


class JournalingProcessor(OrderedPerSender):
    """:class:`OrderedPerSender` that forgets each press once handled, and drops a press
    that this start replays from the store when Telegram sends it again."""

    def __init__(self, journal: PressJournal, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._journal = journal

    async def do_process_update(self, update: object, coroutine: Awaitable[object]) -> None:
        if self._journal.again(update):
            if iscoroutine(coroutine):
                coroutine.close()  # never to run
            return
        await super().do_process_update(update, coroutine)
        await self._journal.answered(update)  # not when cancelled: a stop keeps it
