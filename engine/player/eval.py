"""How good a holding is for the computer player: one number, larger is better.

A holding is a seat's hand (count vector), its table melds and its 臭 kinds. Its value is
the best reading of the free hand cards (all but the 坎) into at most the 门子 still missing:
complete 一句话 / 绞, pairs (a 碰 / 偎 to come, or the 将 when a 提 / 跑 needs one) and
two-card partials, each partial worth more the more live copies of the cards it waits on
remain unseen. 胡息 count on top, and a reading whose 胡息 stays short of the table's 起胡
(``rules.min_huxi``: 15 unless a house rule sets another) is penalised. A hand that already wins on some live card gets a bonus per winning copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine import analyzer
from engine import cards as C
from engine.melds import FOUR_KINDS, Group
from engine.rules import RuleSet


@dataclass(frozen=True)
class Weights:
    """The evaluation's knobs. The defaults are the ``medium`` level's, tuned by matches of one
    variant against two default policies (600–900 hands each); the ``strong`` level's, found by
    duplicate-deal duels, are in :mod:`engine.player` with their figures."""

    group: float = 10.0  # a complete 门子: table meld, 坎, free 一句话 / 绞, 将
    partial: float = 2.0  # a two-card partial or pair that still has live waits
    per_wait: float = 1.0  # per live copy a partial waits on (counted up to 4)
    pair: float = 1.5  # pairs also take a 碰 from anybody's card
    huxi: float = 1.2  # per 胡息 of complete groups (partials: by their chance)
    deficit: float = 2.0  # per 胡息 the best reading falls short of the minimum
    ready: float = 8.0  # the hand already wins on some card
    per_win_card: float = 2.0  # per live copy it wins on (counted up to 8)
    chou_live: float = 0.3  # a wait on a 臭 kind: only a 偎 or the winning card can use it
    peng_danger: float = 2.0  # discarding a card an opponent may 碰 / 跑
    chi_danger: float = 1.5  # discarding a card the 下家 may 吃
    tempo: float = 2.0  # taking a card in by 吃 / 碰 (a card more in play)


DEFAULT = Weights()


@dataclass(frozen=True)
class Holding:
    hand: tuple[int, ...]  # count vector, 坎 included
    melds: tuple[Group, ...]
    chou: frozenset[int]


@dataclass(frozen=True)
class Score:
    value: float
    huxi: float  # 胡息 of the reading (partials by their chance)
    complete: int  # complete 门子 of the reading, table and 坎 included
    win_cards: int  # live copies the hand wins on (0 when not ready)


# A partial: (cards it takes from the hand, kinds it waits on, 胡息 when completed).
_Partial = tuple[tuple[int, ...], tuple[int, ...], int]


@cache
def _completes(k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Complete free groups whose lowest kind is ``k``: (cards, 胡息)."""
    pt, big = C.point(k), C.is_big(k)
    out: list[tuple[tuple[int, ...], int]] = []
    if pt <= 8:
        out.append(((k, k + 1, k + 2), (6 if big else 3) if pt == 1 else 0))
    if pt == 2:
        out.append(((k, k + 5, k + 8), 6 if big else 3))
    if not big:
        out.append(((k, k, k + 10), 0))
        out.append(((k, k + 10, k + 10), 0))
    return tuple(out)


@cache
def _partials(k: int) -> tuple[_Partial, ...]:
    """Two-card partials whose lowest kind is ``k`` (pairs excluded)."""
    pt, big = C.point(k), C.is_big(k)
    hx = 6 if big else 3
    out: list[_Partial] = []
    if pt <= 9:
        waits = tuple(w for w, ok in ((k - 1, pt >= 2), (k + 2, pt <= 8)) if ok)
        out.append(((k, k + 1), waits, hx if pt in (1, 2) else 0))
    if pt <= 8:
        out.append(((k, k + 2), (k + 1,), hx if pt == 1 else 0))
    if pt == 2:
        out.append(((k, k + 5), (k + 8,), hx))
        out.append(((k, k + 8), (k + 5,), hx))
    if pt == 7:
        out.append(((k, k + 3), (k - 5,), hx))
    if not big:
        out.append(((k, k + 10), (k, k + 10), 0))
    return tuple(out)


# One way to use the lowest free kind: (packed cards taken, checks (shift, minimum count),
# value, 胡息, complete groups, slots used, uses the 将).
_Option = tuple[int, tuple[tuple[int, int], ...], float, float, int, int, bool]


@cache
def _packed(cards: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Packed amount of ``cards`` (2 bits per kind) and the counts they need."""
    need: dict[int, int] = {}
    for k in cards:
        need[k] = need.get(k, 0) + 1
    return sum(n << (2 * k) for k, n in need.items()), tuple((2 * k, n) for k, n in need.items())


# What a reading of the free cards costs (one entry newly memoised, :meth:`Evaluator.memo_size`),
# in rough microseconds of one core: the searching level counts its work without a clock, the
# judgement's readings and its rollouts' alike (engine.player.search). One reading is the same
# search wherever it is made; fitted by least squares to the CPU time of master's decisions at
# qq, the judgement's readings cost 5.5, the rollouts' 5.9, both in one fit 5.7 and 6.3
# (docs/player.md).
READING_COST = 6


class Evaluator:
    """Scores holdings for one decision: the unseen counts are fixed, so readings are shared.

    The free cards are packed 2 bits per kind (a free kind holds at most 2: 3 make a 坎) and
    searched lowest kind first, memoised per 臭 set.
    """

    def __init__(self, rules: RuleSet, unseen: Sequence[int], weights: Weights = DEFAULT):
        self.rules = rules
        self.unseen = tuple(unseen)
        self.w = weights
        self._tables: dict[frozenset[int], tuple[tuple[tuple[_Option, ...], ...], dict]] = {}

    def score(self, h: Holding, *, waits: bool = True) -> Score:
        """The holding's :class:`Score`. ``waits=False`` skips counting its winning cards
        where the weights give them no value (``win_cards`` is then 0, ``value`` the same)."""
        w = self.w
        kans = [k for k, n in enumerate(h.hand) if n >= 3]
        fixed_huxi = sum(g.huxi for g in h.melds) + sum(6 if C.is_big(k) else 3 for k in kans)
        fixed = len(h.melds) + len(kans)
        slots = max(0, self.rules.groups_to_win - fixed)
        need_jiang = any(g.kind in FOUR_KINDS for g in h.melds)
        x = sum((0 if n >= 3 else n) << (2 * k) for k, n in enumerate(h.hand))
        options, memo = self._table(h.chou)
        value, huxi, complete = _search(x, slots, need_jiang, options, memo)
        total_huxi = fixed_huxi + huxi
        value += fixed * w.group + w.huxi * fixed_huxi
        value -= w.deficit * max(0.0, self.rules.min_huxi - total_huxi)
        win_cards = 0
        counted = waits or w.ready or w.per_win_card
        if counted and fixed + complete >= self.rules.groups_to_win - 1:
            win_cards = self._wins(h)
            if win_cards:
                value += w.ready + w.per_win_card * min(win_cards, 8)
        return Score(value, total_huxi, fixed + complete, win_cards)

    def memo_size(self) -> int:
        """Readings memoised so far (a long-lived evaluator is renewed past a limit)."""
        return sum(len(memo) for _, memo in self._tables.values())

    def _wins(self, h: Holding) -> int:
        """Live copies of the kinds this holding wins on (as another seat's card)."""
        copies = 0
        base = self.rules.default_base
        own = list(h.hand)  # a holding judged with one card more may use up a last copy
        for g in h.melds:
            for k in g.cards:
                own[k] += 1
        for k in range(C.KINDS):
            if self.unseen[k] and own[k] < C.COPIES:
                win = analyzer.analyze(self.rules, h.hand, h.melds, k, source="other", base=base)
                if win is not None:
                    copies += self.unseen[k]
        return copies

    def _table(self, chou: frozenset[int]) -> tuple[tuple[tuple[_Option, ...], ...], dict]:
        got = self._tables.get(chou)
        if got is None:
            live = [u * (self.w.chou_live if k in chou else 1.0) for k, u in enumerate(self.unseen)]
            got = (tuple(self._options(k, live) for k in range(C.KINDS)), {})
            self._tables[chou] = got
        return got

    def _options(self, k: int, live: Sequence[float]) -> tuple[_Option, ...]:
        w = self.w
        out: list[_Option] = []
        for cards, group_hx in _completes(k):
            sub, checks = _packed(cards)
            out.append((sub, checks, w.group + w.huxi * group_hx, group_hx, 1, 1, False))
        pair_sub, pair_checks = _packed((k, k))
        out.append((pair_sub, pair_checks, w.group, 0.0, 1, 1, True))
        waits = live[k] + live[(k + 10) % 20]
        if waits:
            hx = (4.5 if C.is_big(k) else 2.0) * min(waits, 4.0) / 4.0
            gain = w.partial * min(waits, 1.0) + (w.per_wait + w.pair) * min(waits, 4.0)
            out.append((pair_sub, pair_checks, gain + w.huxi * hx, hx, 0, 1, False))
        for cards, waits_on, full_hx in _partials(k):
            waits = sum(live[x] for x in waits_on)
            if waits:
                sub, checks = _packed(cards)
                hx = full_hx * min(waits, 4.0) / 4.0
                gain = w.partial * min(waits, 1.0) + w.per_wait * min(waits, 4.0)
                out.append((sub, checks, gain + w.huxi * hx, hx, 0, 1, False))
        return tuple(out)


def _search(
    x: int, slots: int, jiang: bool, options: tuple[tuple[_Option, ...], ...], memo: dict
) -> tuple[float, float, int]:
    """Best (value, 胡息, complete groups) reading of packed ``x`` into ``slots`` 门子."""
    if not x or not slots:
        return (0.0, 0.0, 0)
    key = (x << 4 | slots) << 1 | jiang
    got = memo.get(key)
    if got is not None:
        return got
    s = (x & -x).bit_length() - 1
    s -= s & 1
    best = _search(x - (1 << s), slots, jiang, options, memo)  # the lowest card left single
    for sub, checks, gain, hx, comp, used, is_jiang in options[s >> 1]:
        if is_jiang and not jiang:
            continue
        for shift, need in checks:
            if (x >> shift) & 3 < need:
                break
        else:
            v, h, c = _search(x - sub, slots - used, jiang and not is_jiang, options, memo)
            if v + gain > best[0]:
                best = (v + gain, h + hx, c + comp)
    memo[key] = best
    return best
