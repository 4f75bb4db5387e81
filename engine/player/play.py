"""How the computer player decides, at every level: judge each legal action, take the best.

It sees only the seat's :class:`~engine.views.PrivateView` and the public events (those with
``visible_to is None``), never a :class:`~engine.state.Hand`. Each candidate is judged by the
holding it leaves (:mod:`engine.player.eval`): after a 吃 or 碰 by the best discard that must
follow, and a discard also by how likely the 下家 is to 吃 it or anyone to 碰 it
(:mod:`engine.player.info`). Wins are taken unless waiting is clearly worth much more.

A :class:`Style` holds what differs between the levels of :mod:`engine.player`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from engine import actions as A
from engine import analyzer, claims
from engine import cards as C
from engine.chi import chi_options
from engine.melds import FOUR_KINDS, Group, GroupKind
from engine.player.eval import DEFAULT, Evaluator, Holding, Weights
from engine.player.info import Knowledge, read
from engine.rules import RuleSet, get_rule_set
from engine.views import Event, OfferHow, PrivateView

_TIE = 1e-9
_WAIT_MIN_STOCK = 8  # never decline a win with fewer cards left to draw
_LONE = 1.0  # a discard that lowers the hand's value less than this is a lone card (孤张)


@dataclass(frozen=True)
class Style:
    """One level's way of playing."""

    weights: Weights = field(default=DEFAULT)
    wait_factor: float = 3.0  # decline a win only when waiting is worth this many times it
    # A discard among the best ``lookahead`` (0: none) also gains ``look_weight`` times what
    # the next card is expected to add to the holding it leaves (see Table.next_card_gain).
    lookahead: int = 0
    look_weight: float = 1.0
    # A move that leaves the hand 听 (a discard, or a 吃/碰/过 with the discard to follow) also
    # gains ``win_weight`` times the points the next face-up card is expected to win it: each
    # live winning card's win, 胡息 and 名堂 and all (Table.win_worth).
    win_weight: float = 0.0
    # A correction of the judged values, given what was read of the table (the bench's trial
    # strong-learned's is distilled from the search: bench/learned_player.py).
    correct: Callable[[Table, list[Choice]], list[Choice]] | None = None
    # Weights of their own for the rule sets (by RuleSet.id) where others play better.
    rule_weights: tuple[tuple[str, Weights], ...] = ()

    def weights_for(self, rules: RuleSet) -> Weights:
        """The weights this style plays ``rules`` with."""
        return dict(self.rule_weights).get(rules.id, self.weights)


@dataclass(frozen=True)
class Choice:
    """A judged candidate: the action, its value, and what the reason is built from."""

    action: str
    value: float
    why: str  # reason code: a key of _WORDS, or discard / take
    args: tuple = ()


def best(view: PrivateView, public_events: Sequence[Event], style: Style) -> list[Choice]:
    """The top-valued candidates (exact ties kept, in legal order)."""
    return _ties(judge(view, public_events, style))


def ranked(judged: list[Choice]) -> list[Choice]:
    """``judged`` best first, led by :func:`best`'s candidates in legal order (values within a
    rounding error of the top count as tied), so that the first is what the level chooses
    without an rng."""
    top = _ties(judged)
    rest = sorted((c for c in judged if c not in top), key=lambda c: -c.value)
    return [*top, *rest]


def _ties(judged: list[Choice]) -> list[Choice]:
    tied = set(tied_for_best([(c.action, c.value) for c in judged]))
    return [c for c in judged if c.action in tied]


def tied_for_best(values: Sequence[tuple[str, float]]) -> list[str]:
    """The actions of ``values`` whose value is the top's, up to a rounding error (so sums
    added in another order tie), in the order given: the first is what the level chooses."""
    top = max(v for _, v in values)
    return [a for a, v in values if v >= top - _TIE]


# ----- decisions ----------------------------------------------------------------------------


class Table:
    """Everything one decision needs, read once from the view and the public record."""

    def __init__(self, view: PrivateView, events: Sequence[Event], style: Style) -> None:
        self.view = view
        self.rules: RuleSet = get_rule_set(view.public.rule_set)
        self.know: Knowledge = read(view, events)
        self.style = style
        self.w = weights = style.weights_for(self.rules)
        self.hand = C.counts(view.hand)
        self.melds = tuple(Group(m.kind, tuple(m.cards)) for m in view.melds)  # type: ignore[arg-type]
        self.chou = frozenset(view.chou)
        self.eval = Evaluator(self.rules, self.know.unseen, weights)

    def danger(self, kind: int) -> tuple[float, float, float]:
        """(total danger, 碰 risk, 吃 risk) of discarding ``kind``."""
        peng, chi = self.know.peng_risk(kind), self.know.chi_risk(kind)
        return self.w.peng_danger * peng + self.w.chi_danger * chi, peng, chi

    def discard_choice(self, hand: list[int], melds: tuple[Group, ...], kind: int) -> Choice:
        """A discard of ``kind`` (judged with the 臭 set as it is now, so that every
        candidate shares one search memo; the discarded kind's own waits are few)."""
        rest = list(hand)
        rest[kind] -= 1
        score = self.eval.score(Holding(tuple(rest), melds, self.chou))
        danger, peng, chi = self.danger(kind)
        return Choice(A.discard(kind), score.value - danger, "discard",
                      (kind, hand[kind], score.value, peng, chi, self.know.unseen[kind],
                       score.win_cards))

    def next_card_gain(self, rest: list[int], melds: tuple[Group, ...], kept: float) -> float:
        """What the next face-up card adds to a holding worth ``kept``, in expectation over the
        cards this seat has not seen: a card that makes a 门子 with two hand cards (a 吃 or a
        碰 / 偎) may be taken, and is when the hand with it is worth more; any other card adds
        nothing."""
        gain = 0.0
        for c, n in enumerate(self.know.unseen):
            if not n or rest[c] >= 3 or not (rest[c] == 2 or chi_options(rest, c)):
                continue
            more = list(rest)
            more[c] += 1
            score = self.eval.score(Holding(tuple(more), melds, self.chou), waits=False)
            gain += n * max(0.0, score.value - kept)
        return gain / max(1, self.know.pool)

    def win_worth(self, rest: list[int], melds: tuple[Group, ...]) -> float:
        """The points the next face-up card is expected to win a 听 holding: each live
        winning card's win (its 胡息 and 名堂), over the cards this seat has not seen."""
        worth = 0.0
        for k, n in enumerate(self.know.unseen):
            if n:
                win = analyzer.analyze(self.rules, rest, melds, k, source="other",
                                       base=self.rules.default_base, checked=False)
                if win is not None:
                    worth += n * win.winner_points
        return worth / max(1, self.know.pool)

    def after_take(self, hand: list[int], melds: tuple[Group, ...]) -> float:
        """Value after a 吃/碰: the best discard that must follow, if one must."""
        ti_pao = sum(1 for g in melds if g.kind in FOUR_KINDS)
        total = sum(hand) + sum(len(g.cards) for g in melds)
        discardable = [k for k, n in enumerate(hand) if 0 < n < 3]
        if total > self.rules.discard_threshold(ti_pao) and discardable:
            return max(self.ready_bonus(self.discard_choice(hand, melds, k), hand, melds)
                       for k in discardable)
        score = self.eval.score(Holding(tuple(hand), melds, self.chou))
        return score.value + self.worth_if_ready(score.win_cards, hand, melds)

    def ready_bonus(self, c: Choice, hand: list[int], melds: tuple[Group, ...]) -> float:
        """A discard's value with ``win_weight`` times what the next face-up card is expected
        to win the 听 holding it leaves."""
        if not c.args[6]:
            return c.value
        rest = list(hand)
        rest[c.args[0]] -= 1
        return c.value + self.worth_if_ready(c.args[6], rest, melds)

    def worth_if_ready(self, win_cards: int, hand: list[int], melds: tuple[Group, ...]) -> float:
        weight = self.style.win_weight
        return weight * self.win_worth(hand, melds) if weight and win_cards else 0.0


def judge(view: PrivateView, events: Sequence[Event], style: Style) -> list[Choice]:
    """One judged candidate per legal action, in legal order.

    When a win is on offer the values are points: the win's, against waiting (worth
    :func:`wait_value` divided by the style's ``wait_factor``, 0 where declining is out of the
    question); a 吃 or 碰 in place of the win is worth a point less than waiting. Otherwise
    they are the evaluation's units (:mod:`engine.player.eval`).
    """
    return judge_counted(view, events, style)[0]


def judge_counted(view: PrivateView, events: Sequence[Event],
                  style: Style) -> tuple[list[Choice], int]:
    """:func:`judge`, and the readings its evaluation made (``Evaluator.memo_size``): what
    the judgement cost, counted without a clock (its evaluator lives for this decision)."""
    t, judged = judge_table(view, events, style)
    return judged, t.eval.memo_size()


def judge_table(view: PrivateView, events: Sequence[Event],
                style: Style) -> tuple[Table, list[Choice]]:
    """:func:`judge`, and what it read of the table (for the bench's trial correction,
    bench/learned_player.py)."""
    if not view.legal:
        raise ValueError("no decision is awaited from this seat")
    t = Table(view, events, style)
    judged = _judge(t)
    return t, style.correct(t, judged) if style.correct else judged


def _judge(t: Table) -> list[Choice]:
    style, legal = t.style, t.view.legal
    if A.HU in legal:
        return _win_or_wait(t)
    if all(a.startswith("d:") for a in legal):
        judged = [t.discard_choice(t.hand, t.melds, A.parse(a).card) for a in legal]  # type: ignore[arg-type]
        if style.win_weight:
            judged = [replace(c, value=t.ready_bonus(c, t.hand, t.melds)) for c in judged]
        if style.lookahead:
            judged = _look_ahead(t, judged)
        kept = t.eval.score(Holding(tuple(t.hand), t.melds, t.chou)).value
        return [replace(c, args=(*c.args, kept)) for c in judged]
    return [_claim_choice(t, a) for a in legal]


def _look_ahead(t: Table, judged: list[Choice]) -> list[Choice]:
    """The best ``style.lookahead`` discards, each raised by what the next card is expected to
    add to the holding it leaves (the others stay as they are: below the best by more than
    any gain they could have, in practice)."""
    top = sorted(range(len(judged)), key=lambda i: -judged[i].value)[: t.style.lookahead]
    out = list(judged)
    for i in top:
        c = judged[i]
        rest = list(t.hand)
        rest[c.args[0]] -= 1
        gain = t.next_card_gain(rest, t.melds, c.args[2])
        out[i] = replace(c, value=c.value + t.style.look_weight * gain)
    return out


def _claim_choice(t: Table, action: str) -> Choice:
    offer = t.view.public.offer
    assert offer is not None
    card = offer.card
    if action == A.PASS:
        passed = t.eval.score(Holding(tuple(t.hand), t.melds, t.chou | {card}))
        ready = t.worth_if_ready(passed.win_cards, t.hand, t.melds)
        return Choice(action, passed.value + ready, "pass")
    hand = list(t.hand)
    if action == A.PENG:
        hand[card] -= 2
        melds = (*t.melds, Group(GroupKind.PENG, (card,) * 3))
    else:
        groups = A.parse(action).groups
        used = [k for g in groups for k in g]
        used.remove(card)
        for k in used:
            hand[k] -= 1
        melds = (*t.melds, *(Group(GroupKind.CHI, g) for g in groups))
    gained = sum(g.huxi for g in melds) - sum(g.huxi for g in t.melds)
    return Choice(action, t.after_take(hand, melds) + t.w.tempo, "take", (gained,))


def _win_or_wait(t: Table) -> list[Choice]:
    """Win, unless this is a small win on another seat's or one's own drawn card while the
    hand, kept, wins on many live cards for far more (the declined kind turns 臭胡)."""
    view, offer = t.view, t.view.public.offer
    tianhu = offer is not None and offer.how == OfferHow.LIANG
    source: analyzer.Source
    if offer is None or (tianhu and offer.seat == view.seat):
        card, source = None, "self"  # 自摸 after a 提/偎, or the dealer's own 21 cards
    else:
        card, source = offer.card, claims.source(offer, view.seat)
    stock = view.public.stock_count
    now = analyzer.analyze(t.rules, t.hand, t.melds, card, source=source, haidi=stock == 0,
                           tianhu=tianhu)
    if now is None:  # cannot happen for a legal 胡; win all the same
        win = Choice(A.HU, 1.0, "win_plain")
    else:
        win = Choice(A.HU, float(now.winner_points), "win", (now.huxi, now.winner_points))
    wait = Choice(A.PASS, 0.0, "pass")
    if now is not None and card is not None and not tianhu and stock >= _WAIT_MIN_STOCK:
        worth = wait_value(t.rules, t.hand, t.melds, card, t.know.unseen, stock)
        wait = Choice(A.PASS, worth / t.style.wait_factor, "wait",
                      (now.winner_points, round(worth)))
    other = Choice("", wait.value - 1.0, "take", (0,))
    return [win if a == A.HU else wait if a == A.PASS else replace(other, action=a)
            for a in view.legal]


def wait_value(rules: RuleSet, hand: Sequence[int], melds: Sequence[Group], declined: int,
               unseen: Sequence[int], stock: int) -> float:
    """Rough worth of keeping the hand instead of winning now on ``declined``: the chance that
    a winning card turns up face up in the rest of the stock, times the average win on it,
    halved for the other seats' chances to win first."""
    live = points = 0
    for k in range(C.KINDS):
        if k == declined or not unseen[k]:
            continue
        w = analyzer.analyze(rules, hand, melds, k, source="other")
        if w is not None:
            live += unseen[k]
            points += unseen[k] * w.winner_points
    pool = sum(unseen)
    if not live or not pool:
        return 0.0
    chance = 1.0 - (1.0 - live / pool) ** stock
    return 0.5 * chance * points / live


# ----- reasons ------------------------------------------------------------------------------

_SEP = {"zh": "：", "en": ": "}
_WORDS = {
    "zh": {
        "single": "孤张", "pair": "拆对", "part": "拆最弱的搭子",
        "ready": "听 {0} 张",
        "chi": "吃后牌型更好", "peng": "碰后牌型更好", "take_huxi": "得 {0} 胡息",
        "pass": "不吃不碰，留住好牌",
        "win": "{0} 胡息，赢 {1} 分", "win_plain": "能胡就胡", "wait": "现在只赢 {0} 分，等大胡约 {1} 分",
    },
    "en": {
        "single": "a lone card", "pair": "breaks a pair", "part": "breaks the weakest partial",
        "ready": "ready, {0} winning card(s) left",
        "chi": "the hand is better after it", "peng": "the hand is better after it",
        "take_huxi": "+{0} 胡息",
        "pass": "keeps the better hand",
        "win": "{0} 胡息, wins {1} points", "win_plain": "a win is a win", "wait": "only {0} points now, waiting is worth ~{1}",
    },
}


def reason(c: Choice, lang: str = "zh") -> str:
    """One line on why ``c`` was chosen, e.g. ``孤张，听 3 张`` (``lang`` zh or en, else zh)."""
    words = _WORDS.get(lang, _WORDS["zh"])
    sep = "，" if lang == "zh" else ", "
    if c.why == "discard":
        _, count, left, _, _, _, win_cards, kept = c.args
        if count == 2:
            what = words["pair"]
        elif kept - left < _LONE:  # the card adds next to nothing to the hand
            what = words["single"]
        else:
            what = words["part"]
        # only what the choice weighed: the strong level gives who may 吃/碰 it no weight
        ready = f"{sep}{words['ready'].format(win_cards)}" if win_cards else ""
        return f"{what}{ready}"
    if c.why == "take":
        gained = c.args[0]
        what = words["peng"] if c.action == A.PENG else words["chi"]
        return what + (f"{sep}{words['take_huxi'].format(gained)}" if gained else "")
    return words[c.why].format(*c.args)
