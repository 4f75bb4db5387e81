"""复盘: a finished hand's decisions, each judged against the strong player from the seat's view.

The record (as ``/export`` writes it and ``python -m engine verify`` reads it) is replayed. A
log entry is a seat's *decision* when the engine asked that seat and offered it more than one
legal action; forced moves (提, 偎, 跑, draws) happen inside the engine and are not in the log,
and 逃跑 / 解散 entries are no decision. At each decision the strong player
(:func:`engine.player.evaluate`) values every legal action from exactly what the seat could
know then — its :class:`~engine.views.PrivateView` and the public events so far — so no
verdict uses a card the seat could not see, nor anything that happened later.

* **loss** of a decision, in points: where the seat played other than the strong player's
  choice, both moves are played out in the same deals of the hidden cards its view allows
  (:func:`engine.player.search.play_out`, as 大师 searches), and the loss is how many points
  the played move scored less on average over them (0 when it scored as much or more); for a
  win on offer, the values are points already (the win against waiting). 0 where the seat
  played the strong choice. So a loss means the same at every decision: points over played-out
  deals, never the judgement's own units, which only rank the moves of one decision.
* **rating** of a seat, 0–100: ``100 / (1 + mean loss per decision / RATING_SCALE)``, rounded.
  Playing like the strong player everywhere gives 100; losing ``RATING_SCALE`` points a
  decision on average gives 50; random play, the weak and the medium computer players score
  ``RATING_ANCHORS`` (which the 复盘's text quotes; ``bench/bench_review_rating.py``).
  ``None`` for a seat that had no real decision.
* **flags** (``Flag.kind``):

  - ``missed_win``: 胡 was legal and the seat did something else — every such decision, with
    what the win was worth; declining can be right, and the text says whether the strong
    player would also have declined;
  - ``broke_ting``: the seat was 听 just before the log entry that gave it this discard (its
    waits by :func:`engine.ting.ting`), some discard kept it 听 (``Ting.by_discard``) and the
    one played did not;
  - ``costly``: a loss of at least ``COSTLY_LOSS``.

The flags are independent: one decision can carry several.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import actions as A
from engine import analyzer, claims, player
from engine import cards as C
from engine.melds import Group
from engine.player.play import tied_for_best
from engine.player.search import Budget, play_out
from engine.record import FORMAT
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand
from engine.ting import ting
from engine.views import Event, OfferHow, PrivateView, Win

RATING_SCALE = 0.5  # mean loss per decision (points) at which the rating is 50
# What the played-out deals of one seat's review may cost (rough microseconds of one core, as
# engine.player.search counts work): its decisions off the strong choice share it alike, none
# more than a quarter, each at most WORLDS deals (bench/bench_review_rating.py times it).
REVIEW_WORK = 250_000
WORLDS = 16
# What the rating gives random play and the weak and medium computer players (the strong one,
# judged by itself, scores 100, and so does 大师 at the median): the medians over 40 seeded
# deals each of qq, hunan/4 and four14, measured by bench/bench_review_rating.py with the
# losses played out; the 复盘's text quotes them as the rating's anchor.
RATING_ANCHORS = {"random": 20, "weak": 24, "medium": 60}
COSTLY_LOSS = 2.0  # points: a choice at least this far below the best is flagged costly
TOP = 3  # moments the bot shows a player
KINDS = ("missed_win", "broke_ting", "costly")

_TEXTS = {
    "zh": {
        "missed_win": "没胡：{played}，放弃了 {points} 分的胡（{huxi} 胡息）",
        "missed_agree": "；强者也会等",
        "missed_disagree": "；强者会胡",
        "broke_ting": "拆了听：{played} 后不再听牌；{better} 仍听 {waits}",
        "costly": "{played}(应{better}),约少 {loss} 分",
        "costly_played_out": "{played}(应{better}):推演 {worlds} 局，平均约少 {loss} 分",
        "sep": "、",
    },
    "en": {
        "missed_win": "Declined 胡: {played} gave up a win worth {points} points ({huxi} 胡息)",
        "missed_agree": "; the strong player would wait too",
        "missed_disagree": "; the strong player would win",
        "broke_ting": "Broke 听: after {played} the hand is no longer 听; {better} kept it 听 on {waits}",
        "costly": "About {loss} points lost: {played} (better: {better})",
        "costly_played_out": "{loss} points less on average over {worlds} deals: {played} (better: {better})",
        "sep": " ",
    },
}
_STARTS = frozenset({"draw", "discard", "ti", "wei", "chouwei", "chi", "peng", "pao"})


@dataclass(frozen=True)
class Decision:
    """One decision of one seat: ``step`` is the index of the seat's action in the log."""

    seat: int
    step: int
    values: tuple[tuple[str, float], ...]  # every legal action with its value, in legal order
    best: str  # the strong player's choice (the first best in legal order)
    played: str
    view: PrivateView  # what the seat could see, for the picture of this moment
    # points the played move scored less than the best over ``worlds`` played-out deals (None:
    # not played out, the values are points: a win on offer, or the best was played)
    lost: float | None = None
    worlds: int = 0

    @property
    def move_no(self) -> int:
        """The move's number as players read it, counted from 1: the /replay step that
        shows it played (``step`` is its index in the log)."""
        return self.step + 1

    @property
    def value(self) -> Mapping[str, float]:
        return dict(self.values)

    @property
    def loss(self) -> float:
        if self.lost is not None:
            return self.lost
        v = self.value
        return max(0.0, v[self.best] - v[self.played])

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "values": {a: round(x, 2) for a, x in self.values},
            "best": self.best,
            "played": self.played,
            "loss": round(self.loss, 2),
            "worlds": self.worlds,
        }


@dataclass(frozen=True)
class Flag:
    """A moment worth showing. ``better``: the move to mark on its picture (None when the
    strong player agrees with the seat, as for a win it would also have declined)."""

    seat: int
    step: int
    kind: str  # one of KINDS
    text: str
    better: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "kind": self.kind, "text": self.text,
                "better": self.better}


@dataclass(frozen=True)
class SeatReview:
    seat: int
    decisions: tuple[Decision, ...]

    @property
    def rating(self) -> int | None:
        """0–100 (see the module docstring); None without a real decision."""
        if not self.decisions:
            return None
        mean = sum(d.loss for d in self.decisions) / len(self.decisions)
        return round(100 / (1 + mean / RATING_SCALE))

    def costliest(self, n: int = TOP) -> tuple[Decision, ...]:
        """The ``n`` decisions that lost most (ties: the earlier first); none that lost nothing."""
        lost = [d for d in self.decisions if d.loss > 0]
        return tuple(sorted(lost, key=lambda d: (-d.loss, d.step))[:n])

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rating": self.rating,
            "loss": round(sum(d.loss for d in self.decisions), 2),
            "costliest": [d.step for d in self.costliest()],
            "decisions": [d.to_dict() for d in self.decisions],
        }


@dataclass(frozen=True)
class Review:
    rules: str
    lang: str
    steps: int  # entries in the record's log
    seats: tuple[SeatReview, ...]  # the seats reviewed, in seat order
    flags: tuple[Flag, ...]  # in log order

    def seat(self, seat: int) -> SeatReview:
        """The seat's review; ``KeyError`` for a seat not reviewed."""
        for r in self.seats:
            if r.seat == seat:
                return r
        raise KeyError(f"seat {seat} was not reviewed")

    def decision(self, seat: int, step: int) -> Decision:
        """The seat's decision at ``step``; ``KeyError`` when that entry was none of its."""
        for d in self.seat(seat).decisions:
            if d.step == step:
                return d
        raise KeyError(f"step {step} is no decision of seat {seat}")

    def flags_of(self, seat: int) -> tuple[Flag, ...]:
        return tuple(f for f in self.flags if f.seat == seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "lang": self.lang,
            "steps": self.steps,
            "rating_scale": RATING_SCALE,
            "costly_loss": COSTLY_LOSS,
            "seats": [r.to_dict() for r in self.seats],
            "flags": [f.to_dict() for f in self.flags],
        }


# ----- the review ---------------------------------------------------------------------------


def record_hand(record_or_hand: Mapping[str, Any] | Hand) -> Hand:
    """The finished hand of a record (or a :class:`Hand`, whose log is replayed afresh);
    ``ValueError`` for what is not a hand record, or a hand that has not ended (its cards are
    still secret)."""
    if isinstance(record_or_hand, Hand):
        doc: Any = record_or_hand.to_dict()
    else:
        doc = record_or_hand
        if not isinstance(doc, Mapping) or doc.get("format", FORMAT) != FORMAT:
            raise ValueError(f'not a hand record (expected "format": "{FORMAT}")')
    keys = ("rules", "seed" if doc.get("seed") is not None else "deck", "dealer", "base", "log")
    hand = Hand.from_dict({k: doc[k] for k in keys if k in doc})
    if not hand.is_terminal():
        raise ValueError("the hand has not ended: its cards are still secret")
    return hand


def review_hand(
    record_or_hand: Mapping[str, Any] | Hand, seat: int | None = None, lang: str = "zh"
) -> Review:
    """The 复盘 of a finished hand: every seat's (or only ``seat``'s) decisions and flags.

    ``lang`` is ``"zh"`` or ``"en"`` (game terms stay Chinese); anything else reads as zh.
    Deterministic: the same record always gives the same review.
    """
    lang = lang if lang in _TEXTS else "zh"
    done = record_hand(record_or_hand)
    if seat is not None and not 0 <= seat < done.players:
        raise ValueError(f"no seat {seat} at this table")
    wanted = range(done.players) if seat is None else (seat,)
    rules = done.rules
    hand = Hand.new(rules, seed=done.seed, dealer=done.dealer, base=done.base,
                    deck=None if done.seed is not None else done.deck)
    # per seat: each decision with the public record then and whether the seat was 听
    decisions: dict[int, list[tuple[Decision, list[Event], bool]]] = {s: [] for s in wanted}
    was_ting = dict.fromkeys(wanted, False)  # 听 just before the entry that made it discard
    for step, (actor, action) in enumerate(done.log):
        for s in wanted:
            legal = hand.legal_actions(s)
            if not legal or not _discarding(legal):
                was_ting[s] = bool(ting(rules, hand.private_view(s)).waits)
        if actor in decisions and len(hand.legal_actions(actor)) > 1:
            view = hand.private_view(actor)
            events = [e for e in hand.history if e.visible_to is None]
            decisions[actor].append((_decide(view, events, step, action), events,
                                     was_ting[actor]))
        hand.apply_logged(actor, action)
    flags: list[Flag] = []
    for s, made in decisions.items():
        measured = _played_out([(d, events) for d, events, _ in made])
        decisions[s] = [(d, events, t) for d, (_, events, t) in zip(measured, made, strict=True)]
        flags += [f for d, events, t in decisions[s]
                  for f in _flags(rules, d, events, hand.base, t, lang)]
    flags.sort(key=lambda f: (f.step, f.seat))
    return Review(
        rules=rules.key,
        lang=lang,
        steps=len(done.log),
        seats=tuple(SeatReview(s, tuple(d for d, _, _ in decisions[s])) for s in wanted),
        flags=tuple(flags),
    )


def _discarding(legal: Iterable[str]) -> bool:
    return all(a.startswith("d:") for a in legal)


def _decide(view: PrivateView, events: list[Event], step: int, played: str) -> Decision:
    values = player.evaluate(view, events)
    ordered = tuple((a, float(values[a])) for a in view.legal)
    tied = tied_for_best(ordered)
    best = played if played in tied else tied[0]  # a tie with the best is the best
    return Decision(view.seat, step, ordered, best, played, view)


def _played_out(made: list[tuple[Decision, list[Event]]]) -> list[Decision]:
    """The decisions with the loss of each one played off the strong choice (a win on offer
    aside) measured in played-out deals, within the review's work (:data:`REVIEW_WORK`)."""
    off = [d for d, _ in made if d.played != d.best and A.HU not in d.value]
    work = min(REVIEW_WORK // 4, REVIEW_WORK // max(1, len(off)))
    budget = Budget(work=work, candidates=2, first=WORLDS + 1, worlds=WORLDS)
    out = []
    for d, events in made:
        if d in off:
            searched = play_out(d.view, events, [d.best, d.played], player.STRONG.style,
                                budget)
            lost = max(0.0, -searched[1].gain) if searched else 0.0
            d = replace(d, lost=lost, worlds=searched[1].worlds if searched else 0)
        out.append(d)
    return out


def _flags(
    rules: RuleSet, d: Decision, events: list[Event], base: int, was_ting: bool, lang: str
) -> list[Flag]:
    words = _TEXTS[lang]
    played = A.label(d.played, lang)
    out: list[Flag] = []
    if A.HU in d.value and d.played != A.HU:
        win = declined_win(d.view, events, base)
        agree = d.best != A.HU
        text = words["missed_win"].format(played=played, points=win.winner_points, huxi=win.huxi)
        text += words["missed_agree" if agree else "missed_disagree"]
        out.append(Flag(d.seat, d.step, "missed_win", text, None if agree else A.HU))
    if was_ting and _discarding(d.value):
        keeps = dict(ting(rules, d.view).by_discard)
        if keeps and A.parse(d.played).card not in keeps:
            best_card = max(keeps, key=lambda k: d.value[A.discard(k)])
            better, waits = A.discard(best_card), keeps[best_card]
            text = words["broke_ting"].format(
                played=played, better=A.label(better, lang),
                waits=words["sep"].join(C.to_char(w.card) for w in waits),
            )
            out.append(Flag(d.seat, d.step, "broke_ting", text, better))
    if d.loss >= COSTLY_LOSS:
        text = words["costly_played_out" if d.worlds else "costly"].format(
            played=played, better=A.label(d.best, lang), loss=f"{d.loss:.1f}", worlds=d.worlds)
        out.append(Flag(d.seat, d.step, "costly", text, d.best))
    return out


def declined_win(view: PrivateView, public_events: Iterable[Event], base: int) -> Win:
    """The win the seat could take now (``view.legal`` holds 胡), scored as the engine would
    score it, from the seat's own cards and public facts only: the card on offer, the stock
    (海底), the 亮张 (天胡) and whether the seat has played yet (地胡). ``base``: the 底分."""
    rules = get_rule_set(view.public.rule_set)
    pub, seat = view.public, view.seat
    hand = C.counts(view.hand)
    melds = tuple(Group(m.kind, tuple(m.cards)) for m in view.melds)  # type: ignore[arg-type]
    dihu = rules.dihu and seat != pub.dealer and not _started(seat, public_events)
    offer, haidi, tianhu = pub.offer, pub.stock_count == 0, False
    card: int | None = None
    source: str | None = "self"  # 自摸 after a 提 / 偎 on one's own draw
    if offer is not None and offer.how == OfferHow.LIANG:
        haidi, tianhu = False, True
        card, source = (None, None) if seat == pub.dealer else (offer.card, "other")
    elif offer is not None:
        card, source = offer.card, claims.source(offer, seat)
        haidi = haidi and offer.how == OfferHow.DRAW
    win = analyzer.analyze(rules, hand, melds, card, source=source, haidi=haidi,  # type: ignore[arg-type]
                           tianhu=tianhu and not dihu, base=base, dihu=dihu)
    if win is None:
        raise ValueError("胡 is not possible for this seat now")
    return win


def _started(seat: int, public_events: Iterable[Event]) -> bool:
    """Has the seat drawn, taken or discarded? The 提 of dealt 4-of-a-kinds before the first
    draw or discard touch nothing (``engine.state``: only the dealer's turn starts then)."""
    begun = False
    for e in public_events:
        begun = begun or e.kind in ("draw", "discard")
        if begun and e.seat == seat and e.kind in _STARTS:
            return True
    return False


def review_json(review: Review) -> str:
    return json.dumps(review.to_dict(), ensure_ascii=False)
