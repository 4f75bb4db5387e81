"""Every level still makes the choices it made before the player became a package: whole
seeded hands played by one level at every seat, each choice, value (``evaluate``) and 提示
(``explain``) folded into a digest, recorded from a run of the same hands before the levels
became objects. A change of a level's play shows here first; a deliberate one records new digests (and the
bench figures of docs/player.md are measured again)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.player import choose, evaluate, explain
from engine.rules import get_rule_set
from engine.state import Hand

RECORDED = {
    ("weak", "qq"): "50ffdeda782c9c27",
    ("weak", "hunan/4"): "c50f568da0e5463d",
    ("weak", "four14"): "535b10c13a75c736",
    ("medium", "qq"): "c5bd0ed6b8771b2c",
    ("medium", "hunan/4"): "9bef7e6b14325380",
    ("medium", "four14"): "ceb23a637ba69597",
    ("strong", "qq"): "1be2cb9757690ae4",
    ("strong", "hunan/4"): "b1408200224a8df1",
    ("strong", "four14"): "5c546f31ece1973d",
}
SEED = 1


def digest(level: str, rules_key: str, values: bool) -> str:
    rules = get_rule_set(rules_key)
    hand = Hand.new(rules, seed=SEED, dealer=SEED % rules.players)
    rngs = [random.Random(SEED * 31 + s) for s in range(4)]
    public = [e for e in hand.history if e.visible_to is None]
    h = hashlib.sha256()
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        view = hand.private_view(seat)
        action = choose(view, public, rngs[seat], level=level)
        h.update(action.encode())
        if values:
            h.update(json.dumps(sorted(evaluate(view, public, level=level).items())).encode())
            h.update(repr(explain(view, public, "zh")).encode())
            h.update(repr(explain(view, public, "en")).encode())
        public.extend(e for e in hand.apply(seat, action) if e.visible_to is None)
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("level", "rules_key"), list(RECORDED), ids="/".join)
def test_a_judging_level_plays_as_recorded(level: str, rules_key: str) -> None:
    assert digest(level, rules_key, values=True) == RECORDED[level, rules_key]


def test_master_searches_as_recorded() -> None:
    """The searching level on its full budget (some seconds): its choices only."""
    assert digest("master", "qq", values=False) == "185fe4688ebbfa23"
