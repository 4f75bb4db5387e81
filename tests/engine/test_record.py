"""Provably fair deals: commitment, export, and verification by replay."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine.record import FORMAT, export_hand, seed_commitment, verify
from engine.rules import QQ
from engine.simulate import play_random
from engine.state import Hand


def played(seed: int = 42) -> Hand:
    return play_random(Hand.new(QQ, seed=seed, dealer=1), random.Random(seed))


def test_commitment_is_sha256_of_the_decimal_seed() -> None:
    import hashlib

    assert seed_commitment(42) == hashlib.sha256(b"42").hexdigest()


def test_export_verifies() -> None:
    doc = json.loads(json.dumps(export_hand(played()), ensure_ascii=False))
    assert doc["format"] == FORMAT
    verdict = verify(doc)
    assert verdict.ok, verdict.problems
    assert len(verdict.checks) == 4


@pytest.mark.parametrize(
    "tamper, problem",
    [
        (lambda d: d.update(seed_sha256="0" * 64), "SHA-256"),
        (lambda d: d.update(deck=" ".join(reversed(d["deck"].split()))), "deck"),
        (lambda d: d["result"].update(points=[9, 9, -18]), "result"),
        (lambda d: d["log"].insert(0, [2, "d:x1"]), "illegal"),
    ],
)
def test_tampered_records_fail(tamper, problem: str) -> None:
    doc = export_hand(played())
    tamper(doc)
    verdict = verify(doc)
    assert not verdict.ok and any(problem in p for p in verdict.problems)


@pytest.mark.parametrize("doc", [[], {"format": "x"}, {"format": FORMAT}, {"format": FORMAT, "seed": "1"}])
def test_not_a_record(doc) -> None:
    with pytest.raises(ValueError):
        verify(doc)


def test_cli_verify(tmp_path) -> None:
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(export_hand(played())), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(good)], capture_output=True, text=True
    )
    assert run.returncode == 0 and json.loads(run.stdout)["ok"] is True
    doc = export_hand(played())
    doc["result"]["points"] = [1, 2, 3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 1 and json.loads(run.stdout)["ok"] is False
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(junk)], capture_output=True, text=True
    )
    assert run.returncode == 2 and "error" in json.loads(run.stdout)
