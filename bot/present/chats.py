"""The chats the presenter writes to: one paced :class:`~bot.present.outbox.Outbox` each,
jobs held back for later, the bot-wide :class:`~bot.present.gate.Gate`, the painter
(:mod:`bot.present.painter`), a basic group's move to its supergroup, each group's
language, and which private chats refused the bot lately."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from bot.present.errors import quiet_rate_limiter
from bot.present.gate import Gate
from bot.present.outbox import Job, Outbox
from bot.present.pacing import Pacing, Rank, Send, goes_first, group_rank, group_wait
from bot.present.painter import Painter
from bot.store import Store

Migrate = Callable[[int, int], Awaitable[None]]  # (old chat id, new chat id)


@dataclass
class _Held:
    """A job to be queued later (see :meth:`Chats.put_after`)."""

    task: asyncio.Task[None]
    job: Job
    due: float  # loop time
    send: Send


class Chats:
    def __init__(self, store: Store, pacing: Pacing, default_lang: str,
                 on_migrated: Migrate, sent_at: Mapping[int, float] | None = None,
                 painter: Painter | None = None) -> None:
        self.store = store
        self.pacing = pacing
        self.default_lang = default_lang
        self.gate = Gate(pacing.send_interval)
        self.flushing = False  # idle(): nothing is held back
        self._on_migrated = on_migrated
        self._sent_at = sent_at if sent_at is not None else {}  # by chat (Courier.sent_at)
        self._outboxes: dict[Hashable, Outbox] = {}  # by chat; ("tidy", chat) for deletions
        self._held: dict[tuple[int, Hashable], _Held] = {}
        self._moved: dict[int, int] = {}  # basic group id -> its supergroup's id
        self._group_lang: dict[int, str] = {}
        self._unreached: set[int] = set()  # private chats that refused the bot (403) lately
        self._closed = False  # shut down: every outbox, even one made later, is stopped
        self.painter = painter if painter is not None else Painter()
        quiet_rate_limiter()  # a 429 is the outboxes' to answer, and to log

    def outbox(self, chat_id: Hashable) -> Outbox:
        box = self._outboxes.get(chat_id)
        if box is None:
            if isinstance(chat_id, int) and chat_id < 0:
                box = Outbox(0.0, max_notes=self.pacing.group_notes,
                             on_migrated=lambda new: self._on_migrated(chat_id, new),
                             wait=partial(self._group_wait, self.pacing))
            elif isinstance(chat_id, int):
                box = Outbox(self.pacing.dm_interval, burst=self.pacing.dm_burst,
                             on_refused=partial(self.reached, chat_id, False),
                             sent_at=partial(self._sent_at.get, chat_id))
            else:
                box = Outbox(0.0)
            if self._closed:
                box.close()
            self._outboxes[chat_id] = box
        return box

    @staticmethod
    def _group_wait(pacing: Pacing, now: float, sent: Sequence[float], rank: Rank,
                    due: float) -> float:
        return group_wait(pacing, now=now, sent=sent, rank=rank, due=due)

    def reached(self, user_id: int, ok: bool) -> None:
        """A private chat took a message of the bot's (``ok``) or refused one (403)."""
        (self._unreached.discard if ok else self._unreached.add)(user_id)

    def all_reached(self, user_ids: Iterable[int]) -> bool:
        """Whether every human among ``user_ids`` takes the bot's private messages, as far as
        this run knows (a seated player passed the private check when he sat down)."""
        return not any(u in self._unreached for u in user_ids if u > 0)

    def put(self, chat_id: Hashable, key: Hashable, job: Job, send: Send = Send.ANSWER,
            spare: bool = False) -> bool:
        """Queue ``job`` in the chat's outbox: in a group with its kind's rank
        (:func:`~bot.present.pacing.group_rank`), in a private chat ahead of what lags if its
        kind goes first; ``spare``: it may spend a private chat's burst (new buttons,
        ``Pacing.dm_burst``)."""
        group = isinstance(chat_id, int) and chat_id < 0
        return self.outbox(chat_id).put(key, job, first=goes_first(self.pacing, send),
                                        spare=spare,
                                        rank=group_rank(self.pacing, send) if group else None)

    def put_after(self, delay: float, chat_id: int, key: Hashable, job: Job,
                  send: Send = Send.ANSWER) -> None:
        """Queue ``job`` in ``delay`` seconds, or sooner if the key is already held for
        sooner (one held job per key: it reads the state when it runs)."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        held = self._held.get((chat_id, key))
        if held is not None:
            if held.due <= due:
                return
            held.task.cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            del self._held[chat_id, key]
            self.put(chat_id, key, job, send)
        self._held[chat_id, key] = _Held(loop.create_task(later()), job, due, send)

    async def idle(self, patience: float = 5.0) -> None:
        """Send what is held back now, then wait until nothing is queued (tests). A job that
        holds itself back again is waiting for its table's change to end: it is tried again
        every few hundredths of a second, for ``patience`` seconds at most (a change waiting
        for a database lock may outlast any test), then left held, as it would be without
        ``idle``."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + patience
        self.flushing = True
        try:
            while True:
                for (chat_id, key), held in list(self._held.items()):
                    del self._held[chat_id, key]
                    held.task.cancel()
                    self.put(chat_id, key, held.job, held.send)
                await asyncio.gather(*(b.drain() for b in self._outboxes.values() if b.busy))
                if any(b.busy for b in self._outboxes.values()):
                    continue
                if not self._held or loop.time() >= give_up:
                    return
                await asyncio.sleep(0.02)
        finally:
            self.flushing = False

    async def render(self, draw: Callable[..., bytes], *args: object) -> bytes:
        return await self.painter.paint(draw, *args)

    async def render_play(self, draw: Callable[..., bytes], *args: object) -> bytes:
        """A picture of play (a seat's hand, the group's table): :meth:`Painter.paint_play`."""
        return await self.painter.paint_play(draw, *args)

    def now(self, chat_id: int) -> int:
        """The chat's id now: a basic group's supergroup id once it was upgraded."""
        return self._moved.get(chat_id, chat_id)

    def moved(self, old: int, new: int) -> None:
        """The group ``old`` is the supergroup ``new`` now: what is queued for the old id
        goes to the new one through the same outbox (one pace, one order)."""
        self._moved[old] = new
        box = self._outboxes.get(old)
        if box is not None:
            self._outboxes.setdefault(new, box)
        for chat_id in (old, new):
            self._group_lang.pop(chat_id, None)

    async def group_lang(self, chat_id: int) -> str:
        lang = self._group_lang.get(chat_id)
        if lang is None:
            lang = await self.store.chat_lang(chat_id) or self.default_lang
            self._group_lang[chat_id] = lang
        return lang

    def set_group_lang(self, chat_id: int, lang: str) -> None:
        self._group_lang[chat_id] = lang

    async def lang_of(self, chat_id: int, lang: str | None) -> str:
        """``lang`` if given, else the group's language, or the bot's default in private."""
        if lang is not None:
            return lang
        return await self.group_lang(chat_id) if chat_id < 0 else self.default_lang

    async def shutdown(self) -> None:
        """Deliver nothing more: the jobs under way are cancelled and waited for, so that
        none reads the store once it is closed, and none is queued from now on; then the
        painter stops."""
        self._closed = True
        self.gate.cancel()
        later = [held.task for held in self._held.values()]
        for task in later:
            task.cancel()
        await asyncio.gather(*later, *(box.stop() for box in self._outboxes.values()),
                             return_exceptions=True)
        self.painter.shutdown()
