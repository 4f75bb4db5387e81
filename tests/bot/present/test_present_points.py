"""One set of numbers (:mod:`engine.points`): over hands of every rule set and seat count
(random play, 逃跑s, 荒庄s, hunan's 醒家 with birds), the group's settlement text, its
picture and each seat's private result say the same points for each seat, name the same parts
(醒筹, 打鸟), write 0 unsigned, and a 荒庄 says who pays what."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.i18n import t
from bot.present import birds as present_birds
from bot.present.screens.group import settlement_text
from bot.present.screens.result import result_text
from bot.store import BirdRow
from bot.table import HandRecord, Player, Table
from bot.table.birds import seat_points
from engine.birds import bird_seat, settle_birds
from engine.rules import RULE_SETS, RuleSet, table_rules
from engine.simulate import play_random
from engine.state import Hand
from engine.views import OutcomeKind
from render.scene import Text
from render.settlement import POINTS_X, layout_settlement

NAMES = ("Alice", "Bob", "Carol", "Dave")
SHAPES = [table_rules(r, n) for r in RULE_SETS for n in RULE_SETS[r].seat_choices]
NUMBER = r"([+-][\d,]+|0)"


def finished(rules: RuleSet, rng: random.Random) -> Hand:
    """A hand played to its end at random; now and then one seat runs away (逃跑) first."""
    hand = Hand.new(rules, seed=rng.getrandbits(64), dealer=rng.randrange(rules.players))
    if rng.random() < 0.15:
        for _ in range(rng.randrange(12)):
            if hand.is_terminal():
                break
            seat = rng.choice(hand.to_act())
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        if not hand.is_terminal():
            hand.escape(rng.choice([s for s in range(rules.players) if s != rules.xing_seat(hand.dealer)]))
    return play_random(hand, rng)


def settled(rules: RuleSet, seed: int) -> tuple[Table, HandRecord, list[BirdRow], dict[int, int]]:
    """A finished hand at its table, its settled birds and the running totals after it."""
    rng = random.Random(seed)
    hand = finished(rules, rng)
    outcome = hand.outcome
    assert outcome is not None
    users = tuple(range(1, rules.players + 1))
    names = NAMES[:rules.players]
    table = Table(7, -100, 1, 1, "between", None, 0, 0, rules=rules)
    table.players = {s: Player(u, names[s], "zh") for s, u in enumerate(users)}
    record = HandRecord(11, 3, hand, users, names, table_no=2)
    rows: list[BirdRow] = []
    if rules.birds and outcome.bird_card is not None and outcome.kind != OutcomeKind.DISSOLVED:
        each, _ = settle_birds(rules, outcome, hand.dealer, 2)
        seat = bird_seat(rules, hand.dealer, outcome.bird_card)
        rows = [BirdRow(90 + k, f"Bird{k}", seat, each) for k in range(rng.randrange(3))]
    before = {u: rng.randrange(-30, 31) for u in users}
    points = seat_points(record, rows)
    totals = {u: before[u] + points[s].total for s, u in enumerate(users)}
    return table, record, rows, totals


def cases() -> Iterator[tuple[RuleSet, int]]:
    for rules in SHAPES:
        for seed in range(40 if rules.birds else 12):
            yield rules, seed


def figures(line: str) -> tuple[str, str, list[str]]:
    """(the hand's points, the running total, the named parts) of a seat's points line."""
    m = re.search(NUMBER + r"[((](?:其中 (.*);)?累计 " + NUMBER + r"[))]$", line)
    assert m, line
    return m.group(1), m.group(3), (m.group(2) or "").split(" · ") if m.group(2) else []


@pytest.mark.parametrize(("rules", "seed"), list(cases()))
def test_the_group_the_picture_and_each_private_result_say_the_same_points(
        rules: RuleSet, seed: int) -> None:
    table, record, rows, totals = settled(rules, seed)
    outcome = record.hand.outcome
    assert outcome is not None
    points = seat_points(record, rows)
    # zero-sum with the birds counted in
    assert sum(p.total for p in points) + sum(b.points or 0 for b in rows) == 0
    group = settlement_text(table, record, totals, "zh", False, hand_birds=rows).splitlines()
    view = record.hand.public_view()
    per_seat = [totals[u] for u in record.users]
    scene = layout_settlement(view, record.names, per_seat, "zh",
                              birds=present_birds.picture_birds(rows))
    drawn = sorted((i for i in scene.items if isinstance(i, Text) and i.x == POINTS_X
                    and i.px == 26), key=lambda i: i.y)
    for seat, user in enumerate(record.users):
        private = result_text(table, record, seat, "zh", total=totals[user], hand_birds=rows,
                              live=False).splitlines()
        mine = figures(private[1])
        seat_line = next(line for line in group if line.startswith(record.names[seat])
                         and re.search(NUMBER + r"[((]", line))
        assert figures(seat_line) == mine
        hand_points, total, parts = mine
        assert drawn[seat].text == hand_points
        assert hand_points == (f"{points[seat].total:+,}" if points[seat].total else "0")
        assert total == (f"{totals[user]:+,}" if totals[user] else "0")
        birds = [p for p in parts if p.startswith("打鸟")]
        assert birds == ([f"打鸟 {points[seat].birds:+,}"] if points[seat].birds else [])
        if seat != outcome.xing and points[seat].xing:
            assert f"醒筹 {points[seat].xing:+,}" in parts
        assert private[2] == " · ".join(group[:2]) if outcome.kind == OutcomeKind.WIN \
            else private[2] == group[0]
    for text in ("\n".join(group), *(i.text for i in scene.items if isinstance(i, Text))):
        assert "+0" not in re.sub(r"\d\+0", "", text), text  # 0 is written unsigned
    if outcome.kind == OutcomeKind.DRAW:
        chips = outcome.points[outcome.xing] if outcome.xing is not None else 0
        assert ("不计分" in group[0]) == (not chips)
        if chips:
            assert group[0] == t("zh", "settle_draw_xing", dealer=record.names[view.dealer],
                                 xing=record.names[outcome.xing], points=chips)


def test_the_random_hands_reach_every_case_the_numbers_have() -> None:
    """The loop above meets 荒庄s with 醒筹, 逃跑s, birds paid and a 醒家's loser paying 醒筹."""
    seen: set[str] = set()
    for rules, seed in cases():
        _, record, rows, _ = settled(rules, seed)
        outcome = record.hand.outcome
        assert outcome is not None
        points = seat_points(record, rows)
        seen.add(outcome.kind)
        if outcome.kind == OutcomeKind.DRAW and outcome.xing is not None:
            seen.add("draw_xing")
        if any(p.birds for p in points):
            seen.add("birds")
        if any(p.xing < 0 for p in points):
            seen.add("xing_paid")
    assert seen >= {"win", "draw", "escape", "draw_xing", "birds", "xing_paid"}, seen
