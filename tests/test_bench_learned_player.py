"""The bench's trial level strong-learned (bench/learned_player.py) and the bench scripts that
make it: the model file fits the features, the correction takes the move the weights prefer and
nothing else, the data script records the search's verdicts, and the fit finds known weights.
It reads what the strong judgement read of the seat's view (engine.player.play.Table), never a
hand (checked here as engine.player's modules are in tests/engine/test_player.py)."""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from engine import cards as C
from engine import player
from engine.player.play import judge_table
from engine.rules import get_rule_set
from engine.state import Hand
from engine.views import Event

ROOT = Path(__file__).resolve().parents[1]
UNCORRECTED = player.STRONG.style


def script(name: str) -> ModuleType:
    """A module of bench/, imported by its name as the bench's scripts import each other."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


learned = script("learned_player")
CLAIM, DISCARD, NAMES = learned.CLAIM, learned.DISCARD, learned.NAMES
features, kind_of = learned.features, learned.kind_of


def decisions(rules_key: str, seeds: range):
    """(view, public events) of every decision in hands the uncorrected strong level plays."""
    for seed in seeds:
        hand = Hand.new(get_rule_set(rules_key), seed=seed, dealer=seed % 3)
        public: list[Event] = [e for e in hand.history if e.visible_to is None]
        while not hand.is_terminal():
            seat = hand.to_act()[0]
            view = hand.private_view(seat)
            yield view, public
            action = player.choose(view, public, level="strong")
            public = public + [e for e in hand.apply(seat, action) if e.visible_to is None]


def test_the_model_file_fits_the_features() -> None:
    model = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))
    assert model["names"] == {k: list(v) for k, v in NAMES.items()}
    assert model["weights"], "the strong level is trained"
    for rules_key, kinds in model["weights"].items():
        get_rule_set(rules_key)
        for kind, w in kinds.items():
            assert len(w) == len(NAMES[kind])
            assert model["measured"][rules_key][kind]["held_out_gain"] > 0


@pytest.mark.parametrize("rules_key", ["qq", "hunan/4"])
def test_the_correction_takes_the_move_the_weights_prefer(
        rules_key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With weights of its own, strong-learned takes the argmax of w · features over the uncorrected
    judgement, its own choice raised by the margin; the weights reach the choice (it differs
    from the uncorrected strong's), and so does the margin."""
    rng = random.Random(7)
    w = {kind: [1.0, *(rng.uniform(-8, 8) for _ in NAMES[kind][1:])] for kind in NAMES}
    margin = {DISCARD: 3.0, CLAIM: 0.0}
    monkeypatch.setattr(learned, "_model", lambda: {"weights": {rules_key: w},
                                                           "margins": {rules_key: margin}})
    differ = corrected = held = 0  # held: the margin kept the judgement's choice
    for view, public in decisions(rules_key, range(3)):
        table, judged = judge_table(view, public, UNCORRECTED)
        kind = kind_of(judged)
        chosen = learned.choose(view, public)
        if kind is None or len(judged) < 2:
            assert chosen == player.choose(view, public, level="strong")
            continue
        corrected += 1
        first = max(judged, key=lambda c: c.value).action
        scores = {c.action: float(np.dot(w[kind], features(table, c, kind)))
                  + (margin[kind] if c.action == first else 0.0) for c in judged}
        assert scores[chosen] == pytest.approx(max(scores.values()))
        differ += chosen != first
        held += kind == DISCARD and chosen == first and \
            scores[first] - margin[kind] < max(v for a, v in scores.items() if a != first)
    assert corrected > 20 and differ > 0 and held > 0


def test_weights_that_do_not_value_the_judgement_are_not_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fit whose weight on the judgement's value is not above 0 cannot be put in its units:
    strong-learned then plays as strong."""
    w = {kind: [0.0, *([-50.0] * (len(NAMES[kind]) - 1))] for kind in NAMES}
    monkeypatch.setattr(learned, "_model", lambda: {"weights": {"qq": w}})
    for view, public in decisions("qq", range(1)):
        assert learned.choose(view, public) == player.choose(view, public)


def test_features_say_what_the_move_is() -> None:
    seen = {DISCARD: 0, CLAIM: 0}
    for view, public in decisions("qq", range(2)):
        table, judged = judge_table(view, public, UNCORRECTED)
        kind = kind_of(judged)
        if kind is None:
            assert "win" in {c.why for c in judged} or "win_plain" in {c.why for c in judged}
            continue
        seen[kind] += 1
        for c in judged:
            f = dict(zip(NAMES[kind], features(table, c, kind), strict=True))
            assert f["value"] == c.value
            if kind == DISCARD:
                card = c.args[0]
                assert f["pair"] == (view.hand.count(card) == 2)
                assert (f["big"], f["red"]) == (C.is_big(card), C.is_red(card))
                assert 0 <= f["peng_risk"] <= 1 and 0 <= f["chi_risk"] <= 1
            else:
                assert f["pass"] == (c.action == "pass")
                assert f["peng"] == (c.action == "peng")
                assert f["chi"] == (c.action.startswith("c:"))
    assert seen[DISCARD] and seen[CLAIM]


def test_the_data_script_records_the_search_on_the_strong_choices() -> None:
    make = script("make_search_data")
    rows = make.hand_rows(("hunan/4", 11, 1, 2, 2))
    assert rows
    for row in rows:
        assert row["rules"] == "hunan/4" and row["kind"] in (DISCARD, CLAIM)
        first, *others = row["moves"]
        assert first["gain"] == 0.0 and first["error"] == 0.0 and others
        values = [m["features"][0] for m in row["moves"]]
        assert values == sorted(values, reverse=True)  # the strong level's best first
        for m in row["moves"]:
            assert len(m["features"]) == len(NAMES[row["kind"]])
            assert 0 < m["worlds"] <= 2


def test_the_fit_finds_known_weights_and_gains_by_them(tmp_path: Path) -> None:
    """Data made from known weights and noise: the fit comes back near them, its held-out
    gain is above 0, and the model file it writes holds them."""
    train = script("train_policy")
    rng = np.random.default_rng(1)
    truth = np.array([0.5, 0, -20.0, 0, 0, 0, 0, 0, 0, 3.0, 0, 0, 0, 0, 0, 0])
    lines = []
    for _ in range(600):
        moves = [rng.normal(size=len(truth)) for _ in range(3)]
        lines.append(json.dumps({"rules": "qq", "kind": DISCARD, "stock": 10, "moves": [
            {"action": f"d:{i}", "features": list(f), "worlds": 12, "error": 1.0,
             "gain": 0.0 if i == 0 else float(truth @ (f - moves[0]) + rng.normal(scale=2))}
            for i, f in enumerate(moves)]}))
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = train.load([str(data)])["qq", DISCARD]
    x, y, _ = train.equations(rows)
    assert np.allclose(train.fit(x, y, 1.0), truth, atol=0.5)
    assert train.cross_validate(rows, 1.0)[0.0] > 5
    out = tmp_path / "model.json"
    sys.argv = ["train_policy", str(data), "--out", str(out)]
    train.main()
    written = json.loads(out.read_text(encoding="utf-8"))
    assert np.allclose(written["weights"]["qq"][DISCARD], truth, atol=0.5)


def test_the_trial_level_never_sees_a_hand() -> None:
    tree = ast.parse((ROOT / "bench" / "learned_player.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert {m for m in imported if m and m.startswith("engine")} == {
        "engine", "engine.player", "engine.player.eval", "engine.player.play", "engine.views"}
    assert learned.STRONG_LEARNED.style == replace(player.STRONG.style, correct=learned.correct)
