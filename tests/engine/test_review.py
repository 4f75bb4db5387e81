"""The 复盘 (engine.review): which log entries are decisions, the flags against their oracles
(every declined win, 听 broken by the engine's own 听), blindness to cards the seat could not
see, determinism, and the rating's scale — over random hands in every rule set."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.review import (
    RULES,
    continued,
    hidden_positions,
    played,
    public,
    same_for,
    steps_before,
)

from engine import actions as A
from engine import player
from engine import review as review_module
from engine.player.play import tied_for_best
from engine.player.search import Searched
from engine.record import export_hand
from engine.replay import replay_views
from engine.review import (
    COSTLY_LOSS,
    RATING_SCALE,
    REVIEW_WORK,
    WORLDS,
    Decision,
    Review,
    SeatReview,
    declined_win,
    review_hand,
)
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand, IllegalAction, card_census
from engine.ting import ting

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----- decisions and flags against their oracles --------------------------------------------


@SETTINGS
@given(rules=st.sampled_from(RULES), seed=SEEDS)
@example(rules=get_rule_set("four14"), seed=2572755)  # 胡 on a discard beside its kind's 碰
def test_the_review_of_a_random_hand_agrees_with_every_oracle(rules: RuleSet, seed: int) -> None:
    """A random hand's review (the costly part, worked out once) against each oracle below:
    its decisions are the entries with a real choice, and its missed_win, broke_ting and
    costly flags are exactly the declined wins, the 听 the engine's own 听 says was broken
    and the decisions losing the threshold."""
    h = played(rules, seed)
    review = review_hand(h)
    befores = steps_before(h)
    decisions_are_the_entries_with_a_real_choice(h, review, befores)
    missed_win_flags_exactly_the_declined_wins(h, review, befores)
    broke_ting_agrees_with_engine_ting(h, review, befores)
    costly_flags_are_the_decisions_losing_the_threshold(review)


def decisions_are_the_entries_with_a_real_choice(h: Hand, review: Review,
                                                 befores: list[Hand]) -> None:
    want = {
        (seat, i) for i, (before, (seat, action)) in enumerate(zip(befores, h.log, strict=True))
        if len(before.legal_actions(seat)) > 1
    }
    got = {(d.seat, d.step) for r in review.seats for d in r.decisions}
    assert got == want
    for r in review.seats:
        for d in r.decisions:
            assert h.log[d.step] == (d.seat, d.played)
            assert [a for a, _ in d.values] == list(d.view.legal)
            tied = tied_for_best(d.values)  # the top value, up to a rounding error
            assert d.best == (d.played if d.played in tied else tied[0])
            assert d.loss >= 0
            if d.played in tied:
                assert d.loss == 0 and d.lost is None  # the strong choice, or as good
            elif A.HU in d.value:
                assert d.lost is None and d.loss == d.value[d.best] - d.value[d.played]
            else:  # played out: points over the deals (none when no deal fit the budget)
                assert d.lost is not None and 0 <= d.worlds <= WORLDS
                assert d.worlds or d.loss == 0


def engine_win_points(before: Hand, seat: int) -> int:
    """What 胡 would have paid the seat: take it on a copy, every other seat asked passing."""
    h = copy.deepcopy(before)
    h.apply(seat, A.HU)
    while not h.is_terminal():
        other = h.to_act()[0]
        h.apply(other, A.PASS)
    assert h.outcome is not None and h.outcome.winner == seat and h.outcome.win is not None
    return h.outcome.win.winner_points


def missed_win_flags_exactly_the_declined_wins(h: Hand, review: Review,
                                                befores: list[Hand]) -> None:
    declined = {
        (seat, i) for i, (before, (seat, action)) in enumerate(zip(befores, h.log, strict=True))
        if A.HU in before.legal_actions(seat) and action != A.HU
    }
    flagged = {(f.seat, f.step) for f in review.flags if f.kind == "missed_win"}
    assert flagged == declined
    for seat, i in declined:
        before = befores[i]
        points = engine_win_points(before, seat)
        assert declined_win(before.private_view(seat), public(before), h.base).winner_points == points
        flag = next(f for f in review.flags if (f.seat, f.step, f.kind) == (seat, i, "missed_win"))
        assert f" {points} " in flag.text


def declines(h: Hand) -> int:
    """How many times a seat of this hand declined a legal 胡."""
    fresh = Hand.new(h.rules, seed=h.seed, dealer=h.dealer, base=h.base)
    n = 0
    for seat, action in h.log:
        n += A.HU in fresh.legal_actions(seat) and action != A.HU
        fresh.apply_logged(seat, action)
    return n


def test_declined_wins_do_occur_in_the_property_hands() -> None:
    """The missed_win oracle above must meet declined wins, in every rule set, to mean anything."""
    for rules in RULES:
        assert any(declines(played(rules, seed)) for seed in range(60)), rules.key


def discarding(legal: tuple[str, ...]) -> bool:
    return bool(legal) and all(a.startswith("d:") for a in legal)


def broke_ting_agrees_with_engine_ting(h: Hand, review: Review, befores: list[Hand]) -> None:
    rules = h.rules
    want = set()
    for i, (seat, action) in enumerate(h.log):
        before = befores[i]
        legal = before.legal_actions(seat)
        if len(legal) < 2 or not discarding(legal):
            continue
        j = i - 1
        while j >= 0 and discarding(befores[j].legal_actions(seat)):
            j -= 1
        if j < 0:
            continue  # the seat has discarded since the deal without a settled holding
        frame = replay_views(h.rules.key, h.seed, h.dealer, h.base, h.log, j)
        if not ting(rules, frame.views[seat]).waits:
            continue
        keeps = {k for k, _ in ting(rules, before.private_view(seat)).by_discard}
        if keeps and A.parse(action).card not in keeps:
            want.add((seat, i))
    got = {(f.seat, f.step) for f in review.flags if f.kind == "broke_ting"}
    assert got == want
    for f in review.flags:
        if f.kind == "broke_ting":
            keeps = dict(ting(rules, befores[f.step].private_view(f.seat)).by_discard)
            assert f.better is not None and A.parse(f.better).card in keeps


def costly_flags_are_the_decisions_losing_the_threshold(review: Review) -> None:
    want = {(d.seat, d.step) for r in review.seats for d in r.decisions if d.loss >= COSTLY_LOSS}
    costly = [f for f in review.flags if f.kind == "costly"]
    assert {(f.seat, f.step) for f in costly} == want
    for f in costly:
        assert f.better == review.decision(f.seat, f.step).best


# ----- blindness ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), seed=SEEDS, where=st.floats(0, 1))
def test_no_verdict_depends_on_a_card_the_seat_could_not_see(
    rules: RuleSet, seed: int, where: float
) -> None:
    """Swap two cards the deciding seat cannot see (others' hidden cards, the stock) so that
    everything it sees is the same; its review of that decision must not change."""
    h = played(rules, seed)
    befores = steps_before(h)
    choices = [i for i, (s, _) in enumerate(h.log) if len(befores[i].legal_actions(s)) > 1]
    if not choices:
        return
    k = choices[int(where * (len(choices) - 1))]
    seat, before = h.log[k][0], befores[k]
    rng = random.Random(seed)
    hidden = hidden_positions(before, seat)
    for _ in range(40):
        i, j = rng.sample(hidden, 2)
        deck = list(h.deck)
        if deck[i] == deck[j]:
            continue
        deck[i], deck[j] = deck[j], deck[i]
        try:
            other = Hand.replay(rules, deck=deck, dealer=h.dealer, base=h.base, log=h.log[:k])
        except IllegalAction:
            continue
        if not other.is_terminal() and seat in other.to_act() and same_for(seat, before, other):
            break
    else:
        return  # no such swap found for this position: nothing to compare
    assert card_census(other) == [4] * 20
    first = continued(before, seat, random.Random(seed))
    second = continued(other, seat, random.Random(seed))
    a = review_hand(first, seat=seat)
    b = review_hand(second, seat=seat)
    da, db = a.decision(seat, k), b.decision(seat, k)
    assert (da.values, da.best, da.played) == (db.values, db.best, db.played)
    assert [f for f in a.flags if f.step == k] == [f for f in b.flags if f.step == k]


# ----- determinism, the rating, the API -----------------------------------------------------


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), seed=SEEDS, lang=st.sampled_from(["zh", "en"]))
def test_the_review_of_a_record_is_deterministic(rules: RuleSet, seed: int, lang: str) -> None:
    h = played(rules, seed)
    doc = export_hand(h)
    first = review_hand(doc, lang=lang).to_dict()
    assert review_hand(copy.deepcopy(doc), lang=lang).to_dict() == first
    assert review_hand(h, lang=lang).to_dict() == first
    for seat in range(rules.players):
        alone = review_hand(doc, seat=seat, lang=lang).to_dict()
        assert alone["seats"] == [r for r in first["seats"] if r["seat"] == seat]
        assert alone["flags"] == [f for f in first["flags"] if f["seat"] == seat]


def decision(step: int, loss: float) -> Decision:
    view = Hand.new(RULES[0], seed=1, dealer=0).private_view(0)
    return Decision(0, step, (("a", 1.0), ("b", 1.0 - loss)), "a", "b" if loss else "a", view)


def test_a_loss_off_the_strong_choice_is_what_the_played_out_deals_measure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Like with like: a decision played off the strong choice (no win on offer) loses the
    points the played move scored less than the strong one over the same played-out deals,
    0 when it scored more; the costly text says over how many deals. Every such decision of
    a seat shares the review's work, none gets more than a quarter of it."""
    asked: list[tuple[list[str], int]] = []

    def measured(view, events, actions, style, budget):
        asked.append((actions, budget.work))
        gain = -7.5 if len(asked) % 2 else 3.0  # the played move: 7.5 points worse, or better
        return [Searched(actions[0], 0.0, 0.0, 0.0, 9), Searched(actions[1], gain, gain, 1.0, 9)]

    monkeypatch.setattr(review_module, "play_out", measured)
    for seed in range(40):
        h = played(RULES[0], seed)
        asked.clear()
        for lang, word in (("zh", "推演 9 局"), ("en", "over 9 deals")):
            review = review_hand(h, seat=0, lang=lang)
            off = [d for d in review.seats[0].decisions
                   if d.played != d.best and A.HU not in d.value]
            assert [a for a, _ in asked] == [[d.best, d.played] for d in off]
            for i, d in enumerate(off):
                assert (d.loss, d.worlds) == ((7.5, 9) if i % 2 == 0 else (0.0, 9))
                costly = [f for f in review.flags_of(0) if f.step == d.step and f.kind == "costly"]
                assert bool(costly) == (i % 2 == 0) and all(word in f.text for f in costly)
            works = {work for _, work in asked}
            assert len(works) <= 1 and all(w <= REVIEW_WORK // 4 for w in works)
            asked.clear()


def test_a_move_a_rounding_error_below_the_top_is_the_best(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Values a rounding error apart are a tie, as the strong level takes them (it plays the
    first in legal order): such a move is never off the best and never played out. The
    first legal move is valued a hair below the others at every decision here."""
    strong_evaluate = player.evaluate

    def hair_apart(view, events, *args, **kwargs):
        values = dict(strong_evaluate(view, events, *args, **kwargs))
        top = max(values.values())
        values.update((a, top) for a in view.legal)
        values[view.legal[0]] = top - 1e-12
        return values

    def never(*args, **kwargs):
        raise AssertionError("a tie was played out")

    monkeypatch.setattr(review_module.player, "evaluate", hair_apart)
    monkeypatch.setattr(review_module, "play_out", never)
    review = review_hand(played(RULES[0], 3))
    decisions = [d for r in review.seats for d in r.decisions]
    assert any(d.played == d.view.legal[0] for d in decisions)
    assert all(d.best == d.played and d.loss == 0 for d in decisions)
    assert not [f for f in review.flags if f.kind == "costly"]


def test_rating_and_the_costliest_moments() -> None:
    assert SeatReview(0, ()).rating is None
    assert SeatReview(0, (decision(1, 0.0), decision(2, 0.0))).rating == 100
    half = SeatReview(0, (decision(1, 0.0), decision(2, 2 * RATING_SCALE)))
    assert half.rating == 50  # mean loss RATING_SCALE
    many = SeatReview(0, tuple(decision(i, loss) for i, loss in enumerate([0.5, 0, 3, 0.5, 1, 2])))
    assert [d.step for d in many.costliest()] == [2, 5, 4]
    assert [d.step for d in many.costliest(5)] == [2, 5, 4, 0, 3]  # never one that lost nothing
    assert 0 < many.rating < 100


def test_a_random_player_rates_far_below_the_strong_one() -> None:
    rated = []
    for rules in RULES:
        for seed in range(4):
            rng = random.Random(seed)
            h = Hand.new(rules, seed=seed, dealer=0)
            while not h.is_terminal():
                s = h.to_act()[0]
                legal = h.legal_actions(s)
                pick = rng.choice(legal) if s == 0 else player.choose(h.private_view(s), public(h))
                h.apply(s, pick)
            review = review_hand(h)
            strong = [r.rating for r in review.seats[1:] if r.rating is not None]
            assert all(r == 100 for r in strong)
            if review.seats[0].rating is not None:
                rated.append(review.seats[0].rating)
    assert sum(rated) / len(rated) < 60


def test_texts_by_language() -> None:
    for seed in range(40):
        h = played(RULES[0], seed)
        zh, en = review_hand(h), review_hand(h, lang="en")
        if zh.flags:
            break
    else:
        pytest.fail("no flag in 40 hands")
    assert [(f.seat, f.step, f.kind) for f in zh.flags] == [(f.seat, f.step, f.kind) for f in en.flags]
    assert not any(f.text[0].isascii() for f in zh.flags)
    assert all(f.text[0].isascii() for f in en.flags)
    assert review_hand(h, lang="fr").lang == "zh"


def test_unfinished_hands_and_strangers_are_refused() -> None:
    h = Hand.new(RULES[0], seed=3, dealer=0)
    with pytest.raises(ValueError, match="not ended"):
        review_hand(h)
    with pytest.raises(ValueError, match="not a hand record"):
        review_hand({"format": "something/else"})
    done = played(RULES[0], 3)
    with pytest.raises(ValueError, match="no seat"):
        review_hand(done, seat=7)
    with pytest.raises(IllegalAction):
        review_hand(replace_log(export_hand(done)))


def replace_log(doc: dict) -> dict:
    return {**doc, "log": [[0, "peng"], *doc["log"]]}


def test_a_decision_view_is_the_seat_view_before_its_action() -> None:
    h = played(RULES[1], 11)
    befores = steps_before(h)
    for r in review_hand(h).seats:
        for d in r.decisions:
            assert d.view == befores[d.step].private_view(r.seat)


def test_asking_for_what_was_no_decision_is_a_key_error() -> None:
    h = played(RULES[0], 2)
    review = review_hand(h, seat=0)
    with pytest.raises(KeyError):
        review.seat(1)
    idle = next(i for i, (s, _) in enumerate(h.log) if s != 0)
    with pytest.raises(KeyError):
        review.decision(0, idle)
