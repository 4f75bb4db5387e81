"""Folds the stored matches into the skill ratings (:mod:`bot.table.skill`), beside play.

Every few seconds (and when nudged) the rater looks for matches that are complete and not
folded yet, from the oldest hand a match still open may hold on (:meth:`Store.scan_floor`), and
folds them in the order of their last hands; they are recorded with the ratings, in one
short transaction, in the order folded. A void marks its rule set stale: the next look folds
the rule set's recorded matches again, as they stand now, in their recorded order (then any
new ones), and replaces its ratings — so the ratings are always the fold of the recorded
matches, whatever was voided and when.

The folding runs on a worker thread when it is more than a few matches (about 0.06 ms of CPU
a match: a rebuild of 10,000 matches about 0.6 s) and the store is written only after it: a look never holds the store's write lock
while it computes. Several bots on one PostgreSQL store each look; the first to write wins
(under the ratings' lock, the state it folded from must be the stored one) and the others
fold again at their next look.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

from bot.store import Store
from bot.store.skill import MatchSeat, SkillState
from bot.table.looks import Looker
from bot.table.skill import Rating, Seat, fold_all
from engine.rules import RULE_SETS

log = logging.getLogger(__name__)

RATE_EVERY = 5.0  # seconds between two looks
INLINE = 32  # matches folded on the loop itself; more go to a worker thread


class Rater(Looker):
    failure = "the skill ratings could not be updated now"

    def __init__(self, store: Store, every: float = RATE_EVERY) -> None:
        super().__init__(every)
        self.store = store
        self._since = 0  # hand ids below it belong to complete matches, all looked at

    async def look(self) -> bool:
        """One look (when nudged: a match ended, a hand was voided); it folds all it finds."""
        await self.catch_up()
        return False

    async def catch_up(self) -> int:
        """One look at every rule set; the matches folded."""
        floor = await self.store.scan_floor()
        top = await self.store.last_hand_id()
        folded = 0
        for rule_set in RULE_SETS:
            folded += await self._rate(rule_set)
        # a hand being played now has an id from the floor on, one dealt later above top
        self._since = min(top + 1, floor if floor is not None else top + 1)
        return folded

    async def _rate(self, rule_set: str) -> int:
        state = await self.store.skill_state(rule_set)
        new = [key for key, _ in await self.store.unrated_matches(rule_set, self._since)]
        if not new and not state.stale:
            return 0
        old = await self.store.rated_keys(rule_set) if state.stale else []
        seats = _by_match(await self.store.match_seats(rule_set, old + new))
        start: dict[int, Rating] = {}
        if not state.stale:
            humans = sorted({s.user_id for k in new for s in seats.get(k, ()) if s.user_id > 0})
            start = {r.user_id: Rating(r.mu, r.sigma, r.matches)
                     for r in await self.store.skill_ratings(rule_set, humans)}
        games = [seats.get(k, []) for k in old + new]
        if len(games) > INLINE:
            ratings = await asyncio.to_thread(fold_all, rule_set, games, start)
        else:
            ratings = fold_all(rule_set, games, start)
        changed = ratings if state.stale else {
            u: r for u, r in ratings.items() if start.get(u) != r}
        return len(new) if await self._save(rule_set, state, changed, new) else 0

    async def _save(self, rule_set: str, state: SkillState, ratings: dict[int, Rating],
                    new: list[int]) -> bool:
        """Write what was folded from ``state``, if the store is still there."""
        # False: another bot wrote first, fold again at the next look
        return await self.store.save_ratings_over(
            state, rule_set, [(u, r.mu, r.sigma, r.matches) for u, r in sorted(ratings.items())],
            new)


def _by_match(seats: list[MatchSeat]) -> dict[int, list[Seat]]:
    """The seats of each match, in user id order (a fold does not depend on the order, but
    its floating point does, a little)."""
    found: dict[int, list[Seat]] = defaultdict(list)
    for s in sorted(seats, key=lambda s: (s.match_key, s.user_id)):
        found[s.match_key].append(Seat(s.user_id, s.points, s.level))
    return found
