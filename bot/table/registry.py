"""The open tables in memory: the cache of the store, by id and by place (a group's forum
topic), rebuilt from the store at start-up and after a failed change, and moved when a
group becomes a supergroup. Running hands are replayed from their log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable

from bot.store import HandRow, Store, TableRow
from bot.table import clock, lobby, play, robots
from bot.table.model import HandRecord, Match, Place, Player, Refusal, Table, TableStatus
from engine.rules import get_rule_set

log = logging.getLogger(__name__)

# what a reload takes from the store: every column and every remembered record
_RELOADED = ("chat_id", "thread_id", "opener_id", "base", "status", "dealer", "draws_in_row",
             "version", "rules", "timer", "match_hands", "robot_level",
             "players", "current", "match", "decisions", "between_since", "full_since")


class Registry:
    def __init__(self, store: Store, default_lang: str, clock: Callable[[], float],
                 bot_id: int = 0, wall: Callable[[], float] = time.time,
                 pace: Callable[[], clock.Pace] | None = None) -> None:
        self.store = store
        self.bot_id = bot_id  # whose tables these are: the store may hold other bots' too
        self.default_lang = default_lang
        self.clock = clock
        self.wall = wall  # epoch seconds, as the store keeps times (bot.table.clock.restore)
        self.pace = pace  # the service's times: a restart's grace (bot.table.clock.restore)
        self._tables: dict[int, Table] = {}
        self._by_place: dict[Place, int] = {}
        self._table_of: dict[int, int] = {}  # user -> the table table_of_user found him at

    # --- lookup --------------------------------------------------------------------

    def tables(self) -> list[Table]:
        return list(self._tables.values())

    def find(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    def get(self, table_id: int) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal("unknown_table")
        return table

    def in_chat(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The open table of a group's topic (``thread_id`` None: not a forum, or General)."""
        table_id = self._by_place.get((chat_id, thread_id))
        return self._tables[table_id] if table_id is not None else None

    def table_of_user(self, user_id: int) -> Table | None:
        """The table the user sits at. Asked on every press and every live page's update,
        so the last answer is kept and checked, and all tables are looked through only when
        it no longer holds (bench/bench_load.py: the look through 200 tables was a fifth of
        the live pages' time)."""
        known = self._tables.get(self._table_of.get(user_id, 0))
        if known is not None and known.seat_of(user_id) is not None:
            return known
        table = next((t for t in self._tables.values() if t.seat_of(user_id) is not None),
                     None)
        if table is None:
            self._table_of.pop(user_id, None)
        else:
            self._table_of[user_id] = table.id
        return table

    def check_free(self, user_id: int) -> None:
        if self.table_of_user(user_id) is not None:
            raise Refusal("seated_elsewhere")

    def add(self, table: Table) -> None:
        self._tables[table.id] = table
        if not table.private:  # a private table takes no place in its group
            self._by_place[table.place] = table.id

    def remove(self, table: Table) -> None:
        """A closed table leaves the cache."""
        self._tables.pop(table.id, None)
        if self._by_place.get(table.place) == table.id:
            del self._by_place[table.place]

    # --- a group upgraded to a supergroup --------------------------------------------

    async def move_chat(self, old: int, new: int) -> list[Table]:
        """Telegram gave the group ``old`` the id ``new``: its open tables (returned), history
        and leaderboard move there in one transaction, and the hand goes on; each table keeps
        its topic. The tables' group messages (lobby, last hand's photo and settlement) stay
        behind in the old chat, so the store forgets their ids: those to come are posted
        afresh, and no id of the old chat is compared with one of the new. Idempotent
        (Telegram tells it up to three times: two service messages and refused calls);
        returns no table when there was none to move, or they were moved already.

        A change of the group, not of one table: it takes the lock of each of its tables;
        the unit of work tells the observer of each table moved
        (:meth:`bot.table.work.Tables.move_chat`)."""
        async with contextlib.AsyncExitStack() as locks:
            for table in [t for t in self.tables() if t.chat_id == old]:
                await locks.enter_async_context(table.lock)
            moving = [t for t in self.tables() if t.chat_id == old]  # not moved meanwhile
            await self.store.move_group(old, new, [t.id for t in moving])
            for table in moving:
                self.remove(table)
                table.chat_id = new
                self.add(table)
        return moving

    # --- from the store ----------------------------------------------------------------

    async def load(self) -> list[Table]:
        """Rebuild every open table of this bot from the store, taking first the tables no
        bot owns yet (a store one bot served before tables named their bot: they are the
        first bot's to start on it, so that a single bot finds all its tables again)."""
        await self.store.claim_tables(self.bot_id)
        return await self.load_open()

    async def load_open(self) -> list[Table]:
        """Every open table of this bot as the store holds it, writing nothing (also what a
        process that only shows another process's tables starts from, :mod:`bot.webapp.multi`)."""
        for row in await self.store.open_tables(self.bot_id):
            try:
                table = await self._load_table(row)
            except Exception:  # e.g. a log this engine no longer replays: keep the others
                log.exception("table %s could not be restored; it stays closed to play", row.id)
                continue
            self.add(table)
        return self.tables()

    async def reload(self, table: Table) -> None:
        """Make the table in memory what the store holds (after a change rolled back); a
        table the store has closed is closed in memory too."""
        row = await self.store.table(table.id)
        if row is None or row.status == TableStatus.CLOSED:
            table.status = TableStatus.CLOSED
            return
        fresh = await self._load_table(row)
        if fresh.place != table.place:
            self.remove(table)
        kept = table.current
        for name in _RELOADED:
            setattr(table, name, getattr(fresh, name))
        if kept is not None and table.current is not None and kept.id == table.current.id:
            # the same hand stays the same object, read again: the presenter keys what each
            # message of it shows by that object (bot.present.shown), and another would be
            # taken for another hand (a held edit of a seat's picture would say it is over)
            for field in dataclasses.fields(HandRecord):
                setattr(kept, field.name, getattr(table.current, field.name))
            table.current = kept
        self.add(table)

    async def refresh(self, table_id: int) -> Table | None:
        """Replace this registry's copy of the table by what the store holds now (the table
        another process changed), or drop it once closed or another bot's."""
        row = await self.store.table(table_id)
        fresh = None
        if row is not None and row.status != TableStatus.CLOSED and row.bot_id == self.bot_id:
            fresh = await self._load_table(row)
        old = self._tables.get(table_id)  # swapped at once: never missing meanwhile
        if old is not None:
            self.remove(old)
        if fresh is not None:
            self.add(fresh)
        return fresh

    async def _load_table(self, row: TableRow) -> Table:
        table = Table(row.id, row.chat_id, row.opener_id, row.base, TableStatus(row.status),
                      row.dealer, row.draws_in_row, row.version, thread_id=row.thread_id,
                      no=row.no, rules=get_rule_set(row.rules),
                      timer=row.timer, match_hands=row.match_hands,
                      robot_level=robots.table_level(row.robot_level), standing=row.standing,
                      private=row.private)
        table.match = await self._running_match(table.id)
        clock_from: dict[int, float | None] = {}
        for s in await self.store.seats(row.id):
            table.players[s.seat] = Player(s.user_id, *await self.name_lang(s.user_id),
                                           s.ready, s.autoplay)
            clock_from[s.seat] = s.clock_from
        hand_row = await self.store.last_hand(row.id)
        if hand_row is not None:
            table.current = await self.record(table, hand_row)
            table.current.match_place = await self.store.match_place(hand_row.id)
        now = self.clock()
        play.refresh_decisions(table, now)
        play.mark_between(table, now)
        clock.restore(table, now=now, wall=self.wall(), clock_from=clock_from,
                      pace=self.pace() if self.pace is not None else None)
        if not lobby.waits_for_begin(table):  # that lobby waits for 开局, restarted or not
            lobby.mark_full(table, now)
        return table

    async def _running_match(self, table_id: int) -> Match | None:
        """A table's running match as stored: its hands' points by seat, in order."""
        row = await self.store.running_match(table_id)
        if row is None:
            return None
        played = tuple(h.points for h in await self.store.match_played(row.id))
        return Match(row.id, row.hands, played)

    async def record(self, table: Table, hand_row: HandRow) -> HandRecord:
        """A stored hand, replayed from its log."""
        hand, awaited = play.replay(get_rule_set(hand_row.rule_set), seed=hand_row.seed,
                                    dealer=hand_row.dealer, base=table.base, log=hand_row.log,
                                    times=hand_row.times, started=hand_row.started)
        # a running hand is played by the seated; a finished one by those in its results
        users = hand_row.users or tuple(table.players[s].user_id for s in range(hand.players))
        names = tuple([(await self.name_lang(u))[0] for u in users])
        return HandRecord(hand_row.id, hand_row.no, hand, users, names,
                          table_no=hand_row.table_no, awaited_at=awaited,
                          ended_at=hand_row.ended)

    async def closed_table(self, table_id: int) -> Table:
        """A closed table, only as the place to post in."""
        row = await self.store.table(table_id)
        assert row is not None, f"hand of unknown table {table_id}"
        return Table(row.id, row.chat_id, row.opener_id, row.base, TableStatus.CLOSED,
                     row.dealer, row.draws_in_row, row.version, thread_id=row.thread_id,
                     no=row.no, rules=get_rule_set(row.rules), timer=row.timer,
                     private=row.private)

    async def name_lang(self, user_id: int) -> tuple[str, str]:
        user = await self.store.user(user_id)
        if user is None:
            return str(user_id), self.default_lang
        return user.name, user.lang or self.default_lang

    # --- hands and matches the group has not seen ------------------------------------

    async def unposted_settlements(self) -> list[tuple[Table, HandRecord]]:
        """Finished hands whose settlement never reached the group (the bot stopped first)
        and that the restored tables do not show by themselves: the table moved on (someone
        left, /stop, the next hand began) or closed. A closed table comes back only as the
        place to post in. Call after :meth:`load`."""
        found: list[tuple[Table, HandRecord]] = []
        for table_id, hand_row in await self.store.unposted_hands(self.bot_id):
            table = self.find(table_id) or await self.closed_table(table_id)
            current = table.current
            if current is not None and current.id == hand_row.id \
                    and table.status == TableStatus.BETWEEN:
                continue  # its table waits for 再来一局 under it: posted as the table is shown
            try:
                found.append((table, await self.record(table, hand_row)))
            except Exception:  # e.g. a log this engine no longer replays: keep the others
                log.exception("the settlement of hand %s could not be rebuilt", hand_row.id)
        return found

    async def unposted_matches(self) -> list[tuple[Table, int]]:
        """(table, match id) of every ended match whose 总结算 never reached the group (the
        bot stopped first); a closed table comes back only as the place to post in. Call
        after :meth:`load`."""
        return [(self.find(m.table_id) or await self.closed_table(m.table_id),
                 m.id) for m in await self.store.unposted_matches(self.bot_id)]
