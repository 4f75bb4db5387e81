"""The posting room: what the presenter posted where, and the one call that shows a screen in
its message (:meth:`Posts.show`: edited in place, sent when there is none).

A table's messages (:class:`Post`) are its lobby, each hand's table picture and settlement in
its group, and each seat's picture of a hand and last ping in his private chat. Their ids are
the presenter's alone: kept here in memory, and in the store
(:class:`~bot.store.posts.PostStore`, all this room knows of it), from which a restart reads
them back for the restored tables (:meth:`Posts.load`).

A message shown is shown whatever the store does: its id is kept in memory at once and
written again every ``STORE_RETRY`` seconds until the store takes it, so that a failed write
never makes the presenter send the message a second time. These writes take no table's
lock and tell nobody: where a table is shown is no change of the table.

A group's post is in the chat it was made in: once the group became a supergroup (another
chat id, :meth:`bot.table.work.Tables.move_chat`) the table has none there, and those to
come are posted afresh in the new chat (the store forgot the old ones in the move).

The messages kept for a cup, a challenge or a vote (:class:`Kept`: its cards, its final
card, a participant's picture of his deal, the vote's message) are named by their slot, the
id of what they show and their chat, so a group's move leaves them behind too. Each is
looked up in the store the first time it is shown in a run (a store that cannot say sends
nothing), and :meth:`Posts.keep` shows it: edited in place, skipped when it shows that
already, or sent. Before a kept message is sent, the store must take its reservation
(``RESERVED``; refused, nothing is sent); its id is then remembered as a table's are, in
memory at once and in the store as soon as it takes it, so no outage of the store makes a
second card. A reservation found after a restart is a message that may have been sent by
the run that stopped before storing its id: a final card (:data:`ONCE`) is then never
posted again, a card is posted afresh.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from weakref import WeakKeyDictionary, WeakValueDictionary

from telegram import InlineKeyboardMarkup, Message
from telegram.error import BadRequest, TimedOut

from bot.present import errors
from bot.present.courier import Courier
from bot.store import StoreUnavailable
from bot.store.posts import KEPT, RESERVED, PostStore, Slot
from bot.table import HandRecord, Table

log = logging.getLogger(__name__)

SETTLEMENT_POSTING = 0  # a settlement's id while its post is under way (Posts.begin_settlement)
STORE_RETRY = 5.0  # seconds before a message id the store refused is written again

_OF_HAND = frozenset({Slot.PICTURE, Slot.SETTLEMENT, Slot.SEAT})  # keyed by the hand's id
_PRIVATE = frozenset({Slot.SEAT, Slot.PING})  # in the seat's private chat
ONCE = frozenset({Slot.CUP_FINAL, Slot.CHALLENGE_FINAL})  # posted at most once, never edited

Before = Callable[[], Awaitable[None]]  # waits for the call's turn (the bot's gate)


@dataclass(frozen=True)
class Post:
    """One of a table's messages: its ``slot``, and the hand and seat it shows."""

    slot: Slot
    table: Table
    record: HandRecord | None = None
    seat: int = 0
    user_id: int = 0

    @classmethod
    def lobby(cls, table: Table) -> Post:
        return cls(Slot.LOBBY, table)

    @classmethod
    def picture(cls, table: Table, record: HandRecord) -> Post:
        """The hand's table picture in the group."""
        return cls(Slot.PICTURE, table, record)

    @classmethod
    def settlement(cls, table: Table, record: HandRecord) -> Post:
        return cls(Slot.SETTLEMENT, table, record)

    @classmethod
    def seat_picture(cls, table: Table, record: HandRecord, seat: int, user_id: int) -> Post:
        """The hand as the user dealt into ``seat`` sees it (his cards, his buttons)."""
        return cls(Slot.SEAT, table, record, seat, user_id)

    @classmethod
    def ping(cls, table: Table, seat: int, user_id: int) -> Post:
        """The seat's last ping (kept over hands: the next one deletes it)."""
        return cls(Slot.PING, table, None, seat, user_id)

    @property
    def chat(self) -> int:
        """The chat it is in: the seat's private chat, or the table's group."""
        return self.user_id if self.slot in _PRIVATE else self.table.chat_id

    @property
    def key(self) -> tuple[Slot, int, int]:
        """What names it among its table's posts."""
        if self.slot in _OF_HAND:
            assert self.record is not None
            return self.slot, self.record.id, self.seat
        return self.slot, self.seat, self.user_id

    @property
    def seated(self) -> bool:
        """Its user still sits at its seat (a seat's post is his only while he does)."""
        player = self.table.players.get(self.seat)
        return player is not None and player.user_id == self.user_id

    @property
    def stored(self) -> tuple[int, ...] | None:
        """The key of its row in the store; None when the store keeps it not: a seat's
        while its user sits there no more, its picture once the hand is not the table's
        latest (the seat's row holds the latest hand's)."""
        table, record = self.table, self.record
        if self.slot in _PRIVATE:
            current = table.current is not None and record is not None \
                and table.current.id == record.id
            if not self.seated or (self.slot == Slot.SEAT and not current):
                return None
            return table.id, self.seat, self.user_id
        if self.slot == Slot.LOBBY:
            return (table.id,)
        assert record is not None
        return (record.id,)


@dataclass(frozen=True)
class Kept:
    """A message kept for a cup, a challenge or a vote: its ``slot`` (one of
    :data:`~bot.store.posts.KEPT`), the id of the cup, challenge or vote (``key``) and the
    chat it is in (the group's id now; a participant's private chat)."""

    slot: Slot
    key: int
    chat: int

    def __post_init__(self) -> None:
        assert self.slot in KEPT

    @property
    def stored(self) -> tuple[int, int]:
        """Its key in the store."""
        return self.key, self.chat


class _TablePosts:
    """One table's posts: (chat, message id) by :attr:`Post.key`, and the hand records
    they were made for, to forget the posts of hands nobody holds any more."""

    def __init__(self) -> None:
        self.ids: dict[tuple[Slot, int, int], tuple[int, int]] = {}
        self.records: WeakValueDictionary[int, HandRecord] = WeakValueDictionary()

    def note(self, post: Post, msg_id: int | None) -> None:
        if msg_id is None:
            self.ids.pop(post.key, None)
            return
        if post.record is not None:
            self.records[post.record.id] = post.record
            if not any(key[0] in _OF_HAND and key[1] == post.record.id for key in self.ids):
                self._forget_old_hands(post.table)
        self.ids[post.key] = (post.chat, msg_id)

    def _forget_old_hands(self, table: Table) -> None:
        """A new hand's first post: those of hands neither current nor held go."""
        current = table.current.id if table.current is not None else None
        for key in [k for k in self.ids if k[0] in _OF_HAND
                    and k[1] != current and k[1] not in self.records]:
            del self.ids[key]


class Posts:
    """What the presenter posted where (see the module's doc)."""

    def __init__(self, store: PostStore) -> None:
        self.store = store
        self._tables: WeakKeyDictionary[Table, _TablePosts] = WeakKeyDictionary()
        self._kept: dict[Kept, int | None] = {}  # looked up this run: id, RESERVED or None
        self._looks: dict[Kept, object] = {}  # what each kept message shows
        # ids shown but not yet stored (the store failed), by (slot, key): in the order told
        self._unsaved: dict[tuple[Slot, tuple[int, ...]], int | None] = {}
        self._retry: asyncio.TimerHandle | None = None
        self._retrying: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()  # in the order remembered

    def get(self, post: Post) -> int | None:
        """The id of the message at ``post``, None when it has none (in this chat)."""
        posts = self._tables.get(post.table)
        found = None if posts is None else posts.ids.get(post.key)
        return found[1] if found is not None and found[0] == post.chat else None

    async def show(self, post: Post, send: Callable[[], Awaitable[Message | None]],
                   edit: Callable[[int], Awaitable[object]], *,
                   again: bool = True) -> int | None:
        """Show a screen at ``post``: ``edit`` its message, or ``send`` one when it has none,
        or when the user deleted it (unless not ``again``), and remember the new one's id.
        The id of the message that shows it; None when none does (``send`` sent nothing,
        e.g. the table's topic refused it; or the message is gone and not sent ``again``)."""
        msg_id = self.get(post)
        if msg_id is not None:
            try:
                await edit(msg_id)
                return msg_id
            except BadRequest as e:
                if not errors.gone(e):
                    raise
                if not again:
                    return None
        msg = await send()
        if msg is None:
            return None
        await self.remember(post, msg.message_id)
        return msg.message_id

    def note(self, post: Post | Kept, msg_id: int | None) -> None:
        """Keep ``msg_id`` as the message at ``post`` in memory only (the store has it)."""
        if isinstance(post, Kept):
            self._kept[post] = msg_id
            if msg_id is None or msg_id == RESERVED:
                self._looks.pop(post, None)
        elif post.slot != Slot.PING or post.seated:
            self._tables.setdefault(post.table, _TablePosts()).note(post, msg_id)

    async def remember(self, post: Post | Kept, msg_id: int | None) -> None:
        """Keep ``msg_id`` as the message at ``post`` (None: it has none), in memory at once
        and in the store as soon as it takes it. A ping is kept only while its user sits
        there (it was sent to him)."""
        self.note(post, msg_id)
        stored = post.stored
        if stored is not None:
            self._unsaved[post.slot, stored] = msg_id
            await self._flush()

    # --- the messages kept for cups, challenges and votes ------------------------------

    async def find(self, kept: Kept) -> int | None:
        """The id of the kept message (``RESERVED`` while it may be on its way), None when
        there is none: from this run's memory, else from the store (raising when it cannot
        say: then nothing is to be sent)."""
        if kept not in self._kept:
            self._kept[kept] = await self.store.kept(kept.slot, *kept.stored)
        return self._kept[kept]

    async def keep(self, kept: Kept, send: Callable[[], Awaitable[Message]],
                   edit: Callable[[int], Awaitable[object]], looks: object = None, *,
                   fresh: bool = False) -> int:
        """Show a screen in the kept message: skipped when it shows ``looks`` already (None:
        shown each time), else edited, or sent when there is none, the user deleted it, or
        ``fresh`` (a new message; the old one keeps what it shows). A final card (:data:`ONCE`)
        is sent once and never edited. The calls made."""
        msg_id = await self.find(kept)
        if kept.slot in ONCE and msg_id is not None:
            return 0
        if msg_id and not fresh:
            if looks is not None and self._looks.get(kept) == looks:
                return 0
            try:
                await edit(msg_id)
            except BadRequest as e:
                if not errors.gone(e):
                    raise
            else:
                self._looks[kept] = looks
                return 1
        await self._reserve(kept)
        try:
            msg = await send()
        except TimedOut:  # it may be in the chat: a final card stays reserved (never again)
            if kept.slot not in ONCE:
                await self.remember(kept, None)
            raise
        except BaseException:
            await self.remember(kept, None)
            raise
        await self.remember(kept, msg.message_id)
        self._looks[kept] = looks
        return 1 if msg_id is None or fresh else 2

    async def keep_text(self, kept: Kept, courier: Courier, before: Before, text: str,
                        markup: InlineKeyboardMarkup | None = None,
                        thread_id: int | None = None) -> int:
        """:meth:`keep` a text message (sent in the topic ``thread_id``), after ``before``
        each call; edited only when its text changed."""
        async def send() -> Message:
            await before()
            return await courier.send_message(kept.chat, text, reply_markup=markup,
                                              message_thread_id=thread_id)

        async def edit(msg_id: int) -> None:
            await before()
            await courier.edit_text(kept.chat, msg_id, text, markup)
        return await self.keep(kept, send, edit, text)

    async def _reserve(self, kept: Kept) -> None:
        """Store that the kept message is being sent (raises if the store cannot, and then
        nothing may be sent)."""
        where = kept.slot, kept.stored
        async with self._writing:
            await self.store.set_post(*where, RESERVED)
        self._unsaved.pop(where, None)  # an older id waiting to be written: outdated
        self.note(kept, RESERVED)

    def seated(self, table: Table) -> None:
        """Forget the pings of those who left the table (told after each change)."""
        posts = self._tables.get(table)
        if posts is None:
            return
        for key in [k for k in posts.ids if k[0] == Slot.PING
                    and not Post.ping(table, k[1], k[2]).seated]:
            del posts.ids[key]

    async def load(self, table: Table) -> None:
        """Read back what a table restored after a restart has posted."""
        posted = await self.store.posted(table.id)
        if posted is None:
            return
        self.note(Post.lobby(table), posted.lobby)
        for seat in posted.seats:
            self.note(Post.ping(table, seat.seat, seat.user_id), seat.ping)
        record = table.current
        if record is None or record.id != posted.hand_id:
            return
        self.note(Post.picture(table, record), posted.picture)
        self.note(Post.settlement(table, record), posted.settlement)
        for seat in posted.seats:
            if seat.seat < len(record.users) and record.users[seat.seat] == seat.user_id:
                self.note(Post.seat_picture(table, record, seat.seat, seat.user_id),
                          seat.picture)

    # --- a settlement, posted once whatever the store does (GroupPanels.post_settlement) ---

    async def begin_settlement(self, post: Post) -> None:
        """Store, before a settlement is sent, that it is being posted
        (``SETTLEMENT_POSTING``, in the store only: this run knows how the send ends);
        raises if the store cannot, and then nothing may be sent."""
        assert post.slot == Slot.SETTLEMENT and post.stored is not None
        await self.store.set_post(Slot.SETTLEMENT, post.stored, SETTLEMENT_POSTING)

    async def remember_summary(self, match_id: int, msg_id: int) -> None:
        """The match's 总结算 was posted: never again (raises if the store cannot say so)."""
        await self.store.set_post(Slot.SUMMARY, (match_id,), msg_id)

    # --- writing until the store takes it ------------------------------------------------

    async def _flush(self) -> None:
        """Write every id not yet stored; what the store refuses waits for the next try."""
        async with self._writing:
            for where, msg_id in list(self._unsaved.items()):
                try:
                    await self.store.set_post(*where, msg_id)
                except Exception as e:  # the store is down: shown all the same
                    if not isinstance(e, StoreUnavailable):  # that one it says itself
                        log.warning("could not store the message id %s of %s %s (again in"
                                    " %g s): %s", msg_id, *where, STORE_RETRY, e)
                    self._retry_later()
                    return
                if where in self._unsaved and self._unsaved[where] == msg_id:  # none since
                    del self._unsaved[where]

    def _retry_later(self) -> None:
        if self._retry is not None:
            return

        def again() -> None:
            self._retry = None
            self._retrying = asyncio.get_running_loop().create_task(self._flush())
        self._retry = asyncio.get_running_loop().call_later(STORE_RETRY, again)

    def close(self) -> None:
        """Stop trying to write what the store refused (the bot is going down)."""
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
