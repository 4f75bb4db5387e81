"""The challenges of every group (:mod:`bot.table.challenges`), without Telegram: opening,
joining, each participant's decisions, leaving, the deadline and the end.

The store is the record: a decision is stored (in its own transaction) before anyone is
told of it, and a participant's game in memory is only a cache of his stored moves
replayed (:meth:`ChallengeService.run`), so a restart at any moment loses nothing. One lock
per participant keeps his presses in order; the policy and the replays run in a worker
thread. What changed is told to the :class:`ChallengeObserver` (the presenter) after the
commit.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from bot.store import Store
from bot.store.challenges import ChallengePlayerRow, ChallengeRow
from bot.table.challenges import (
    Deal,
    Difference,
    Run,
    Standing,
    first_difference,
    new_seeds,
    position_at,
    standings,
)
from bot.table.model import ChallengeStatus, EntrantStatus, Person, Refusal
from bot.table.observers import tell
from engine.rules import RuleSet, get_rule_set

log = logging.getLogger(__name__)


class ChallengeObserver(Protocol):
    """Told after the commit; each reads the challenge's state when it shows it."""

    def challenge_card(self, row: ChallengeRow) -> None:
        """The group's card (its standings) may have changed."""

    def challenge_seat(self, row: ChallengeRow, user_id: int) -> None:
        """The participant's private picture may have changed."""

    def challenge_over(self, row: ChallengeRow) -> None:
        """The challenge ended: its final card is due."""

    def challenge_resend(self, row: ChallengeRow, user_id: int) -> None:
        """The participant asked for his current deal again: a new message."""


class Unwatched:
    """The observer of a service nobody watches (no presenter: a test, a tool): it is told
    everything and shows nothing."""

    def challenge_card(self, row: ChallengeRow) -> None:
        return None

    def challenge_seat(self, row: ChallengeRow, user_id: int) -> None:
        return None

    def challenge_over(self, row: ChallengeRow) -> None:
        return None

    def challenge_resend(self, row: ChallengeRow, user_id: int) -> None:
        return None


class ChallengeService:
    def __init__(self, store: Store, seated: Callable[[int], bool], *, bot_id: int = 0,
                 rng: random.Random | None = None) -> None:
        self.store = store
        self.seated = seated  # is the user at a table now (then he may not join)
        self.bot_id = bot_id
        self.rng = rng or random.SystemRandom()
        self.observer: ChallengeObserver = Unwatched()
        self._runs: dict[tuple[int, int], asyncio.Task[Run]] = {}
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}

    # --- the group's side --------------------------------------------------------------

    async def open(self, chat_id: int, thread_id: int | None, opener: Person, rules: RuleSet,
                   hands: int, seconds: int) -> ChallengeRow:
        """A new challenge in the group; refused while one is open there."""
        if await self.store.open_challenge(chat_id) is not None:
            raise Refusal("challenge_exists")
        seeds = new_seeds(self.rng, hands)
        at = time.time()
        try:
            challenge_id = await self.store.add_challenge(self.bot_id, chat_id, thread_id,
                                                          opener.user_id, rules.key, seeds,
                                                          at + seconds, at)
        except Exception:  # the schema's one_open_challenge: another /challenge came first
            if await self.store.open_challenge(chat_id) is not None:
                raise Refusal("challenge_exists") from None
            raise
        row = await self.store.challenge(challenge_id)
        assert row is not None
        self._arm(row)
        tell(self.observer.challenge_card, row)
        return row

    async def end(self, chat_id: int, user_id: int) -> ChallengeRow:
        """The opener's ``/challenge end``: refused to anyone else, or with none open."""
        row = await self.store.open_challenge(chat_id)
        if row is None:
            raise Refusal("challenge_none")
        if row.opener_id != user_id:
            raise Refusal("challenge_only_opener")
        await self._close(row.id)
        return row

    async def load(self) -> list[ChallengeRow]:
        """After a restart: every open challenge's deadline armed again (one past is ended
        now); those ended whose final card was not posted are told over again."""
        rows = await self.store.open_challenges(self.bot_id)
        for row in rows:
            self._arm(row)
            for p in await self.store.challenge_players(row.id):
                if p.status == EntrantStatus.PLAYING:
                    tell(self.observer.challenge_seat, row, p.user_id)
        for row in await self.store.unposted_challenges(self.bot_id):
            tell(self.observer.challenge_over, row)
        return rows

    def _arm(self, row: ChallengeRow) -> None:
        loop = asyncio.get_running_loop()
        delay = max(0.0, row.deadline - time.time())
        self._timers[row.id] = loop.call_later(
            delay, lambda: loop.create_task(self._close(row.id)))

    async def _close(self, challenge_id: int) -> None:
        timer = self._timers.pop(challenge_id, None)
        if timer is not None:
            timer.cancel()
        closed = await self.store.end_challenge(challenge_id)
        row = await self.store.challenge(challenge_id)
        if not closed or row is None:
            return
        tell(self.observer.challenge_card, row)
        tell(self.observer.challenge_over, row)
        for p in await self.store.challenge_players(challenge_id):
            if p.status == EntrantStatus.PLAYING:  # his buttons go; what he finished counts
                tell(self.observer.challenge_seat, row, p.user_id)

    # --- a participant's side ----------------------------------------------------------

    async def join(self, challenge_id: int, person: Person) -> Run:
        """He starts the challenge: once only, while it is open, and not while he sits at a
        table or plays another challenge."""
        async with self.lock(challenge_id, person.user_id):
            row = await self._open_row(challenge_id)
            players = await self.store.challenge_players(challenge_id)
            if any(p.user_id == person.user_id for p in players):
                raise Refusal("challenge_once")
            if self.seated(person.user_id):
                raise Refusal("challenge_seated")
            if await self.store.playing_challenge(person.user_id) is not None:
                raise Refusal("challenge_busy")
            await self.store.add_challenge_player(challenge_id, person.user_id, person.name,
                                                  person.lang, time.time())
            run = await self.run(row, person.user_id)
        tell(self.observer.challenge_seat, row, person.user_id)
        tell(self.observer.challenge_card, row)
        return run

    async def resume(self, challenge_id: int, user_id: int) -> None:
        """He asks for the challenge he is playing again: his deal comes as a new message.
        Refused as for :meth:`join` when he is not playing it (closed, finished, left)."""
        row = await self._open_row(challenge_id)
        player = await self._player(challenge_id, user_id)
        if player.status != EntrantStatus.PLAYING:
            raise Refusal("challenge_once")
        tell(self.observer.challenge_resend, row, user_id)

    async def press(self, challenge_id: int, user_id: int, version: int, index: int) -> str:
        """His decision ``index`` of the buttons shown after ``version`` decisions; the
        action played. Outdated (nothing changed) for any other buttons."""
        async with self.lock(challenge_id, user_id):
            row = await self._open_row(challenge_id)
            player = await self._player(challenge_id, user_id)
            if player.status != EntrantStatus.PLAYING:
                raise Refusal("challenge_over_for_you")
            run = await self.run(row, user_id)
            legal = run.current.legal()
            if version != self.version(run) or not 0 <= index < len(legal):
                raise Refusal("stale")
            action = legal[index]
            move = await asyncio.to_thread(run.play, action)
            try:
                await self.store.add_challenge_move(
                    challenge_id, user_id, move, EntrantStatus.DONE if run.finished else None)
            except BaseException:
                self._runs.pop((challenge_id, user_id), None)  # rebuilt from the store
                raise
            if run.current.over:
                await asyncio.to_thread(run.next_deal)
        tell(self.observer.challenge_seat, row, user_id)
        tell(self.observer.challenge_card, row)  # edited only when its text changed
        return action

    async def leave(self, challenge_id: int, user_id: int) -> None:
        """He stops: what he finished counts."""
        async with self.lock(challenge_id, user_id):
            row = await self._open_row(challenge_id)
            player = await self._player(challenge_id, user_id)
            if player.status != EntrantStatus.PLAYING:
                raise Refusal("challenge_over_for_you")
            await self.store.set_challenge_player(challenge_id, user_id,
                                                  status=EntrantStatus.LEFT)
        tell(self.observer.challenge_seat, row, user_id)
        tell(self.observer.challenge_card, row)

    # --- reads -------------------------------------------------------------------------

    @staticmethod
    def version(run: Run) -> int:
        """What his buttons carry: his decisions so far."""
        return sum(len(d.moves) for d in run.deals)

    async def run(self, row: ChallengeRow, user_id: int) -> Run:
        """His game, from the cache or rebuilt from his stored moves: once, however many
        ask at the same time (a second rebuild finishing late would put an older game in
        the cache)."""
        key = (row.id, user_id)
        task = self._runs.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._rebuild(row, user_id))
            self._runs[key] = task
        try:
            return await asyncio.shield(task)
        except Exception:
            if self._runs.get(key) is task:
                del self._runs[key]
            raise

    async def _rebuild(self, row: ChallengeRow, user_id: int) -> Run:
        moves = await self.store.challenge_moves(row.id, user_id)
        return await asyncio.to_thread(Run.rebuild, get_rule_set(row.rules), row.seeds, moves)

    async def standings(self, row: ChallengeRow) -> list[Standing]:
        players = await self.store.challenge_players(row.id)
        runs = {p.user_id: await self.run(row, p.user_id) for p in players}
        return standings(players, runs)

    async def differences(self, row: ChallengeRow, table: Sequence[Standing]
                          ) -> dict[int, Difference | None]:
        """Where each player's choices first left the best one's (by user)."""
        if not table:
            return {}
        best = await self.store.challenge_moves(row.id, table[0].player.user_id)
        return {s.player.user_id: first_difference(
            await self.store.challenge_moves(row.id, s.player.user_id), best) for s in table[1:]}

    async def difference(self, challenge_id: int, index: int
                         ) -> tuple[ChallengeRow, Standing, Standing, Difference, Deal]:
        """The final card's 🔍 of the player at place ``index + 1``: the ended challenge,
        him, the best, where they first differ, and his game there. Outdated for anything
        else (an open challenge, a place without a difference)."""
        row = await self.store.challenge(challenge_id)
        if row is None or row.status != ChallengeStatus.DONE:
            raise Refusal("stale")
        table = await self.standings(row)
        if not 0 < index < len(table):
            raise Refusal("stale")
        his = table[index]
        diff = (await self.differences(row, table)).get(his.player.user_id)
        if diff is None:
            raise Refusal("stale")
        moves = await self.store.challenge_moves(row.id, his.player.user_id)
        deal = await asyncio.to_thread(position_at, get_rule_set(row.rules), row.seeds, moves,
                                       diff)
        return row, his, table[0], diff, deal

    async def _open_row(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.challenge(challenge_id)
        if row is None or row.status != ChallengeStatus.OPEN or row.deadline <= time.time():
            raise Refusal("challenge_closed")
        return row

    async def _player(self, challenge_id: int, user_id: int) -> ChallengePlayerRow:
        found = [p for p in await self.store.challenge_players(challenge_id)
                 if p.user_id == user_id]
        if not found:
            raise Refusal("challenge_not_joined")
        return found[0]

    def lock(self, challenge_id: int, user_id: int) -> asyncio.Lock:
        """His lock: held by each change of his game, and while it is read to be shown."""
        return self._locks.setdefault((challenge_id, user_id), asyncio.Lock())


    def shutdown(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
