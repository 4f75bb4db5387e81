"""The cups of every group (:mod:`bot.table.cups`), without Telegram: sign-up, the start,
each round's tables (ordinary tables of the group, :mod:`bot.table.cup_tables`), their
results and the end.

The store is the record: a cup's state is written in the transaction of each change, a
round's table in the very transaction that creates it, and a table's results are read from
its finished hands, so after a restart (:meth:`CupService.load`) every cup goes on from
what the store says: a round's table not opened yet is opened, one whose hands are played
is counted, a round fully played starts the next. One lock serialises the cups' changes
(they are few: a round's start, a table's end). The :class:`CupObserver` (the presenter)
is told after the commit, and makes a round's forum topics. Where it may not (a group
without topics), the cup's tables are private tables (``Table.private``), played in the
players' private chats, the group seeing only the cup's cards.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Coroutine
from typing import Protocol

from bot.store import Store, Tx
from bot.store.cups import CupRow
from bot.table import cup_tables
from bot.table.cups import MAX_PLAYERS, Cup, CupTable, Entrant, next_round
from bot.table.model import CupPlace, CupStatus, Person, Refusal, TableStatus
from bot.table.observers import tell
from bot.table.service import TableService
from engine.rules import RuleSet, get_rule_set

log = logging.getLogger(__name__)

RETRY_DELAY = 1.0  # seconds between tries of a cup's work the store refused


class CupObserver(Protocol):
    def cup_card(self, row: CupRow) -> None:
        """The group's card (sign-up list or standings) may have changed."""

    def cup_over(self, row: CupRow) -> None:
        """The cup ended: its final card is due."""

    def cup_waiting(self, row: CupRow, table_no: int, users: list[int]) -> None:
        """The round's table ``table_no`` played its hands while others still play: its
        ``users`` wait for the next round (or the final card)."""

    async def cup_topic(self, row: CupRow, no: int) -> int | None:
        """A forum topic for the cup's table ``no`` (its thread id); None when the bot may
        not make one."""


class Unwatched:
    """The observer of a service nobody watches (no presenter: a test, a tool): it is told
    everything and shows nothing; a cup's tables play in the cup's own thread."""

    def cup_card(self, row: CupRow) -> None:
        return None

    def cup_over(self, row: CupRow) -> None:
        return None

    def cup_waiting(self, row: CupRow, table_no: int, users: list[int]) -> None:
        return None

    async def cup_topic(self, row: CupRow, no: int) -> int | None:
        return row.thread_id


class CupService:
    def __init__(self, store: Store, tables: TableService, *, bot_id: int = 0,
                 rng: random.Random | None = None) -> None:
        self.store = store
        self.tables = tables
        self.bot_id = bot_id
        self.rng = rng or random.SystemRandom()
        self.observer: CupObserver = Unwatched()
        self._lock = asyncio.Lock()
        self._of_table: dict[int, int] = {}  # a cup table's id -> its cup's
        self._retrying: set[int] = set()  # cups whose work waits for the store (_retry)
        self._tasks: set[asyncio.Task[None]] = set()

    # --- the group's side --------------------------------------------------------------

    async def open(self, chat_id: int, thread_id: int | None, opener: Person, rules: RuleSet,
                   rounds: int, hands: int, *, private: bool = False) -> CupRow:
        """A new cup in sign-up, its opener its first entrant; refused while one is open. A
        ``private`` one (a group without topics) plays its tables in private chats."""
        async with self._lock:
            if await self.store.open_cup(chat_id) is not None:
                raise Refusal("cup_exists")
            self._check_free(opener.user_id)
            cup = Cup(rules.key, rules.players, rounds, hands, self.rng.getrandbits(63),
                      [Entrant(opener.user_id, opener.name, opener.lang)], private=private)
            try:
                cup_id = await self.store.add_cup(self.bot_id, chat_id, thread_id,
                                                  opener.user_id, cup.dumps(), time.time())
            except Exception:  # the schema's one_open_cup: another bot's /cup came first
                if await self.store.open_cup(chat_id) is not None:
                    raise Refusal("cup_exists") from None
                raise
            row = await self._row(cup_id)
        tell(self.observer.cup_card, row)
        return row

    async def private(self, cup_id: int) -> bool:
        """Does the cup play in private chats (so that one signing up must have opened the
        bot)?"""
        return (await self._cup(cup_id))[1].private

    async def join(self, cup_id: int, person: Person) -> None:
        """报名: while it signs up, once, while not full, and not by one seated elsewhere."""
        async with self._lock:
            row, cup = await self._cup(cup_id)
            if row.status != CupStatus.SIGNUP:
                raise Refusal("cup_started")
            if cup.entrant(person.user_id) is not None:
                raise Refusal("cup_joined_already")
            if len(cup.players) >= MAX_PLAYERS:
                raise Refusal("cup_full", n=str(MAX_PLAYERS))
            self._check_free(person.user_id)
            cup.players.append(Entrant(person.user_id, person.name, person.lang))
            await self._save(row.id, cup)
        joined = await self._row(cup_id)
        tell(self.observer.cup_card, joined)

    async def start(self, chat_id: int, user_id: int) -> None:
        """The opener's ``/cup start``: at least one table's worth of entrants, none seated
        elsewhere, a draw that parts every pair kept apart (/apart) without leaving one
        out, and a forum topic for each table of the first round."""
        async with self._lock:
            row = await self.store.open_cup(chat_id)
            if row is None:
                raise Refusal("cup_none")
            if row.opener_id != user_id:
                raise Refusal("cup_only_opener")
            if row.status != CupStatus.SIGNUP:
                raise Refusal("cup_started")
            cup = Cup.loads(row.state)
            if len(cup.players) < cup.seats:
                raise Refusal("cup_too_few", n=str(cup.seats))
            for p in cup.players:
                if self.tables.table_of_user(p.id) is not None:
                    raise Refusal("cup_entrant_seated", name=p.name)
            tables, cup.swaps = next_round(cup, await self.store.apart_pairs(chat_id))
            if sum(u is not None for t in tables for u in t.seats) < len(cup.players):
                raise Refusal("cup_apart_one_table")  # a pair kept apart with one table
            for t in tables:
                if not await self._topic(row, cup, t.no):
                    await self._go_private(cup)
                    break
            cup.tables.append(tables)
            await self.store.set_cup(row.id, state=cup.dumps(), status=CupStatus.PLAYING)
            row = await self._row(row.id)
            await self._open_tables(row, cup)
        tell(self.observer.cup_card, row)

    async def cancel(self, chat_id: int, user_id: int, is_admin: bool) -> None:
        """``/cup cancel`` (its opener or a group admin): the group's open cup ends now. In
        sign-up nothing was played; in play, the round's tables close (a hand in play is
        voided, as by /stop) and what each table finished counts, as its final card says."""
        async with self._lock:
            row = await self.store.open_cup(chat_id)
            if row is None:
                raise Refusal("cup_none")
            if row.opener_id != user_id and not is_admin:
                raise Refusal("cup_cancel_refused")
            cup = Cup.loads(row.state)
            for ct in cup.tables[-1] if cup.tables else ():
                if ct.points is not None or ct.table_id is None:
                    continue
                self._of_table.pop(ct.table_id, None)
                await cup_tables.stop(self.tables, ct.table_id)
                _, points = await self.store.table_results(ct.table_id)
                ct.points = {str(u): points.get(u, 0) for u in ct.seats if u is not None}
            cup.cancelled = True
            await self.store.set_cup(row.id, state=cup.dumps(), status=CupStatus.DONE)
            row = await self._row(row.id)
        tell(self.observer.cup_card, row)
        tell(self.observer.cup_over, row)

    # --- the tables ----------------------------------------------------------------------

    def is_table(self, table_id: int) -> bool:
        """Is it one of a running cup's tables?"""
        return table_id in self._of_table

    def settled(self, table_id: int) -> None:
        """A hand of a table ended, or the table closed (told by the table service's
        observer)."""
        if table_id in self._of_table:
            self._spawn(self._after_hand(table_id))

    async def _after_hand(self, table_id: int) -> None:
        cup_id = self._of_table.get(table_id)
        try:
            async with self._lock:
                if cup_id is None or self._of_table.get(table_id) != cup_id:
                    return
                row, cup = await self._cup(cup_id)
                ct = cup.table_of(table_id)
                if row.status != CupStatus.PLAYING or ct is None or ct.points is not None:
                    return
                await self._check_table(row, cup, ct)
        except Exception as error:  # the store failed: go on from what it holds, later
            assert cup_id is not None
            log.warning("cup %s: a table's end could not be stored (%s); tried again every"
                        " %g s", cup_id, error, RETRY_DELAY)
            self._retry(cup_id)

    def _retry(self, cup_id: int) -> None:
        """Go on with the cup from its stored state (:meth:`_resume`) every ``RETRY_DELAY``
        seconds until that succeeds; one such loop a cup. Each try reads the store afresh and
        does only what it does not hold yet (count a played table once, open a round's table
        once, in the transaction that records it), so the round is dealt exactly once."""
        if cup_id in self._retrying:
            return
        self._retrying.add(cup_id)

        async def again() -> None:
            try:
                while True:
                    await asyncio.sleep(RETRY_DELAY)
                    try:
                        await self._resume(cup_id)
                    except Exception as error:
                        log.warning("cup %s still cannot go on (%s)", cup_id, error)
                        continue
                    log.info("cup %s goes on", cup_id)
                    return
            finally:
                self._retrying.discard(cup_id)
        self._spawn(again())

    async def _check_table(self, row: CupRow, cup: Cup, ct: CupTable) -> None:
        """Count a table whose hands are played (or that closed), else deal its next."""
        assert ct.table_id is not None
        table = self.tables.registry.find(ct.table_id)
        if table is not None and table.status == TableStatus.CLOSED:
            table = None  # stopped (/stop): what it played counts
        left = [u for u in ct.seats if u is not None and table is not None
                and table.seat_of(u) is None]
        for user_id in left:  # he left: a computer player plays his seat from now on
            entrant = cup.entrant(user_id)
            if entrant is not None:
                entrant.left = True
        done, points = await self.store.table_results(ct.table_id)
        if table is not None and done < cup.hands:
            if left:
                await self._save(row.id, cup)
            if table.status in (TableStatus.BETWEEN, TableStatus.LOBBY):
                await cup_tables.deal_next(self.tables, ct.table_id)
            return
        ct.points = {str(u): p for u, p in points.items()}
        for u in ct.seats:
            if u is not None:
                ct.points.setdefault(str(u), 0)
        await self._save(row.id, cup)
        await cup_tables.close(self.tables, ct.table_id)
        self._of_table.pop(ct.table_id, None)
        tell(self.observer.cup_card, row)
        if cup.round_done():
            await self._next(row, cup)
        else:
            waiting = [u for u in ct.seats if u is not None and not by_left(cup, u)]
            tell(self.observer.cup_waiting, row, ct.no, waiting)

    async def _next(self, row: CupRow, cup: Cup) -> None:
        """A round fully played: the next one's tables, or the end."""
        tables, _ = next_round(cup, await self.store.apart_pairs(row.chat_id))
        if cup.round >= cup.rounds or not tables:
            await self.store.set_cup(row.id, status=CupStatus.DONE)
            row = await self._row(row.id)
            tell(self.observer.cup_card, row)
            tell(self.observer.cup_over, row)
            return
        cup.tables.append(tables)
        await self._save(row.id, cup)
        await self._open_tables(row, cup)

    async def _open_tables(self, row: CupRow, cup: Cup) -> None:
        """Every table of the round not opened yet: in its topic, its players seated."""
        by_id = {p.id: p for p in cup.players}
        rules = get_rule_set(cup.rules)
        for ct in cup.tables[-1]:
            if ct.table_id is not None or ct.points is not None:
                continue
            thread = row.thread_id if cup.private else await self._topic(row, cup, ct.no)
            for u in ct.seats:  # one who sat down at another table between rounds left
                if u is not None and self.tables.table_of_user(u) is not None:
                    by_id[u].left = True
            people = [None if u is None or by_id[u].left else
                      Person(u, by_id[u].name, by_id[u].lang) for u in ct.seats]
            if all(p is None for p in people):
                ct.points = {}
                continue

            async def record(tx: Tx, table_id: int, ct: CupTable = ct) -> None:
                ct.table_id = table_id
                await tx.set_cup(row.id, state=cup.dumps())

            try:
                await cup_tables.open_seated(self.tables, (row.chat_id, thread), rules,
                                             people, record, private=cup.private,
                                             cup=CupPlace(row.id, cup.round, ct.no))
            except BaseException:
                ct.table_id = None
                raise
            assert ct.table_id is not None
            self._of_table[ct.table_id] = row.id
        if cup.round_done():  # nobody was left to seat: on to the next round
            await self._save(row.id, cup)
            await self._next(row, cup)

    async def _topic(self, row: CupRow, cup: Cup, no: int) -> int | None:
        """The table's forum topic: made once, kept in the state for every round; None when
        the bot may not make one (not a forum, no right to manage topics)."""
        if cup.private:
            return None
        if str(no) in cup.topics:
            return cup.topics[str(no)]
        thread = await self.observer.cup_topic(row, no)
        if thread is None:
            return None
        cup.topics[str(no)] = thread
        await self._save(row.id, cup)
        return thread

    async def _go_private(self, cup: Cup) -> None:
        """No topics: the tables play in private chats, if every entrant has opened the bot
        (else the start is refused). Topics made already stay unused."""
        for p in cup.players:
            user = await self.store.user(p.id)
            if user is None or not user.dm_ok:
                raise Refusal("cup_no_topics")
        cup.private = True

    # --- restart ---------------------------------------------------------------------

    async def load(self) -> None:
        """After a restart: every cup goes on from its stored state."""
        for row in await self.store.live_cups(self.bot_id):
            if row.status == CupStatus.DONE:
                tell(self.observer.cup_over, row)
                continue
            tell(self.observer.cup_card, row)
            if row.status == CupStatus.PLAYING:
                self._spawn(self._resume(row.id))

    async def _resume(self, cup_id: int) -> None:
        async with self._lock:
            row, cup = await self._cup(cup_id)
            if row.status != CupStatus.PLAYING:  # ended meanwhile (/cup cancel)
                return
            for ct in cup.tables[-1]:
                if ct.table_id is None:
                    continue
                if ct.points is not None:  # counted, but the kill came before it closed
                    await cup_tables.close(self.tables, ct.table_id)
                    continue
                self._of_table[ct.table_id] = row.id
                self._mark(row, cup, ct)
                table = self.tables.registry.find(ct.table_id)
                if table is None or table.status != TableStatus.PLAYING:
                    await self._check_table(row, cup, ct)  # the round's last: the next one
            row, cup = await self._cup(cup_id)
            if row.status == CupStatus.PLAYING:
                await self._open_tables(row, cup)  # those the kill came before

    # --- helpers ---------------------------------------------------------------------

    def _mark(self, row: CupRow, cup: Cup, ct: CupTable) -> None:
        """Tell the round's table where it stands in the cup (its private messages say so)."""
        table = self.tables.registry.find(ct.table_id) if ct.table_id is not None else None
        if table is not None:
            table.cup = CupPlace(row.id, cup.round, ct.no)

    def _check_free(self, user_id: int) -> None:
        if self.tables.table_of_user(user_id) is not None:
            raise Refusal("cup_seated")

    async def _row(self, cup_id: int) -> CupRow:
        row = await self.store.cup(cup_id)
        if row is None:
            raise Refusal("stale")
        return row

    async def _cup(self, cup_id: int) -> tuple[CupRow, Cup]:
        row = await self._row(cup_id)
        return row, Cup.loads(row.state)

    async def _save(self, cup_id: int, cup: Cup) -> None:
        await self.store.set_cup(cup_id, state=cup.dumps())

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cup work failed", exc_info=task.exception())



def by_left(cup: Cup, user_id: int) -> bool:
    """Did the entrant leave the cup (a computer player plays his seat)?"""
    entrant = cup.entrant(user_id)
    return entrant is None or entrant.left
