"""Playing an imagined world to its end, quickly: every seat by a greedy judgement of its cards.

A searching player (:mod:`engine.player.search`) plays each of its candidate moves on to the
end of the hand in worlds it imagined (:mod:`engine.player.worlds`). There every seat's cards
are known, so the rollout's players read their own cards straight from the world's
:class:`~engine.state.Hand` (a view costs more than the whole judgement). Each takes a win
when it can and otherwise the move that leaves the best holding by the strong level's
evaluation (:mod:`engine.player.eval`), without its look ahead or reading of the record: the
strong player's judgement at a fraction of its cost.
"""

from __future__ import annotations

from engine import actions as A
from engine import cards as C
from engine.claims import chi_used
from engine.melds import FOUR_KINDS, Group, GroupKind
from engine.player.eval import READING_COST, Evaluator, Holding, Weights
from engine.rules import RuleSet
from engine.state import Hand, cards_of, offer_of

_NONE: frozenset[int] = frozenset()
_Key = tuple[tuple[int, ...], int, int, bool]

# What a rollout costs, in rough microseconds of one core, counted without a clock: a move
# played (the rules' work and the player's, but the evaluation's search) and a reading the
# evaluation's search newly made (eval.READING_COST). Fitted by least squares to the CPU
# time of master's decisions at qq (bench/bench_duel.py's way of timing).
MOVE_COST = 380


class Rollout:
    """The rollout's players for one decision: one :class:`Evaluator` shared by every seat,
    world and candidate, its holdings' values memoised across them. Every kind counts as
    fully live (the rollout's players do not count cards). The memo lives no longer than the
    decision, so that what a decision costs (:attr:`work`) is a function of its inputs."""

    def __init__(self, rules: RuleSet, weights: Weights) -> None:
        self.eval = Evaluator(rules, (C.COPIES,) * C.KINDS, weights)
        self.values: dict[_Key, float] = {}
        self.threshold = rules.discard_threshold
        self.moves = 0

    @property
    def work(self) -> int:
        """What the rollouts have cost so far, in rough microseconds, without a clock."""
        return MOVE_COST * self.moves + READING_COST * self.eval.memo_size()

    def play(self, hand: Hand, seat: int) -> int:
        """Play ``hand`` to its end; ``seat``'s points."""
        while not hand.is_terminal():
            s = hand.to_act()[0]
            hand.apply(s, self.act(hand, s))
            self.moves += 1
        return hand.returns()[seat]

    def act(self, hand: Hand, seat: int) -> str:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if A.HU in legal:
            return A.HU
        cards, melds = cards_of(hand, seat)
        if legal[0].startswith("d:"):
            return max(legal, key=lambda a: self._after_discard(cards, melds,
                                                                 A.parse(a).card))  # type: ignore[arg-type]
        offer = offer_of(hand)
        assert offer is not None
        return max(legal, key=lambda a: self._after_claim(cards, melds, offer.card, a))

    def value(self, cards: tuple[int, ...] | list[int], melds: tuple[Group, ...]) -> float:
        """The holding's value. The strong weights count a wait on a 臭 kind in full
        (``chou_live`` 1), so the seat's 臭 kinds are left out: every holding of every seat
        then shares one memo of readings."""
        hand = tuple(cards)
        # all the value reads of the melds: how many, their 胡息, whether a 将 is needed (ints
        # only: a memo of tuples of ints is left alone by the garbage collector's scans)
        key = (hand, len(melds), sum(g.huxi for g in melds),
               any(g.kind in FOUR_KINDS for g in melds))
        got = self.values.get(key)
        if got is None:
            got = self.values[key] = self.eval.score(Holding(hand, melds, _NONE),
                                                     waits=False).value
        return got

    def _after_discard(self, cards: tuple[int, ...], melds: tuple[Group, ...],
                       kind: int) -> float:
        rest = list(cards)
        rest[kind] -= 1
        return self.value(rest, melds)

    def _after_claim(self, cards: tuple[int, ...], melds: tuple[Group, ...], card: int,
                     action: str) -> float:
        if action == A.PASS:
            return self.value(cards, melds)
        hand = list(cards)
        if action == A.PENG:
            hand[card] -= 2
            melds = (*melds, Group(GroupKind.PENG, (card,) * 3))
        else:
            groups = A.parse(action).groups
            for k in chi_used(groups, card):
                hand[k] -= 1
            melds = (*melds, *(Group(GroupKind.CHI, g) for g in groups))
        ti_pao = sum(1 for g in melds if g.kind in FOUR_KINDS)
        total = sum(hand) + sum(len(g.cards) for g in melds)
        discardable = [k for k, n in enumerate(hand) if 0 < n < 3]
        if total > self.threshold(ti_pao) and discardable:
            return max(self._after_discard(tuple(hand), melds, k) for k in discardable)
        return self.value(hand, melds)
