"""Provably fair deals: commitment, export, and verification by replay."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine.points import hand_points
from engine.record import FORMAT, check_hand, export_hand, fingerprint, seed_commitment, verify
from engine.rules import QQ, table_rules
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


def test_the_fairness_check_passes_an_honest_hand_however_its_commitment_was_shown() -> None:
    hand = played()
    assert hand.outcome is not None
    for shown in (None, seed_commitment(42), fingerprint(42)):
        fair = check_hand(QQ, 42, hand.log, dealer=1, shown=shown, points=hand.outcome.points,
                          winner=hand.outcome.winner)
        assert fair.seed_ok is (None if shown is None else True)
        assert fair.legal and fair.same and fair.steps == len(hand.log)
        assert fair.points == hand.outcome.points and fair.illegal is None
    assert check_hand(QQ, 42, hand.log, dealer=1).same is None  # nothing recorded to compare


def test_the_fairness_check_catches_each_lie() -> None:
    hand = played()
    outcome = hand.outcome
    assert outcome is not None
    honest = {"dealer": 1, "points": outcome.points, "winner": outcome.winner}
    assert check_hand(QQ, 42, hand.log, shown=fingerprint(43), **honest).seed_ok is False
    assert check_hand(QQ, 42, hand.log, shown=seed_commitment(42)[:7], **honest).seed_ok is False
    other = [p + 1 for p in outcome.points]
    assert check_hand(QQ, 42, hand.log, **{**honest, "points": other}).same is False
    cut = check_hand(QQ, 42, hand.log[:-1], **honest)  # never settles
    assert cut.legal and cut.points is None and cut.same is False
    (seat, action), *rest = hand.log
    wrong = check_hand(QQ, 42, [((seat + 1) % 3, action), *rest], **honest)
    assert not wrong.legal and wrong.illegal and wrong.same is False and wrong.points is None
    assert check_hand(QQ, 43, hand.log, **honest).same is not True  # another seed's deal


def test_the_fairness_check_counts_the_settled_birds() -> None:
    rules = table_rules("hunan", 4)  # a 醒家 and birds on the seat its card names
    hand = next(h for h in (play_random(Hand.new(rules, seed=s), random.Random(s))
                            for s in range(1, 400))
                if h.outcome is not None and h.outcome.bird_card is not None
                and any(hand_points(rules, h.outcome, h.dealer, 2)[i].birds for i in range(4)))
    assert hand.outcome is not None and hand.seed is not None
    with_birds = tuple(p.total for p in hand_points(rules, hand.outcome, hand.dealer, 2))
    fair = check_hand(rules, hand.seed, hand.log, dealer=hand.dealer, birds=2,
                      points=with_birds, winner=hand.outcome.winner)
    assert fair.same and fair.points == with_birds
    without = check_hand(rules, hand.seed, hand.log, dealer=hand.dealer,
                         points=with_birds, winner=hand.outcome.winner)
    assert without.same is False  # the birds' share is part of the settlement checked
