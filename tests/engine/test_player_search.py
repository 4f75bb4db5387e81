"""The searching player (engine.player.search, level ``master``): the worlds it imagines agree
with what its seat sees, its choices are legal and a function of the view and the record.
Its blindness to hidden cards is the counterfactual test in test_player.py, every level."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from engine import actions as A
from engine.player import LEVELS, STRONG, choose, evaluate
from engine.player.levels import MASTER
from engine.player.play import Choice, ranked
from engine.player.search import Budget, pick, search
from engine.player.worlds import clues, sample, seed_of
from engine.rules import FOUR14, HUNAN, QQ, RuleSet, get_rule_set
from engine.state import Hand, card_census
from engine.views import Event

SMALL = Budget(work=60_000, candidates=3, first=3, worlds=8)


@pytest.fixture(autouse=True)
def small_master(monkeypatch: pytest.MonkeyPatch) -> None:
    """The master level searches on a small budget here: the suite stays quick."""
    monkeypatch.setitem(LEVELS, "master", replace(MASTER, budget=SMALL))


def public(h: Hand) -> list[Event]:
    return [e for e in h.history if e.visible_to is None]


def decisions(seeds: range, rules: RuleSet, every: int = 1):
    """(hand, seat) at every ``every``-th decision of strong-player hands."""
    for seed in seeds:
        h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
        for n in itertools.count():
            if h.is_terminal():
                break
            seat = h.to_act()[0]
            if n % every == 0:
                yield h, seat
            h.apply(seat, choose(h.private_view(seat), public(h)))


@pytest.mark.parametrize("rules", [QQ, get_rule_set("hunan/4"), FOUR14], ids=lambda r: r.key)
def test_worlds_agree_with_the_seat_view(rules: RuleSet) -> None:
    """Every card is somewhere once, the seat's own cards and every seat's public side are as
    it sees them, and its moves are the view's (a world may offer more: a 跑 the view's
    missing 碰 betrays is not imagined)."""
    checked = 0
    for h, seat in decisions(range(4), rules, every=2):
        view, events = h.private_view(seat), public(h)
        worlds = sample(view, events, random.Random(seed_of(view, events)))
        for world in itertools.islice(worlds, 3):
            assert world.weight > 0
            w = world.hand()
            assert card_census(w) == [4] * 20
            mine = w.private_view(seat)
            assert (mine.hand, mine.melds, mine.kans) == (view.hand, view.melds, view.kans)
            assert mine.public.seats == view.public.seats
            assert mine.public.stock_count == view.public.stock_count
            assert mine.public.offer == view.public.offer
            assert set(view.legal) <= set(w.legal_actions(seat))
            checked += 1
    assert checked > 60


def test_a_passed_card_makes_its_pair_unlikely() -> None:
    """A seat that let a drawn card go by holds its pair in fewer worlds, by weight."""
    for h, seat in decisions(range(3), QQ):
        view, events = h.private_view(seat), public(h)
        cl = clues(view, events)
        others = [s for s in range(3) if s != seat and cl.passed_peng[s]]
        if len(events) < 30 or not others:
            continue
        worlds = list(itertools.islice(sample(view, events, random.Random(1)), 40))
        s = others[0]
        paired = [w.weight for w in worlds if any(w.hands[s][k] == 2 for k in cl.passed_peng[s]
                                                  if k not in cl.discarded[s])]
        if paired:
            assert max(paired) < 1.0
            return
    pytest.fail("no decision with a passed card")


def test_search_is_legal_deterministic_and_keeps_the_strong_choice_unless_sure() -> None:
    for h, seat in decisions(range(2), QQ, every=3):
        view, events = h.private_view(seat), public(h)
        judged, searched = search(view, events, STRONG.style, SMALL)
        again = search(view, events, STRONG.style, SMALL)
        assert (judged, searched) == again
        chosen = pick(judged, searched, SMALL)
        assert chosen in view.legal
        strong = choose(view, events)
        if searched:
            assert searched[0].action == strong and searched[0].gain == 0.0
            assert chosen == strong or any(
                s.action == chosen and s.gain > SMALL.z * s.error for s in searched)


def test_the_strong_choice_leads_on_a_rounding_tie() -> None:
    """Values a rounding error apart are tied, and the strong level takes the first in legal
    order: the search starts from that move too, so that without a sure gain it plays it."""
    judged = [Choice("d:x1", 1.0, "discard"), Choice("d:x2", 5.0 - 1e-12, "discard"),
              Choice("d:x3", 5.0, "discard")]
    assert [c.action for c in ranked(judged)] == ["d:x2", "d:x3", "d:x1"]
    assert pick(judged, [], SMALL) == "d:x2"


@pytest.mark.parametrize("rules", [QQ, HUNAN, FOUR14], ids=lambda r: r.key)
def test_master_plays_legal_hands_to_their_end(rules: RuleSet) -> None:
    h = Hand.new(rules, seed=11, dealer=0)
    while not h.is_terminal():
        seat = h.to_act()[0]
        level = "master" if seat == 0 else "strong"
        h.apply(seat, choose(h.private_view(seat), public(h), level=level))
    assert sum(h.returns()) == 0


def test_master_values_have_its_choice_as_argmax() -> None:
    for n, (h, seat) in enumerate(decisions(range(1), QQ, every=4)):
        view, events = h.private_view(seat), public(h)
        values = evaluate(view, events, level="master")
        assert list(values) == list(view.legal)
        chosen = choose(view, events, random.Random(n), level="master")
        assert values[chosen] == max(values.values())
        if A.HU in view.legal:
            assert chosen == A.HU or values[A.HU] < values[chosen]
