"""The computer player (engine.player), every level: legal, blind to hidden cards,
deterministic, sensible; ``evaluate`` values every legal action and ``choose`` takes an argmax."""

from __future__ import annotations

import ast
import inspect
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.four14 import WAITS_369, four14
from support.handkit import advance_until, card, hand, offered

from engine import actions as A
from engine import analyzer, player
from engine import cards as C
from engine.chi import chi_options
from engine.player import LEVELS, OFFERED, STRONG, choose, evaluate, explain, for_table, levels
from engine.player import eval as player_eval
from engine.player import info as player_info
from engine.player import play as player_play
from engine.player.info import read
from engine.player.levels import MASTER
from engine.player.play import wait_value
from engine.player.search import Budget
from engine.rules import FOUR14, HUNAN, QQ, RuleSet
from engine.state import Hand
from engine.views import Event, OutcomeKind

# the levels that only judge (the searching one, master, takes longer)
JUDGING = [name for name, level in LEVELS.items() if level.budget is None]


def public(h: Hand) -> list[Event]:
    return [e for e in h.history if e.visible_to is None]


def decide(h: Hand, seat: int, rng: random.Random | None = None, level: str = "strong") -> str:
    return choose(h.private_view(seat), public(h), rng, level=level)


def play(seed: int, policy_seats: set[int], check=None, rules: RuleSet = QQ) -> Hand:
    """A whole hand: policy seats play ``choose``; the others pick at random. ``check(h, seat)``
    runs at every decision of every seat, before it is taken."""
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    while not h.is_terminal():
        seat = h.to_act()[0]
        if check is not None:
            check(h, seat)
        action = decide(h, seat, rng) if seat in policy_seats else rng.choice(h.legal_actions(seat))
        h.apply(seat, action)
    return h


# ----- legality -----------------------------------------------------------------------------


def test_only_legal_actions_over_many_states() -> None:
    """Every seat's decision, in policy and random games alike, is answered with a legal action."""
    states = 0

    def check(h: Hand, seat: int) -> None:
        nonlocal states
        for s in h.to_act():
            assert decide(h, s) in h.legal_actions(s)
            states += 1

    for seed in range(56):
        play(seed, {0, 1, 2} if seed % 2 else {seed % 3}, check)
    assert states > 1500


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), seats=st.sets(st.sampled_from([0, 1, 2])))
def test_hands_with_policy_seats_end_with_zero_sum(seed: int, seats: set[int]) -> None:
    h = play(seed, seats)  # Hand.apply raises on an illegal action
    assert h.is_terminal() and sum(h.returns()) == 0


def test_no_decision_awaited_is_an_error() -> None:
    h = Hand.new(QQ, seed=3, dealer=0)
    idle = next(s for s in range(3) if s not in h.to_act())
    with pytest.raises(ValueError):
        choose(h.private_view(idle), public(h))


# ----- hidden information -------------------------------------------------------------------


def test_policy_modules_never_see_a_hand() -> None:
    """Structurally: the entry points take a view and public events, and no judging module
    imports the state module (so it cannot reach a Hand, another hand or the stock). The
    searching level's modules build hands of their own from the view (engine.player.worlds):
    the counterfactual test below holds them blind."""
    for entry in (choose, evaluate):
        assert list(inspect.signature(entry).parameters) == ["view", "public_events", "rng", "level"]
    assert list(inspect.signature(explain).parameters) == ["view", "public_events", "lang"]
    for module in (player, levels, player_eval, player_info, player_play):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert "engine.state" not in imported and "engine.simulate" not in imported


def _swapped_deck(h: Hand, seat: int, rng: random.Random) -> list[int]:
    """``h``'s deck with one free card of another seat's hand swapped with another card that
    ``seat`` cannot have seen (in the other seats' hands or the undrawn stock). The 亮张, the
    other seats' 坎 and every card that has left a hand stay where they were."""
    order = [(h.dealer + i) % 3 for i in range(3)]
    sizes = {s: QQ.dealer_cards if s == h.dealer else QQ.other_cards for s in order}
    starts, pos = {}, 0
    for s in order:
        starts[s], pos = pos, pos + sizes[s]
    drawn = QQ.stock_size - h.stock_count
    places = list(range(pos + drawn, len(h.deck)))  # the undrawn stock
    hand_places = []
    for s in order:
        if s == seat:
            continue
        held = list(h._seats[s].hand)
        last = starts[s] + sizes[s] - (s == h.dealer)  # the 亮张 keeps its place
        for i in range(starts[s], last):
            if 0 < held[h.deck[i]] < 3:  # still in the hand, and not a 坎
                held[h.deck[i]] -= 1
                hand_places.append((i, s))
    i, owner = rng.choice(hand_places)
    places += [p for p, s in hand_places if s != owner]
    j = rng.choice([p for p in places if h.deck[p] != h.deck[i]])
    deck = list(h.deck)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_equal_view_and_record_give_equal_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two hands that differ only in cards a seat cannot see, replayed with the same actions:
    wherever that seat's view and the public record agree, so does the policy's choice, at
    every level (master on a small budget)."""
    monkeypatch.setitem(LEVELS, "master", replace(MASTER, budget=Budget(work=60_000, candidates=3,
                                                                      first=3, worlds=8)))
    rng = random.Random(7)
    compared = 0
    for seed in range(30):
        h = Hand.new(QQ, seed=seed, dealer=seed % 3)
        moves = rng.randrange(1, 25)
        while not h.is_terminal() and len(h.log) < moves:
            seat = h.to_act()[0]
            h.apply(seat, decide(h, seat, rng))
        if h.is_terminal():
            continue
        seat = h.to_act()[0]
        view, events = h.private_view(seat), public(h)
        # h's side of every comparison, worked out once however many swaps compare with it
        chosen: dict[str, str] = {}
        valued: dict[str, dict[str, float]] = {}
        said: list[tuple[str, str]] = []
        for _ in range(12):
            try:
                other = Hand.replay(QQ, deck=_swapped_deck(h, seat, rng), dealer=h.dealer,
                                    log=h.log)
            except ValueError:
                continue  # the swap changed what others could do: not the same game
            if other.private_view(seat) != view or public(other) != events:
                continue
            assert any(other._seats[s].hand != h._seats[s].hand for s in range(3) if s != seat)
            for level in LEVELS if compared < 6 else JUDGING:  # a search takes longer: master in the first few only
                if level not in chosen:
                    chosen[level] = decide(h, seat, level=level)
                assert decide(other, seat, level=level) == chosen[level]
                if LEVELS[level].budget is not None:
                    if level not in valued:
                        valued[level] = evaluate(view, events, level=level)
                    assert evaluate(other.private_view(seat), public(other), level=level) == \
                        valued[level]
            if "rng" not in valued:
                valued["rng"] = evaluate(view, events, random.Random(1))
            assert evaluate(other.private_view(seat), public(other), random.Random(1)) == \
                valued["rng"]
            if not said:
                said.append(explain(view, events))
            assert explain(other.private_view(seat), public(other)) == said[0]
            compared += 1
    assert compared >= 20


# ----- sensible play ------------------------------------------------------------------------

DEALER_WINS = "壹贰叁壹贰叁一二三四五六七八九肆伍陆柒捌玖"
PAO_WAITER = "九九九壹贰叁贰柒拾四五六肆伍陆一二三十十"


def test_takes_tianhu_on_the_liangzhang() -> None:
    h = hand(dealer=DEALER_WINS)
    assert A.HU in h.legal_actions(0)
    assert decide(h, 0) == A.HU
    action, reason = explain(h.private_view(0), public(h))
    assert action == A.HU and reason.startswith("胡：") and "胡息" in reason


def test_wins_on_a_drawn_card() -> None:
    h = hand(xia=PAO_WAITER, stock="捌九", keep_out={0: "九", 2: "九"})
    advance_until(h, offered(card("九")))
    assert h.legal_actions(1) == (A.HU, A.PASS)
    assert decide(h, 1) == A.HU


def test_waiting_is_worth_nothing_without_winning_cards() -> None:
    hand_counts = C.counts(C.parse_cards(PAO_WAITER))
    wins_on = {k for k in range(C.KINDS)
               if analyzer.analyze(QQ, hand_counts, [], k, source="other") is not None}
    assert wins_on >= set(C.parse_cards("九十"))
    unseen = [0 if k in wins_on else 4 - n for k, n in enumerate(hand_counts)]
    assert wait_value(QQ, hand_counts, [], C.parse_card("九"), unseen, 15) == 0.0
    unseen[C.parse_card("九")] = 1  # the declined kind itself does not count (臭胡)
    assert wait_value(QQ, hand_counts, [], C.parse_card("九"), unseen, 15) == 0.0
    unseen[C.parse_card("十")] = 2
    assert wait_value(QQ, hand_counts, [], C.parse_card("九"), unseen, 15) > 0.0


def test_wins_nearly_always_when_offered() -> None:
    """Over many games, a win on offer is taken (declining is for rare, far bigger waits)."""
    offered_wins = taken = 0

    def check(h: Hand, seat: int) -> None:
        nonlocal offered_wins, taken
        if A.HU in h.legal_actions(seat):
            offered_wins += 1
            taken += decide(h, seat) == A.HU

    for seed in range(100, 130):
        play(seed, {0, 1, 2}, check)
    assert offered_wins >= 10 and taken >= 0.9 * offered_wins


def test_discards_the_lone_card_rather_than_a_scoring_group_card() -> None:
    # the dealer holds 一二三 壹贰叁 二七十 贰柒拾 四五六 肆伍陆, a pair 捌捌 and a lone 九
    h = hand(dealer="一二三壹贰叁二七十贰柒拾四五六肆伍陆捌捌九")
    assert h.to_act() == (0,) and h.phase == "discard"
    assert decide(h, 0) == "d:x9"
    action, reason = explain(h.private_view(0), public(h))
    assert action == "d:x9" and reason.startswith("出 九：孤张")


def test_eats_into_a_scoring_sequence() -> None:
    """The 下家 holding 一 三 eats the dealer's 二 as a 一二三 (or 二七十), not a 0-胡息 group."""
    h = hand(dealer="二", xia="一三壹贰叁", keep_out={1: "二"})
    h.apply(0, "d:x2")
    assert h.to_act() == (1,) and "c:x1x2x3" in h.legal_actions(1)
    action = decide(h, 1)
    assert action in ("c:x1x2x3", "c:x2x7x10")
    assert explain(h.private_view(1), public(h))[1].endswith("得 3 胡息")


def test_prefers_the_discard_the_record_shows_safe() -> None:
    """Among cards worth about the same to the hand, the one whose other copies lie face up
    (so nobody can 碰 it and the 下家 is less likely to 吃 it) is given away."""
    h = hand(dealer="一二三壹贰叁二七十贰柒拾四五六肆伍陆伍九捌")
    view, events = h.private_view(0), public(h)
    jiu = C.parse_card("九")

    def showing(text: str):
        seats = list(view.public.seats)
        seats[1] = replace(seats[1], discards=tuple(C.parse_cards(text)))
        return replace(view, public=replace(view.public, seats=tuple(seats)))

    assert choose(showing("九九"), events) == A.discard(jiu)
    for text in ("九", "捌"):
        kind = C.parse_card(text)
        risks = [(know.peng_risk(kind), know.chi_risk(kind))
                 for know in (read(showing(text * n), events) for n in range(3))]
        assert risks[0][0] > risks[1][0] > risks[2][0] == 0.0
        assert risks[0][1] >= risks[1][1] >= risks[2][1]


def test_explains_in_both_languages() -> None:
    h = next(h for seed in range(11, 40)
             if (h := Hand.new(QQ, seed=seed, dealer=0)).phase == "discard")
    view, events = h.private_view(0), public(h)
    action, zh = explain(view, events)
    action_en, en = explain(view, events, lang="en")
    assert action == action_en == choose(view, events)
    assert zh.startswith(A.label(action) + "：") and en.startswith(A.label(action, "en") + ": ")
    assert zh != en


# ----- what the public record tells ---------------------------------------------------------


def test_record_marks_kinds_others_cannot_claim() -> None:
    """What the record says another seat cannot claim, it really cannot; the unseen counts
    are exactly the other hands, the stock and the face-down 偎."""
    checked = 0
    for seed in range(30, 42):
        h = Hand.new(QQ, seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        while not h.is_terminal() and len(h.log) < 2 * (seed - 30):
            s = h.to_act()[0]
            h.apply(s, decide(h, s, rng))
        if h.is_terminal():
            continue
        seat = h.to_act()[0]
        know = read(h.private_view(seat), public(h))
        truth = [0] * C.KINDS
        for s in range(3):
            real = h._seats[s]
            if s == seat:
                continue
            for k, n in enumerate(real.hand):
                truth[k] += n
            for g in real.melds:
                truth[g.cards[0]] += 3 if g.kind == "wei" else 0
            for k in know.no_peng[s]:
                assert real.hand[k] < 2 or k in real.chou, (seed, s, k)
            for k in know.no_chi[s]:
                assert not chi_options(real.hand, k) or k in real.chou, (seed, s, k)
            checked += len(know.no_peng[s]) + len(know.no_chi[s])
        for k in h._stock:
            truth[k] += 1
        assert list(know.unseen) == truth, seed
    assert checked > 20


def test_risks_follow_what_is_visible() -> None:
    h = Hand.new(QQ, seed=5, dealer=0)
    know = read(h.private_view(0), public(h))
    for k in range(C.KINDS):
        if know.unseen[k] < 2:
            assert know.peng_risk(k) == 0.0
        assert 0.0 <= know.chi_risk(k) <= 1.0
    fresh = [k for k in range(C.KINDS) if know.unseen[k] == 4]
    rare = [k for k in range(C.KINDS) if know.unseen[k] == 2]
    if fresh and rare:
        assert know.peng_risk(fresh[0]) > know.peng_risk(rare[0])


# ----- levels and values --------------------------------------------------------------------


def _decisions(seeds: range, rules: RuleSet = QQ):
    """(view, public events) at every decision of strong-player hands."""
    for seed in seeds:
        h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        while not h.is_terminal():
            seat = h.to_act()[0]
            yield h.private_view(seat), public(h)
            h.apply(seat, decide(h, seat, rng))


@pytest.mark.parametrize("rules", [QQ, HUNAN, FOUR14], ids=lambda r: r.key)
def test_evaluate_values_every_legal_action_and_choose_takes_an_argmax(rules: RuleSet) -> None:
    decisions = 0
    for view, events in _decisions(range(6), rules):
        for level in JUDGING:  # master's: test_player_search.py
            values = evaluate(view, events, level=level)
            assert list(values) == list(view.legal)
            top = max(values.values())
            assert values[choose(view, events, level=level)] == pytest.approx(top, abs=1e-9)
            picked = choose(view, events, random.Random(decisions), level=level)
            assert values[picked] == pytest.approx(top, abs=1e-9)
        decisions += 1
    assert decisions > 100


def test_levels_are_named_and_differ() -> None:
    assert tuple(LEVELS) == ("weak", "medium", "strong", "master")
    assert all(level.name == name for name, level in LEVELS.items())
    h = Hand.new(QQ, seed=5, dealer=0)
    seat = h.to_act()[0]
    with pytest.raises(ValueError, match="level"):
        choose(h.private_view(seat), public(h), level="强")
    differ = sum(
        len({choose(view, events, level=level) for level in JUDGING}) > 1
        for view, events in _decisions(range(4))
    )
    assert differ > 0


def test_tables_are_offered_only_the_levels_measured_stronger_than_the_one_below() -> None:
    """docs/player.md: master measures no gain on strong, so no table is offered it, and a
    table stored with it plays strong's choices."""
    assert OFFERED == ("weak", "medium", "strong")
    assert all(for_table(name) == name for name in OFFERED)
    assert for_table("master") == "strong"
    with pytest.raises(ValueError, match="level"):
        for_table("grandmaster")


def test_evaluate_is_deterministic() -> None:
    for i, (view, events) in enumerate(_decisions(range(3))):
        assert evaluate(view, events) == evaluate(view, events)
        assert evaluate(view, events, random.Random(i)) == evaluate(view, events, random.Random(i))


# ----- determinism and strength -------------------------------------------------------------


def test_deterministic_for_a_seed() -> None:
    logs = [play(77, {0, 1, 2}).log for _ in range(2)]
    assert logs[0] == logs[1]
    h = Hand.new(QQ, seed=78, dealer=0)
    view, events = h.private_view(h.to_act()[0]), public(h)
    picks = {choose(view, events, random.Random(4)) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(view.legal)


def test_beats_random_players() -> None:
    """150 hands, one policy seat against two random ones, seat and dealer rotating."""
    wins = [0, 0]
    points = [0, 0]
    rng = random.Random(99)
    for i in range(150):
        me = i % 3
        h = play(rng.getrandbits(32) * 3 + (i // 3) % 3, {me})
        out = h.outcome
        assert out is not None
        for s, p in enumerate(out.points):
            points[s != me] += p
        if out.kind == OutcomeKind.WIN:
            wins[out.winner != me] += 1
    assert wins[0] >= 3 * max(1, wins[1] / 2)
    assert points[0] > 0 > points[1]


# ----- four14 (六胡抢): four seats, wins on discards ---------------------------------------


def test_four14_computer_players_stay_legal_and_win_most_hands() -> None:
    states = 0

    def check(h: Hand, seat: int) -> None:
        nonlocal states
        for s in h.to_act():
            assert decide(h, s) in h.legal_actions(s)
            states += 1

    hands = [play(seed, {0, 1, 2, 3}, check, FOUR14) for seed in range(24)]
    assert states > 300
    assert all(sum(h.returns()) == 0 for h in hands)
    assert sum(h.outcome.kind == OutcomeKind.WIN for h in hands) >= 18


def test_four14_wins_on_a_discard() -> None:
    h = four14(dealer="九", dui=WAITS_369, keep_out={0: "三六九", 1: "七八九十玖", 3: "九"})
    h.apply(0, A.discard(card("九")))
    assert h.to_act() == (2,) and h.legal_actions(2) == (A.HU, A.PASS)
    assert decide(h, 2) == A.HU


def test_a_discard_leaving_the_hand_ting_gains_what_its_wins_are_worth() -> None:
    """The strong level's readiness term: a discard that leaves the hand 听 is raised by the
    points the next face-up card is expected to win it (each live winning card's win over the
    cards not seen), any other discard not at all."""
    plain = replace(STRONG.style, lookahead=0, win_weight=0.0)
    weighing = replace(plain, win_weight=1.0)
    raised = 0
    for view, events in _decisions(range(8)):
        if not all(a.startswith("d:") for a in view.legal):
            continue
        know = read(view, events)
        for before, after in zip(player_play.judge(view, events, plain),
                                 player_play.judge(view, events, weighing), strict=True):
            rest = C.counts(view.hand)
            rest[before.args[0]] -= 1
            melds = [player_play.Group(m.kind, tuple(m.cards)) for m in view.melds]
            worth = sum(n * w.winner_points for k, n in enumerate(know.unseen) if n
                        and (w := analyzer.analyze(QQ, rest, melds, k, source="other"))
                        is not None) / know.pool
            assert after.value == pytest.approx(before.value + (worth if before.args[6] else 0))
            raised += after.value > before.value
    assert raised > 0


@pytest.mark.parametrize("rules", [QQ, HUNAN, FOUR14], ids=lambda r: r.key)
def test_strong_plays_each_rule_set_with_its_weights(rules: RuleSet) -> None:
    """At 湖南 the strong level judges with weights of its own (the 胡息 short of 15 cost,
    being 听 counts); elsewhere with its common ones. Some 湖南 decision comes out otherwise."""
    strong = STRONG.style
    own = strong.weights_for(rules)
    assert (own != strong.weights) == (rules.id == "hunan")
    as_own = replace(strong, weights=own, rule_weights=())
    common = replace(strong, rule_weights=())
    differ = 0
    for view, events in _decisions(range(4), rules):
        values = [c.value for c in player_play.judge(view, events, strong)]
        assert values == [c.value for c in player_play.judge(view, events, as_own)]
        differ += values != [c.value for c in player_play.judge(view, events, common)]
    assert (differ > 0) == (rules.id == "hunan")
