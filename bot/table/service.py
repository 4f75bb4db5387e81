"""The table service: what handlers, the presenter, votes and tests call to look a table up
or change it. Each change is one unit of work (:meth:`Tables.change`, :mod:`bot.table.work`)
whose rules are the rooms': :mod:`bot.table.lobby`, :mod:`bot.table.play`,
:mod:`bot.table.matches`, :mod:`bot.table.birds`, and the deadlines :mod:`bot.table.clock`'s.
No Telegram here; the database is the store of record, the tables in memory its cache
(:mod:`bot.table.registry`).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable

from bot.store import Store, Tx
from bot.table import birds, clock, lobby, owners, play, robots
from bot.table.model import (
    ABSENT_HANDS,
    DEFAULT_RULES,
    MATCHES,
    HandRecord,
    Observer,
    Person,
    Player,
    PressAnswer,
    Refusal,
    Table,
    TableStatus,
)
from bot.table.registry import Registry
from bot.table.work import Tables
from engine import actions as A
from engine.rules import RuleSet


class TableService:
    def __init__(
        self,
        store: Store,
        observer: Observer,
        *,
        action_timeout: float,
        autoplay_delay: float,
        ready_timeout: float = 120.0,
        full_start_delay: float = 10.0,
        default_lang: str = "zh",
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        seed: int | None = None,
        bot_id: int = 0,
    ) -> None:
        self.store = store
        self.bot_id = bot_id  # the bot this process serves (:mod:`bot.table.owners`)
        self.observer = observer
        self.action_timeout = action_timeout
        self.autoplay_delay = autoplay_delay
        self.ready_timeout = ready_timeout  # seconds between hands before the unready go
        self.full_start_delay = full_start_delay  # seconds a full lobby waits before dealing
        self.default_lang = default_lang
        self.clock = clock
        self.random = rng or secrets.SystemRandom()  # seeds and first dealers; tests seed it
        self.seed = seed  # if set, deals depend on (seed, table, hand no) only: restart-proof
        self.registry = Registry(store, default_lang, clock, bot_id, pace=lambda: self.pace)
        self.work = Tables(self.registry, store, observer, clock)
        # lookups and start-up reads are the registry's own
        reg = self.registry
        self.tables, self.get, self.in_chat, self.table_of_user = \
            reg.tables, reg.get, reg.in_chat, reg.table_of_user
        self.move_chat, self.load = self.work.move_chat, reg.load
        self.unposted_settlements, self.unposted_matches = \
            reg.unposted_settlements, reg.unposted_matches

    @property
    def pace(self) -> clock.Pace:
        return clock.Pace(action_timeout=self.action_timeout, autoplay_delay=self.autoplay_delay,
                          ready_timeout=self.ready_timeout,
                          full_start_delay=self.full_start_delay)

    # --- lookup --------------------------------------------------------------------

    @staticmethod
    def button_mark(table: Table) -> int:
        """What the table's group buttons belong to: its latest hand (0 before the first).
        The database knows it, so after a restart too a lobby or settlement shown before the
        table moved on (a later hand, back to the lobby) is told apart from the current one."""
        return table.current.id if table.current is not None else 0

    def check_live(self, table_id: int, status: TableStatus, mark: int) -> None:
        """Refuse as outdated a group button of a table not in ``status`` (``lobby`` for the
        lobby's, ``between`` for a settlement's) or of another hand than its latest."""
        table = self.get(table_id)
        if table.status != status or mark != self.button_mark(table):
            raise Refusal("stale")

    # --- the clock -------------------------------------------------------------------

    def due_at(self, table: Table) -> float | None:
        return clock.due_at(table, self.pace)

    def start_delay(self, table: Table) -> float:
        return clock.start_delay(table, self.pace)

    def deadline(self, table: Table, seat: int) -> float:
        return clock.deadline(table, seat, self.pace)

    def timeout(self, table: Table) -> float:
        return clock.timeout(table, self.pace)

    async def play_due(self, table_id: int) -> None:
        """Timer: play every seat whose time is up (托管 from now on for a timed-out seat) and
        every computer player whose pause is over; between hands unseat those who did not
        press 再来一局 in time; deal at a lobby full for long enough. A change the store did not
        take is refused (``bot.table.work.UNSTORED``) with the clock armed to try again."""
        while self.registry.find(table_id) is not None:
            async with self.work.change(table_id) as (table, tx):
                now = self.clock()
                if not clock.is_due(table, self.pace, now):
                    return
                if table.status == TableStatus.BETWEEN:
                    await lobby.unseat_unready(tx, table, now)
                    return
                if table.status == TableStatus.LOBBY and table.full_since is None:
                    await lobby.unseat_unready(tx, table, now)  # a standing table after a match
                    return
                if table.status == TableStatus.LOBBY:
                    await play.deal(tx, self.store, table, self.random, self.seed, now)
                    return
                seat = clock.due_seat(table, self.pace, now)
                assert table.hand is not None and seat is not None
                level = robots.level_of(table.players[seat].robot, table.robot_level)
                action = await robots.decide(table.hand, seat, level)
                await self._apply(tx, table, seat, action, auto=True)
            if not clock.is_due(table, self.pace, self.clock()):
                return

    # --- lobby -----------------------------------------------------------------------

    async def open(self, chat_id: int, opener: Person, rules: RuleSet = DEFAULT_RULES, *,
                   thread_id: int | None = None, match_hands: int = 1,
                   standing: bool = False) -> Table:
        """A new table in the lobby of a group, in its forum topic ``thread_id`` (if any), with
        ``rules`` (``engine.rules.table_rules``), its rule set's 底分, the bot's timer, and
        matches of ``match_hands`` hands (1: single hands). The opener sits at seat 0, but
        not at a ``standing`` table (常驻桌: the caller checked he is an admin)."""
        if match_hands not in MATCHES:
            raise Refusal("bad_option")
        if self.registry.in_chat(chat_id, thread_id) is not None:
            raise Refusal("table_exists")
        await owners.check_place_free(self.store, self.bot_id, chat_id, thread_id)
        if not standing:
            self.registry.check_free(opener.user_id)

        return await self.work.add(lambda tx: lobby.create(
            tx, self.bot_id, (chat_id, thread_id), opener, rules, match_hands, standing))

    async def open_like(self, like: Table, thread_id: int) -> Table:
        """满桌开新桌: a standing table like ``like`` (its rules, options and opener) in the
        topic ``thread_id`` of its group, empty (:func:`bot.table.lobby.create_like`)."""
        if self.registry.in_chat(like.chat_id, thread_id) is not None:
            raise Refusal("table_exists")
        await owners.check_place_free(self.store, self.bot_id, like.chat_id, thread_id)
        return await self.work.add(lambda tx: lobby.create_like(
            tx, self.bot_id, (like.chat_id, thread_id), like))

    async def join(self, table_id: int, person: Person) -> Table:
        """Seat ``person``; refused next to one an admin keeps him apart from (/apart)."""
        apart = await self.store.apart_from(self.get(table_id).chat_id, person.user_id)
        async with self.work.change(table_id) as (table, tx):
            if table.seat_of(person.user_id) is not None:
                raise Refusal("already_seated")
            self.registry.check_free(person.user_id)
            lobby.check_not_playing(table)
            seat = lobby.free_seat(table)
            lobby.check_apart(table, apart)
            await owners.check_seat_free(tx, person.user_id)
            await tx.add_seat(table.id, seat, person.user_id)
            if lobby.sits_ready(table):
                await tx.update_seat(table.id, seat, ready=1)
            lobby.seat(table, seat, person, self.clock())
        return table

    async def add_robot(self, table_id: int, user_id: int, lang: str,
                        level: str | None = None) -> Table:
        """A seated player adds a computer player (named in ``lang``) to a free seat; a
        ``level`` (``robots.LEVELS``) becomes the level of every computer at the table."""
        async with self.work.change(table_id) as (table, tx):
            lobby.check_seated(table, user_id)
            lobby.check_not_playing(table)
            seat = lobby.free_seat(table)
            level = table.robot_level if level is None else lobby.robot_level(level)
            robot_id, name = lobby.robot_for(table, lang)
            await tx.upsert_user(robot_id, name, None, lang)
            await tx.add_seat(table.id, seat, robot_id)
            if level != table.robot_level:
                await tx.update_table(table.id, robot_level=level)
                table.robot_level = level
            lobby.seat(table, seat, Person(robot_id, name, lang), self.clock())
        return table

    async def remove_robot(self, table_id: int, user_id: int) -> Table:
        """A seated player removes the last-seated computer player (not during a hand)."""
        async with self.work.change(table_id) as (table, tx):
            lobby.check_seated(table, user_id)
            lobby.check_not_playing(table)
            seat = max((s for s, p in table.players.items() if p.robot), default=None)
            if seat is None:
                raise Refusal("no_robot")
            await lobby.unseat(tx, table, seat)
            lobby.drop(table, seat)
        return table

    async def show_settings(self, table_id: int, user_id: int, shown: bool, *,
                            house: bool = False) -> Table:
        """The opener opens (or closes) the lobby's ⚙ settings keyboard, its house rules
        (房规) page when ``house``."""
        async with self.work.change(table_id) as (table, _):
            lobby.check_configurable(table, user_id)
            table.settings_open, table.house_open = shown, shown and house
        return table

    async def configure(self, table_id: int, user_id: int, setting: str, value: str) -> Table:
        """The opener changes one option of a lobby before its first deal: ``rules`` (a rule
        set id), ``seats``, ``two_seat`` (min21 | setaside), ``base`` (底分), ``timer``
        (seconds, SLOW for 慢速), ``match`` (hands a match has, MATCHES) or ``level``
        (the computer players', robots.LEVELS) or ``house`` (a house rule, 房规: a ⚙ button's
        code, :mod:`bot.table.house`). Fewer seats than are taken is refused; the seated move
        up to the first seats."""
        async with self.work.change(table_id) as (table, tx):
            lobby.check_configurable(table, user_id)
            if await lobby.set_match_or_level(tx, table, setting, value):
                return table
            rules, base, timer = lobby.changed_option(table, setting, value)
            moves = lobby.moves_up(table)
            for seat, to in moves:
                await tx.move_seat(table.id, seat, to)
            await tx.update_table(table.id, rules=rules.key, base=base, timer=timer)
            for seat, to in moves:
                table.players[to] = table.players.pop(seat)
            table.rules, table.base, table.timer = rules, base, timer
            lobby.mark_full(table, self.clock())
        return table

    async def toggle_bird(self, table_id: int, mark: int, user_id: int) -> bool:
        """打鸟: place the user's bird on the table's next hand, or withdraw it; True when
        placed (:mod:`bot.table.birds`)."""
        async with self.work.change(table_id) as (table, tx):
            birds.check_may_place(table, mark, self.button_mark(table), user_id)
            placed = await tx.toggle_bird(table.id, user_id)
        return placed

    async def begin(self, table_id: int, user_id: int) -> Table:
        """开局: deal a full table at once. In a standing table's lobby after a match the
        same button is 准备: the player keeps his seat, and the table counts down to its deal
        once full of ready players (:func:`bot.table.lobby.awaits_ready`)."""
        async with self.work.change(table_id) as (table, tx):
            seat = lobby.check_seated(table, user_id)
            lobby.check_not_playing(table)
            if lobby.awaits_ready(table):
                if not table.players[seat].ready:
                    await tx.update_seat(table.id, seat, ready=1)
                    table.players[seat].ready = True
                play.mark_between(table, self.clock())
                lobby.mark_full(table, self.clock())
                return table
            if not table.full:
                raise Refusal("need_seats", n=str(table.rules.players))
            await play.deal(tx, self.store, table, self.random, self.seed, self.clock())
        return table

    async def again(self, table_id: int, user_id: int) -> Table:
        """再来一局: mark ready; the next hand starts when every seat is ready."""
        async with self.work.change(table_id) as (table, tx):
            seat = lobby.check_seated(table, user_id)
            lobby.check_not_playing(table)
            if table.status != TableStatus.BETWEEN:  # e.g. the wait for 再来一局 timed out
                raise Refusal("stale")
            player = table.players[seat]
            if not player.ready:
                await tx.update_seat(table.id, seat, ready=1)
                player.ready = True
            if lobby.everyone_ready(table):
                await play.deal(tx, self.store, table, self.random, self.seed, self.clock())
        return table

    # --- leaving, stopping -------------------------------------------------------------

    def escape_quote(self, table_id: int, user_id: int) -> tuple[int, int] | None:
        """(running hand's id, the least the user would pay each other seat) if leaving now is
        逃跑, else None. The figure is public (the others' 明胡息, ``Hand.escape_quote``): the
        exact penalty depends on their hidden cards and shows at the settlement."""
        table = self.get(table_id)
        seat = lobby.check_seated(table, user_id)
        if table.hand is None or table.current is None:
            return None
        lobby.check_not_xing(table, seat)
        return table.current.id, table.hand.escape_quote(seat)

    def stop_quote(self, table_id: int, user_id: int, is_admin: bool) -> HandRecord | None:
        """The running hand that stopping would void (None if none); refuses those who may
        not stop the table."""
        table = self.get(table_id)
        lobby.check_may_stop(table, user_id, is_admin)
        return lobby.running_hand(table)

    async def leave(self, table_id: int, user_id: int, hand_id: int | None = None) -> Table:
        """Leave the table; during a hand this is 逃跑, which ends the hand with the penalty,
        and needs ``hand_id``: the running hand the user confirmed it for."""
        async with self.work.change(table_id) as (table, tx):
            seat = lobby.check_seated(table, user_id)
            lobby.check_confirmed(table, hand_id)
            lobby.check_not_xing(table, seat)
            if table.hand is not None:
                await self._apply(tx, table, seat, A.ESCAPE, auto=False, leaving=True)
            else:
                await lobby.unseat(tx, table, seat)
                lobby.drop(table, seat)
        return table

    async def stop(self, table_id: int, user_id: int, is_admin: bool,
                   hand_id: int | None = None) -> Table:
        """Close the table (opener or admin); a running hand is voided, which needs
        ``hand_id``: the running hand the stop was confirmed for."""
        async with self.work.change(table_id) as (table, tx):
            lobby.check_may_stop(table, user_id, is_admin)
            lobby.check_confirmed(table, hand_id)
            await lobby.close(tx, table)
        return table

    async def abandon(self, table_id: int) -> None:
        """The table's forum topic was deleted: none of it can be shown any more, and nobody
        could leave it there. It closes, unless a hand runs: that hand is played out in the
        private chats and recorded, and the table closes when its settlement finds the topic
        gone."""
        table = self.registry.find(table_id)
        if table is None or table.status == TableStatus.PLAYING:
            return
        async with self.work.change(table_id) as (table, tx):
            if table.status != TableStatus.PLAYING:
                await lobby.close(tx, table)

    # --- play ------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, version: int, index: int) -> PressAnswer:
        """A button press: the action is resolved from the presser's own seat and decision.
        A press of an older keyboard of his is answered with what became of it
        (:func:`bot.table.play.old_press`). The answer is found once the move is committed
        and shown: a claim that lost the card to a higher one is refused after that."""
        async with self.work.change(table_id) as (table, tx):
            seat = lobby.check_seated(table, user_id)
            decision = table.decisions.get(seat)
            action = play.pressed_move(table, seat, version, index)
            if action is not None:
                await self._apply(tx, table, seat, action, auto=False)
                table.pressed[seat] = (version, index)
        if action is None:
            return play.old_press(table, seat, version, index)
        assert decision is not None
        return play.press_answer(table, seat, decision, action)

    async def _apply(self, tx: Tx, table: Table, seat: int, action: str, *, auto: bool,
                     leaving: bool = False) -> None:
        """Every move goes through here (tests watch it): :func:`bot.table.play.apply`. A
        standing table's match that ends in a group whose club has 自动准备 on leaves
        everyone seated ready for the next (/club, docs/club.md)."""
        await play.apply(tx, table, seat, action, auto=auto, now=self.clock(), leaving=leaving)
        if lobby.awaits_ready(table) and (await self.store.club_settings(table.chat_id)).auto_ready:
            await lobby.ready_all(tx, table)
            play.mark_between(table, self.clock())
            lobby.mark_full(table, self.clock())

    async def take_back(self, table_id: int, user_id: int) -> Table:
        """Switch 托管 off: the seat's clock starts afresh."""
        async with self.work.change(table_id) as (table, tx):
            seat = lobby.check_seated(table, user_id)
            if table.players[seat].autoplay:
                await tx.update_seat(table.id, seat, autoplay=0,
                                     clock_from=self.registry.wall())
                play.take_back(table, seat, self.clock())
        return table

    async def hint(self, table_id: int, user_id: int, lang: str) -> str:
        """提示: what the policy would play for the presser now and why, in one line;
        changes nothing."""
        table = self.get(table_id)
        seat = lobby.check_seated(table, user_id)
        hand, decision = table.hand, table.decisions.get(seat)
        if hand is None or decision is None or not decision.legal:
            raise Refusal("not_your_turn")
        _, reason = await robots.hint(hand, seat, lang)
        return reason

    # --- votes (bot.present.votes runs them; these are their outcomes) -------------------

    async def dissolve(self, table_id: int, proposer_id: int, hand_id: int) -> Table:
        """解散 agreed by every other seated human: the running hand ``hand_id`` ends with no
        points (the engine's own ending, logged as the proposer's), and the table waits
        between hands as after any other. ``stale`` when that hand is no longer running."""
        async with self.work.change(table_id) as (table, tx):
            seat = lobby.check_seated(table, proposer_id)
            if table.hand is None or table.current is None or table.current.id != hand_id:
                raise Refusal("stale")
            await self._apply(tx, table, seat, A.DISSOLVE, auto=False)
        return table

    async def absent_seats(self, table: Table) -> list[int]:
        """Seats whose human was played for (托管) through each of the table's last
        ``ABSENT_HANDS`` hands: the others may hand them to a computer player."""
        return [s for s, p in sorted(table.players.items()) if not p.robot and
                await self.store.absent_hands(table.id, p.user_id, ABSENT_HANDS) == ABSENT_HANDS]

    async def replace_seat(self, table_id: int, seat: int, user_id: int, lang: str) -> Table:
        """The others voted: ``user_id`` leaves ``seat`` between hands (no 逃跑: no hand runs)
        and a computer player (named in ``lang``) sits there instead; the next hand deals
        at once if everyone else pressed 再来一局 already."""
        async with self.work.change(table_id) as (table, tx):
            player = table.players.get(seat)
            if table.status != TableStatus.BETWEEN or player is None \
                    or player.user_id != user_id:
                raise Refusal("stale")
            robot_id, name = lobby.robot_for(table, lang)
            opener = lobby.next_opener(table, seat)
            await tx.remove_seat(table.id, seat)
            await tx.upsert_user(robot_id, name, None, lang)
            await tx.add_seat(table.id, seat, robot_id)
            await tx.update_table(table.id, opener_id=opener)
            table.players[seat] = Player(robot_id, name, lang)
            table.opener_id = opener
            if all(p.ready or p.robot for p in table.players.values()):
                await play.deal(tx, self.store, table, self.random, self.seed, self.clock())
        return table
