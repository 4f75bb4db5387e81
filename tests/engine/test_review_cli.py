"""``python -m engine review FILE``: the 复盘 of an exported hand record as one JSON object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.review import played

from engine import actions as A
from engine.record import export_hand
from engine.review import KINDS, review_hand
from engine.rules import QQ, get_rule_set
from engine.state import Hand


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "review", *args],
        capture_output=True, text=True, encoding="utf-8", timeout=120,
    )


def flagged_record(tmp_path: Path) -> tuple[Path, dict]:
    """An exported hand whose review has flags."""
    for seed in range(60):
        doc = export_hand(played(get_rule_set("hunan/3"), seed))
        if review_hand(doc).flags:
            path = tmp_path / "hand.json"
            path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            return path, doc
    raise AssertionError("no flagged hand in 60")


def test_review_prints_decisions_ratings_and_flags(tmp_path: Path) -> None:
    path, doc = flagged_record(tmp_path)
    done = run(str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == review_hand(doc).to_dict()
    assert [s["seat"] for s in out["seats"]] == [0, 1, 2]
    log = doc["log"]
    for seat in out["seats"]:
        assert seat["rating"] is None or 0 <= seat["rating"] <= 100
        for d in seat["decisions"]:
            assert log[d["step"]] == [seat["seat"], d["played"]]
            assert d["best"] in d["values"] and d["played"] in d["values"]
            assert len(d["values"]) > 1
    assert out["flags"]
    for f in out["flags"]:
        assert set(f) == {"seat", "step", "kind", "text", "better"}
        assert f["kind"] in KINDS and log[f["step"]][0] == f["seat"]
        assert f["better"] is None or f["better"] in next(
            d["values"] for s in out["seats"] for d in s["decisions"]
            if (s["seat"], d["step"]) == (f["seat"], f["step"]))


def test_one_seat_in_english(tmp_path: Path) -> None:
    path, doc = flagged_record(tmp_path)
    done = run(str(path), "--seat", "1", "--lang", "en")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == review_hand(doc, seat=1, lang="en").to_dict()
    assert [s["seat"] for s in out["seats"]] == [1] and out["lang"] == "en"
    assert all(f["seat"] == 1 for f in out["flags"])


def test_what_is_not_a_finished_record_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    unfinished = tmp_path / "unfinished.json"
    h = Hand.new(QQ, seed=4, dealer=0)
    h.apply(h.to_act()[0], h.legal_actions(h.to_act()[0])[0])
    unfinished.write_text(json.dumps(export_hand(h)), encoding="utf-8")
    illegal = tmp_path / "illegal.json"
    doc = export_hand(played(QQ, 4))
    illegal.write_text(json.dumps({**doc, "log": [[1, A.PENG], *doc["log"]]}), encoding="utf-8")
    for path in (bad, unfinished, illegal, tmp_path / "missing.json"):
        done = run(str(path))
        assert done.returncode == 2, path
        assert "error" in json.loads(done.stdout)
