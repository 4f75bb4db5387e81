"""Legibility at a phone's width: the sizes that matter, measured as if each picture were shown
400 px wide (its own pixels x 400 / its width), over played hands of every rule set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.rules import FOUR14, HUNAN, QQ, RuleSet, table_rules
from engine.views import OutcomeKind
from render import cards
from render.demo import NAMES, TOTALS4, ended, play
from render.hand import layout_hand
from render.scene import Scene, Text
from render.settlement import layout_settlement
from render.strings import LANGS, table
from render.table import layout_table

PHONE = 400
SEEDS = range(3, 6)


def at_phone(scene: Scene, px: float) -> float:
    return px * PHONE / scene.width


def tables(rules: RuleSet) -> Iterator[object]:
    for seed in SEEDS:
        yield from (h.public_view() for h in play(seed, rules))


RULES = [QQ, HUNAN, FOUR14, table_rules("hunan", 3), table_rules("hunan", 2)]


@pytest.mark.parametrize("rules", [HUNAN, FOUR14], ids=lambda r: r.id)
def test_a_four_seat_group_table_is_at_most_1000_px_tall(rules: RuleSet) -> None:
    tallest = max(layout_table(v, NAMES).height for v in tables(rules))  # type: ignore[arg-type]
    assert tallest <= 1000


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.id}{r.players}")
def test_the_other_seats_melds_read_at_phone_width(rules: RuleSet) -> None:
    """Each meld card of another seat at least 18 px wide, its character at least 11 px."""
    seen = 0
    for seed in SEEDS:
        for h in play(seed, rules):
            for seat in h.to_act()[:1]:
                scene = layout_hand(h.private_view(seat), NAMES)
                for slot in scene.cards:
                    if slot.role == "meld" and slot.seat != seat:
                        seen += 1
                        assert at_phone(scene, slot.rect.w) >= 18
                        assert at_phone(scene, cards.char_box(slot.size)[2]) >= 11
    assert seen


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.id}{r.players}")
def test_the_settlement_formula_is_11_px_tall_and_whole(rules: RuleSet, lang: str) -> None:
    view = ended(7, OutcomeKind.WIN, rules=rules)
    assert view.outcome is not None and view.outcome.win is not None
    win = view.outcome.win
    s = table(lang)
    key = "formula_tun" if rules.mingtang_multiply else "formula"
    formula = s[key].format(x=win.di, f=win.fan, d=win.base)
    scene = layout_settlement(view, NAMES, TOTALS4, lang)
    line = [t for t in scene.items if isinstance(t, Text) and t.text == formula]
    assert line, "the formula line is cut or missing"
    assert at_phone(scene, line[0].px) >= 11
