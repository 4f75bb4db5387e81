"""A computer player: picks one of a seat's legal actions from what that seat may know.

It sees only the seat's :class:`~engine.views.PrivateView` and the public events (those with
``visible_to is None``), never a :class:`~engine.state.Hand`. Each candidate is judged by the
holding it leaves (:mod:`engine.policy_eval`): after a 吃 or 碰 by the best discard that must
follow, and a discard also by how likely the 下家 is to 吃 it or anyone to 碰 it
(:mod:`engine.policy_info`). Wins are taken unless waiting is clearly worth much more.

Used by the bot for added computer players, 托管 and the 提示 hint::

    action = choose(view, public_events, rng)        # rng only breaks exact ties
    action, reason = explain(view, public_events, lang="zh")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine import actions as A
from engine import analyzer
from engine import cards as C
from engine.melds import FOUR_KINDS, Group, GroupKind
from engine.policy_eval import DEFAULT, Evaluator, Holding, Weights
from engine.policy_info import Knowledge, read
from engine.rules import RuleSet, get_rule_set
from engine.views import Event, OfferHow, PrivateView

_TIE = 1e-9
_WAIT_MIN_STOCK = 8  # never decline a win with fewer cards left to draw
_WAIT_FACTOR = 3.0  # decline only when waiting is worth this many times the win now
_LONE = 1.0  # a discard that lowers the hand's value less than this is a lone card (孤张)


@dataclass(frozen=True)
class Choice:
    """A judged candidate: the action, its value, and what the reason is built from."""

    action: str
    value: float
    why: str  # reason code: a key of _WORDS, or discard / take
    args: tuple = ()


def choose(
    view: PrivateView,
    public_events: Sequence[Event],
    rng: random.Random | None = None,
    *,
    weights: Weights = DEFAULT,
) -> str:
    """The policy's action: one of ``view.legal``. ``rng`` breaks exact ties (else the first)."""
    best = _best_choices(view, public_events, weights)
    if rng is None or len(best) == 1:
        return best[0].action
    return rng.choice(best).action


def explain(
    view: PrivateView, public_events: Sequence[Event], lang: str = "zh"
) -> tuple[str, str]:
    """(action, one-line reason) for the 提示 hint, e.g. ``("d:x9", "出 九：孤张，下家难吃")``.

    ``lang`` is ``"zh"`` or ``"en"`` (game terms stay Chinese); anything else reads as zh.
    The action is ``choose`` without an rng (the first of exactly tied candidates).
    """
    lang = lang if lang in _WORDS else "zh"
    c = _best_choices(view, public_events, DEFAULT)[0]
    return c.action, f"{A.label(c.action, lang)}{_SEP[lang]}{_reason(c, lang)}"


# ----- decisions ----------------------------------------------------------------------------


class _Table:
    """Everything one decision needs, read once from the view and the public record."""

    def __init__(self, view: PrivateView, events: Sequence[Event], weights: Weights) -> None:
        self.view = view
        self.rules: RuleSet = get_rule_set(view.public.rule_set)
        self.know: Knowledge = read(view, events)
        self.w = weights
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

    def after_take(self, hand: list[int], melds: tuple[Group, ...]) -> float:
        """Value after a 吃/碰: the best discard that must follow, if one must."""
        ti_pao = sum(1 for g in melds if g.kind in FOUR_KINDS)
        total = sum(hand) + sum(len(g.cards) for g in melds)
        discardable = [k for k, n in enumerate(hand) if 0 < n < 3]
        if total > self.rules.discard_threshold(ti_pao) and discardable:
            return max(self.discard_choice(hand, melds, k).value for k in discardable)
        return self.eval.score(Holding(tuple(hand), melds, self.chou)).value


def _best_choices(view: PrivateView, events: Sequence[Event], weights: Weights) -> list[Choice]:
    """The top-valued candidates (ties kept, in legal order)."""
    legal = view.legal
    if not legal:
        raise ValueError("no decision is awaited from this seat")
    t = _Table(view, events, weights)
    if A.HU in legal:
        choices = [_win_or_wait(t)]
    elif all(a.startswith("d:") for a in legal):
        choices = [t.discard_choice(t.hand, t.melds, A.parse(a).card) for a in legal]  # type: ignore[arg-type]
        kept = t.eval.score(Holding(tuple(t.hand), t.melds, t.chou)).value
        choices = [replace(c, args=(*c.args, kept)) for c in choices]
    else:
        choices = [_claim_choice(t, a) for a in legal]
    top = max(c.value for c in choices)
    return [c for c in choices if c.value >= top - _TIE]


def _claim_choice(t: _Table, action: str) -> Choice:
    offer = t.view.public.offer
    assert offer is not None
    card = offer.card
    if action == A.PASS:
        passed = t.eval.score(Holding(tuple(t.hand), t.melds, t.chou | {card}))
        return Choice(action, passed.value, "pass")
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


def _win_or_wait(t: _Table) -> Choice:
    """Win, unless this is a small win on another seat's or one's own drawn card while the
    hand, kept, wins on many live cards for far more (the declined kind turns 臭胡)."""
    view, offer = t.view, t.view.public.offer
    tianhu = offer is not None and offer.how == OfferHow.LIANG
    if offer is None or (tianhu and offer.seat == view.seat):
        card, source = None, "self"  # 自摸 after a 提/偎, or the dealer's own 21 cards
    else:
        card, source = offer.card, "self" if offer.seat == view.seat else "other"
    stock = view.public.stock_count
    now = analyzer.analyze(t.rules, t.hand, t.melds, card, source=source, haidi=stock == 0,
                           tianhu=tianhu)
    if now is None:  # cannot happen for a legal 胡; win all the same
        return Choice(A.HU, 1.0, "win_plain")
    win = Choice(A.HU, 1.0, "win", (now.huxi, now.winner_points))
    if card is None or tianhu or stock < _WAIT_MIN_STOCK:
        return win
    wait = wait_value(t.rules, t.hand, t.melds, card, t.know.unseen, stock)
    if wait > _WAIT_FACTOR * now.winner_points:
        return Choice(A.PASS, 2.0, "wait", (now.winner_points, round(wait)))
    return win


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
        "safe": "无人能吃碰", "xia_hard": "下家难吃", "no_peng": "已见三张，碰不了",
        "peng_hard": "难被碰", "risky": "虽可能被吃碰，留着用处最小", "ready": "听 {0} 张",
        "chi": "吃后牌型更好", "peng": "碰后牌型更好", "take_huxi": "得 {0} 胡息",
        "pass": "不吃不碰，留住好牌",
        "win": "{0} 胡息，赢 {1} 分", "win_plain": "能胡就胡", "wait": "现在只赢 {0} 分，等大胡约 {1} 分",
    },
    "en": {
        "single": "a lone card", "pair": "breaks a pair", "part": "breaks the weakest partial",
        "safe": "nobody can 吃 or 碰 it", "xia_hard": "hard for the 下家 to 吃",
        "no_peng": "3 already seen, cannot be 碰-ed", "peng_hard": "unlikely to be 碰-ed",
        "risky": "may be 吃/碰-ed, but worth least to keep", "ready": "ready, {0} winning card(s) left",
        "chi": "the hand is better after it", "peng": "the hand is better after it",
        "take_huxi": "+{0} 胡息",
        "pass": "keeps the better hand",
        "win": "{0} 胡息, wins {1} points", "win_plain": "a win is a win", "wait": "only {0} points now, waiting is worth ~{1}",
    },
}


def _reason(c: Choice, lang: str) -> str:
    words = _WORDS[lang]
    sep = "，" if lang == "zh" else ", "
    if c.why == "discard":
        _, count, left, peng, chi, unseen, win_cards, kept = c.args
        if count == 2:
            what = words["pair"]
        elif kept - left < _LONE:  # the card adds next to nothing to the hand
            what = words["single"]
        else:
            what = words["part"]
        if peng < 0.02 and chi < 0.02:
            safety = words["safe"]
        elif unseen <= 1:
            safety = words["no_peng"]
        elif chi < 0.1:
            safety = words["xia_hard"]
        elif peng < 0.1:
            safety = words["peng_hard"]
        else:
            safety = words["risky"]
        ready = f"{sep}{words['ready'].format(win_cards)}" if win_cards else ""
        return f"{what}{sep}{safety}{ready}"
    if c.why == "take":
        gained = c.args[0]
        what = words["peng"] if c.action == A.PENG else words["chi"]
        return what + (f"{sep}{words['take_huxi'].format(gained)}" if gained else "")
    return words[c.why].format(*c.args)


# ----- values for the review ----------------------------------------------------------------

_POINTS_PER_UNIT = 0.25  # a holding's value (a 门子 is 10) read as points per hand, roughly


def evaluate(
    view: PrivateView,
    public_events: Sequence[Event],
    rng: random.Random | None = None,
    *,
    level: str = "strong",
) -> dict[str, float]:
    """This player's value of each action in ``view.legal`` (higher is better, comparable
    within one decision, roughly points per hand); ``choose`` picks an argmax. Deterministic:
    ``rng`` and ``level`` are accepted for the interface and not used by this player.

    A decision offering 胡 values the win at its points and every other answer at the wait
    (:func:`wait_value`, discounted by ``_WAIT_FACTOR``; nothing where ``_win_or_wait`` never
    waits); other decisions value each candidate's holding as ``_best_choices`` does.
    """
    legal = view.legal
    if not legal:
        raise ValueError("no decision is awaited from this seat")
    t = _Table(view, public_events, DEFAULT)
    if A.HU in legal:
        win = _win_or_wait(t)
        now = float(win.args[1] if win.why == "win" else win.args[0] if win.why == "wait" else 1)
        wait = 0.0
        offer = view.public.offer
        if _may_wait(t):
            assert offer is not None
            wait = wait_value(t.rules, t.hand, t.melds, offer.card, t.know.unseen,
                              view.public.stock_count) / _WAIT_FACTOR
        return {a: now if a == A.HU else wait for a in legal}
    if all(a.startswith("d:") for a in legal):
        choices = [t.discard_choice(t.hand, t.melds, A.parse(a).card) for a in legal]  # type: ignore[arg-type]
    else:
        choices = [_claim_choice(t, a) for a in legal]
    return {c.action: _POINTS_PER_UNIT * c.value for c in choices}


def _may_wait(t: _Table) -> bool:
    """Whether ``_win_or_wait`` would weigh waiting at all here."""
    offer = t.view.public.offer
    return (offer is not None and offer.how != OfferHow.LIANG
            and t.view.public.stock_count >= _WAIT_MIN_STOCK)
