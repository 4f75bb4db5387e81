"""Nobody learns who may claim (docs/rules/qq.md, 决定 11), nor another seat's hidden cards
from the 逃跑 quote (docs/rules/qq.md, 逃跑), under every rule set and table shape
(``RULES``: hunan's 4 seats with a 醒家 who sits out, and its 3).

Counterfactual test: play a random hand, then give one seat X (a seat dealt cards: not the 醒家)
a different hidden card (swap one of its dealt cards with a stock card nobody draws before
the cut) and replay the same decisions.
Where X could claim in one deal and not in the other, X's answers exist only in one log, so the
replay drops X's passes that are not asked for and passes for X where only the counterfactual
asks it. Whenever both tables are in the same public situation, the public view and every
other seat's private view, and every other seat's 逃跑 quote, must be identical: X's options
(and cards) may not show anywhere.

Allowed differences, after which the pair is not compared:
- the table waits in one and not in the other, so one runs ahead (that the table waits is
  public, 决定 11): those states are skipped until the two are at the same point again;
- X's hidden card changes what X is *forced* to do in public: a 提/偎/跑 (X's melds differ,
  or a forced 跑 is pending for X in one only, which (行牌: Forced 跑) also removes the others' 碰/吃),
  a 决定 4 exemption from discarding, a forced 天胡, or an action of X's that becomes illegal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine.rules import FOUR14, HUNAN, QQ, RULE_SETS, RuleSet, table_rules
from engine.state import Hand, IllegalAction, Phase

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SEEDS_EACH = 20  # hands per rule set in the sweep below
# every rule set, hunan at each of its shapes with three or more seats (4: a 醒家 sits out)
RULES = (QQ, HUNAN, table_rules("hunan", 3), FOUR14)


@dataclass
class Tally:
    compared: int = 0  # states compared
    differing_options: int = 0  # of those, states where X's options differed


def random_log(rules: RuleSet, seed: int, dealer: int) -> list[tuple[int, str]]:
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=dealer)
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
    return h.log


def dealt_positions(h: Hand, seat: int) -> list[int]:
    """Deck positions of ``seat``'s dealt cards, without the dealer's 亮张 (it is public)."""
    start = 0
    for s in h._order_from(h.dealer):
        size = h.rules.dealer_cards if s == h.dealer else h.rules.other_cards
        if s == seat:
            return list(range(start, start + size - (1 if s == h.dealer else 0)))
        start += size
    raise AssertionError("no such seat")


def counterfactual_deck(h: Hand, x: int, stock_left: int, rng: random.Random) -> list[int] | None:
    """The deck with one of X's dealt cards swapped for a stock card still undrawn at the cut."""
    deck = list(h.deck)
    end = len(deck) - h.rules.set_aside  # the stock's end: it is drawn from its start
    hidden = range(end - stock_left, end)
    pairs = [(i, j) for i in dealt_positions(h, x) for j in hidden if deck[i] != deck[j]]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


def asked(h: Hand, seat: int) -> bool:
    return h.phase in (Phase.CLAIM, Phase.LIANG, Phase.SELFWIN) and seat in h.to_act()


def pass_where_only_counterfactual_asks(real: Hand, cf: Hand, x: int) -> None:
    while not cf.is_terminal() and asked(cf, x) and not asked(real, x):
        cf.apply(x, A.PASS)


def forced_moves_differ(real: Hand, cf: Hand, x: int) -> bool:
    """X's changed card shows in public through a forced move (not a claim option)."""
    if (real.outcome is None) != (cf.outcome is None):
        return True
    if real._seats[x].melds != cf._seats[x].melds:
        return True
    if (real._claim and real._claim.pao_seat) != (cf._claim and cf._claim.pao_seat):
        return True
    return (real.phase == Phase.DISCARD, real._actor) != (cf.phase == Phase.DISCARD, cf._actor)


def compare_run(rules: RuleSet, seed: int, dealer: int, x: int, cut_frac: float,
                tally: Tally) -> None:
    """One hand of ``rules`` dealt by ``dealer`` and its counterfactual for seat ``x`` (a
    seat that sits the hand out has no cards to change: nothing to compare)."""
    if x == rules.xing_seat(dealer):
        return
    log = random_log(rules, seed, dealer)
    cut = max(1, int(len(log) * cut_frac))
    probe = Hand.replay(rules, seed=seed, dealer=dealer, log=log[:cut])
    deck = counterfactual_deck(probe, x, probe.stock_count, random.Random(seed ^ x))
    if deck is None:
        return
    real = Hand.new(rules, deck=list(probe.deck), dealer=dealer)
    cf = Hand.new(rules, deck=deck, dealer=dealer)
    pass_where_only_counterfactual_asks(real, cf, x)
    for seat, action in log[:cut]:
        if not check_pair(real, cf, x, tally):
            return
        real.apply(seat, action)
        try:
            if not (seat == x and action == A.PASS and not asked(cf, x)):
                cf.apply(seat, action)
        except IllegalAction:
            return  # X's different card makes this decision impossible: nothing to compare
        pass_where_only_counterfactual_asks(real, cf, x)
    check_pair(real, cf, x, tally)


def same_point(real: Hand, cf: Hand) -> bool:
    """Both tables wait, or both do not, on the same card at the same point of the hand.

    One table may run ahead where nobody but X could answer: that the table waits is public.
    """
    offer = (real._claim and real._claim.offer), (cf._claim and cf._claim.offer)
    return (
        real.phase == cf.phase and real.stock_count == cf.stock_count and offer[0] == offer[1]
    )


def check_pair(real: Hand, cf: Hand, x: int, tally: Tally) -> bool:
    """Compare the two tables where comparable; False once they have parted for good."""
    if forced_moves_differ(real, cf, x):
        return False
    if not same_point(real, cf):
        return True
    if real.is_terminal() and cf.is_terminal():
        return False  # the settlement shows the winner's hand, X's different cards included
    assert real.public_view() == cf.public_view()
    for y in range(real.players):
        if y != x:
            assert real.private_view(y) == cf.private_view(y), f"seat {y} learns about seat {x}"
            assert real.escape_quote(y) == cf.escape_quote(y), f"{y}'s 逃跑 quote reads {x}'s cards"
            assert real.escape_quote(y) <= real.escape_penalty(y)  # a floor of what he would pay
    tally.compared += 1
    if real.legal_actions(x) != cf.legal_actions(x):
        tally.differing_options += 1
    return True


def test_every_rule_set_is_compared() -> None:
    assert {r.id for r in RULES} == set(RULE_SETS)
    assert sorted(r.players for r in RULES if r.id == "hunan") == [3, 4]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES), SEEDS, st.integers(0, 3), st.integers(0, 3),
       st.floats(0.05, 1.0))
def test_a_seats_claim_options_never_show_in_others_views(
    rules: RuleSet, seed: int, dealer: int, x: int, cut_frac: float
) -> None:
    compare_run(rules, seed, dealer % rules.players, x % rules.players, cut_frac, Tally())


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key)
def test_the_counterfactual_comparison_meets_many_states_where_the_options_differ(
        rules: RuleSet) -> None:
    """Guards the property above against comparing nothing: under each rule set it must
    meet the case it is about."""
    tally = Tally()
    for seed in range(SEEDS_EACH):
        compare_run(rules, seed, seed % rules.players, (seed // rules.players) % rules.players,
                    0.6, tally)
    assert tally.compared > 120
    assert tally.differing_options >= 20


def test_a_pass_is_seen_only_by_the_seat_that_passed() -> None:
    for seed in range(30):
        h = Hand.replay(QQ, seed=seed, log=random_log(QQ, seed, 0))
        passes = [e for e in h.history if e.kind == "pass"]
        assert all(e.visible_to == e.seat for e in passes)
