"""复式挑战 (a duplicate challenge), without Telegram: the same deals for everyone, played
privately from the same seat against computer players that play the same way every time.

A challenge is a rule set, a few deals' seeds (their SHA-256 shown when it opens, the seeds
once it ends) and a deadline. A participant plays seat :data:`HUMAN` of every deal in turn;
the other seats are the strong computer player (``engine.player.choose``) with an rng fixed
by the deal's seed, the seat and the step (``engine.duplicate.robot_rng``), so its move is a
function of the position alone: two participants who make the same choices see the same game. Only his
own decisions are stored (``bot.store.challenges``): replaying them rebuilds the game, also
after a restart. Standings: points over the deals he finished, then fewer decisions off
the strong player's choice (:func:`standings`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot.numbers import positive
from bot.store.challenges import ChallengeMove, ChallengePlayerRow
from bot.table.model import Refusal
from engine.duplicate import HUMAN, dealer_of, strong_choice
from engine.rules import RuleSet
from engine.standings import places
from engine.state import Hand
from engine.views import PrivateView

DEFAULT_HANDS, MAX_HANDS = 1, 8
DEFAULT_DEADLINE = 24 * 3600
MIN_DEADLINE, MAX_DEADLINE = 10 * 60, 7 * 24 * 3600
HANDS_WORD = "局"
# a deadline's units, in seconds (words the bot reads: 2h, 2小时)
DEADLINE_UNITS = {"m": 60, "min": 60, "分钟": 60, "h": 3600, "小时": 3600, "d": 86400, "天": 86400}
_DURATION = re.compile(r"(\d{1,4})(" + "|".join(DEADLINE_UNITS) + ")")


def parse_deadline(word: str) -> int | None:
    """Seconds of a deadline word (``30m``, ``2h``, ``1d``, ``2小时``); None if it is none."""
    found = _DURATION.fullmatch(word.lower())
    return None if found is None else int(found[1]) * DEADLINE_UNITS[found[2]]


def split_args(args: Sequence[str]) -> tuple[list[str], int, int]:
    """``/challenge`` arguments: (the rule-set words, hands, deadline seconds). A refusal
    ``challenge_usage`` for a hand count or deadline out of range."""
    rest, hands, deadline = [], DEFAULT_HANDS, DEFAULT_DEADLINE
    for word in args:
        seconds = parse_deadline(word)
        count = word.removesuffix(HANDS_WORD)
        if seconds is not None:
            if not MIN_DEADLINE <= seconds <= MAX_DEADLINE:
                raise Refusal("challenge_usage")
            deadline = seconds
        elif word.endswith(HANDS_WORD) and count:
            counted = positive(count, MAX_HANDS)
            if counted is None:
                raise Refusal("challenge_usage")
            hands = counted
        else:
            rest.append(word)
    return rest, hands, deadline


def new_seeds(rng: random.Random, hands: int) -> tuple[int, ...]:
    return tuple(rng.getrandbits(63) for _ in range(hands))


@dataclass
class Deal:
    """One participant's game of one deal: the engine hand, with the computer seats played
    up to his next decision."""

    seed: int
    hand: Hand
    moves: list[str] = field(default_factory=list)
    robot_moves: list[tuple[int, str]] = field(default_factory=list)  # (seat, action), in order

    @classmethod
    def start(cls, rules: RuleSet, seed: int, deal: int) -> Deal:
        game = cls(seed, Hand.new(rules, seed=seed, dealer=dealer_of(rules, deal)))
        game._robots()
        return game

    @property
    def over(self) -> bool:
        return self.hand.is_terminal()

    def view(self) -> PrivateView:
        return self.hand.private_view(HUMAN)

    def legal(self) -> tuple[str, ...]:
        return self.view().legal if HUMAN in self.hand.to_act() else ()

    def points(self) -> int:
        outcome = self.hand.outcome
        return 0 if outcome is None else outcome.points[HUMAN]

    def play(self, action: str) -> bool:
        """Play his ``action`` (one of :meth:`legal`), then the computers up to his next
        decision; True when it was not the strong player's choice. Refused as outdated
        (nothing changed) for an action he may not play now."""
        if action not in self.legal():
            raise Refusal("stale")
        best = strong_choice(self.hand, self.seed, HUMAN)
        self.hand.apply(HUMAN, action)
        self.moves.append(action)
        self._robots()
        return action != best

    def _robots(self) -> None:
        """The computer seats' decisions, in seat order, until only his is awaited."""
        while not self.hand.is_terminal():
            waiting = [s for s in self.hand.to_act() if s != HUMAN]
            if not waiting:
                return
            seat = waiting[0]
            action = strong_choice(self.hand, self.seed, seat)
            self.hand.apply(seat, action)
            self.robot_moves.append((seat, action))


@dataclass
class Run:
    """One participant's whole challenge: his deals so far (the last one in play unless he
    finished), rebuilt from his stored moves."""

    rules: RuleSet
    seeds: tuple[int, ...]
    deals: list[Deal]
    offs: int = 0

    @classmethod
    def rebuild(cls, rules: RuleSet, seeds: Sequence[int], moves: Sequence[ChallengeMove]) -> Run:
        run = cls(rules, tuple(seeds), [Deal.start(rules, seeds[0], 0)])
        for move in moves:
            while move.deal >= len(run.deals):
                run.deals.append(Deal.start(rules, seeds[len(run.deals)], len(run.deals)))
            run.deals[move.deal].play(move.action)
            run.offs += move.off
            run.next_deal()
        return run

    @property
    def current(self) -> Deal:
        return self.deals[-1]

    @property
    def finished(self) -> bool:
        return len(self.deals) == len(self.seeds) and self.current.over

    def next_deal(self) -> bool:
        """Deal the next one once the current one is over; True when it did."""
        if self.current.over and len(self.deals) < len(self.seeds):
            k = len(self.deals)
            self.deals.append(Deal.start(self.rules, self.seeds[k], k))
            return True
        return False

    def played(self) -> int:
        """The deals he finished."""
        return sum(d.over for d in self.deals)

    def points(self) -> int:
        """His points over the deals he finished."""
        return sum(d.points() for d in self.deals if d.over)

    def play(self, action: str) -> ChallengeMove:
        """His decision in the current deal; the move to store."""
        deal = self.current
        move = ChallengeMove(len(self.deals) - 1, len(deal.moves), action, False)
        off = deal.play(action)
        self.offs += off
        return ChallengeMove(move.deal, move.seq, action, off)


@dataclass(frozen=True)
class Standing:
    player: ChallengePlayerRow
    points: int
    offs: int
    played: int
    place: int = 0  # from 1
    tied: bool = False  # another player shares the place


def standings(players: Sequence[ChallengePlayerRow], runs: dict[int, Run]) -> list[Standing]:
    """By points, then fewer decisions off the strong player's choice; equal in both share
    a place, listed in the order they joined."""
    rows = sorted((Standing(p, runs[p.user_id].points(), runs[p.user_id].offs,
                            runs[p.user_id].played()) for p in players if p.user_id in runs),
                  key=lambda s: (-s.points, s.offs, s.player.joined_at))
    at = places([(-s.points, s.offs) for s in rows])
    return [replace(s, place=p.no, tied=p.tied) for p, s in zip(at, rows, strict=True)]


@dataclass(frozen=True)
class Difference:
    """Where a participant's choices first left the best result's: the deal, his decision's
    number in it, his action and the best's (None when one of them had stopped there)."""

    deal: int
    seq: int
    his: str | None
    best: str | None


def first_difference(his: Sequence[ChallengeMove],
                     best: Sequence[ChallengeMove]) -> Difference | None:
    """The first point his decisions differ from the best's (up to there both saw the same
    game); None when they are the same throughout."""
    for a, b in zip(his, best, strict=False):  # equal choices so far: at the same decision
        if a.action != b.action:
            return Difference(a.deal, a.seq, a.action, b.action)
    if len(his) == len(best):
        return None
    longer = his if len(his) > len(best) else best
    extra = longer[min(len(his), len(best))]
    return Difference(extra.deal, extra.seq, extra.action if longer is his else None,
                      extra.action if longer is best else None)


def position_at(rules: RuleSet, seeds: Sequence[int], moves: Sequence[ChallengeMove],
                diff: Difference) -> Deal:
    """His game at the decision where he first differed: his moves before it replayed."""
    before = [m for m in moves if (m.deal, m.seq) < (diff.deal, diff.seq)]
    run = Run.rebuild(rules, seeds, before)
    return run.deals[min(diff.deal, len(run.deals) - 1)]
