"""Provably fair hands: a seed commitment before the deal, and an exported record anyone can check.

When a hand starts the group is shown ``seed_commitment(seed)`` (its :func:`fingerprint`); the
settlement reveals the seed. :func:`check_hand` is the fairness check itself, the one every
caller makes (the bot's 验证 button and /dispute, ``python -m engine verify``): the seed is the
one committed to, every recorded move is legal from its deal, and the replay settles as
recorded. ``export_hand`` writes the whole hand as a JSON-able document; ``verify`` checks
such a document with it, and its deck and full result too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import cards as C
from engine import hand_record
from engine.points import hand_points
from engine.rules import RuleSet
from engine.state import Hand, IllegalAction
from engine.views import Outcome

FORMAT = "paohuzi-hand/1"
FINGERPRINT_HEX = 8  # hex digits of the commitment the hand's pictures show


def seed_commitment(seed: int) -> str:
    """SHA-256 (hex) of the seed written in decimal: published before the deal."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def fingerprint(seed: int) -> str:
    """The short form of the seed's commitment shown from the deal on (its first hex
    digits): enough to recognise the full commitment given with the seed."""
    return seed_commitment(seed)[:FINGERPRINT_HEX]


@dataclass(frozen=True)
class Fairness:
    """A finished hand checked against what its players were shown and what was recorded.

    ``seed_ok``: the commitment shown is the seed's (None: none was shown); ``hand``: the
    replay of the recorded moves from the seed's deal (None: a move that deal does not
    allow, said in ``illegal``); ``points``: each seat's total as the replay settles it,
    birds included (None: no finished replay); ``same``: those are the recorded points and
    winner (None: none were recorded)."""

    sha: str
    seed_ok: bool | None
    steps: int
    hand: Hand | None
    illegal: str | None
    points: tuple[int, ...] | None
    same: bool | None

    @property
    def legal(self) -> bool:
        return self.hand is not None


def check_hand(rules: RuleSet, seed: int, log: Sequence[Sequence[Any]], *, dealer: int = 0,
               base: int | None = None, shown: str | None = None, birds: int = 0,
               points: Sequence[int] | None = None, winner: int | None = None) -> Fairness:
    """The fairness check: ``shown`` (the commitment the players saw: all of it or its
    :func:`fingerprint`) against the seed's, the record's ``log`` replayed from the seed's
    deal, and the replay's settlement (with ``birds`` settled birds, :mod:`engine.birds`)
    against the recorded ``points`` and ``winner``. About a millisecond."""
    sha = seed_commitment(seed)
    seed_ok = None if shown is None else shown in (sha, sha[:FINGERPRINT_HEX])
    try:
        hand = Hand.replay(rules, seed=seed, dealer=dealer, base=base,
                           log=[(seat, action) for seat, action in log])
    except IllegalAction as e:
        return Fairness(sha, seed_ok, len(log), None, str(e), None,
                        None if points is None else False)
    outcome = hand.outcome
    totals = None if outcome is None else \
        tuple(p.total for p in hand_points(rules, outcome, hand.dealer, birds))
    same = None if points is None else \
        totals == tuple(points) and outcome is not None and outcome.winner == winner
    return Fairness(sha, seed_ok, len(log), hand, None, totals, same)


def result_summary(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    summary: dict[str, Any] = {
        "kind": outcome.kind.value,
        "points": list(outcome.points),
        "winner": outcome.winner,
        "escaper": outcome.escaper,
    }
    if outcome.xing is not None:  # hunan, 4 seats: the 醒家 and the card that names the birds' seat
        summary["xing"] = outcome.xing
    if outcome.bird_card is not None:
        summary["bird_card"] = C.to_ascii(outcome.bird_card)
    if outcome.fed_by is not None:  # four14: the seat whose discard was won on
        summary["fed_by"] = outcome.fed_by
    if outcome.uncapped_points is not None:  # 封顶 (house rule) cut what the losers paid
        summary |= {"capped": list(outcome.capped),
                    "uncapped_points": list(outcome.uncapped_points)}
    if outcome.win is not None:
        summary |= {
            "huxi": outcome.win.huxi,
            "fan": outcome.win.fan,
            "di": outcome.win.di,
            "mingtang": [list(m) for m in outcome.win.mingtang],
        }
    return summary


def export_hand(hand: Hand) -> dict[str, Any]:
    """The hand's full record: rule set, seed and its commitment, deck, dealer, moves, result."""
    doc: dict[str, Any] = {"format": FORMAT, **hand.to_dict()}
    if hand.seed is not None:
        doc["seed_sha256"] = seed_commitment(hand.seed)
    doc["deck"] = C.format_ascii(hand.deck)
    doc["result"] = result_summary(hand.outcome)
    return doc


@dataclass
class Verdict:
    ok: bool
    checks: list[str] = field(default_factory=list)  # what was confirmed
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": self.checks, "problems": self.problems}


def verify(doc: Any) -> Verdict:
    """Check a record (:func:`check_hand`, and its deck and full result); ``ValueError`` if
    it is not one at all."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"not a hand record (expected \"format\": \"{FORMAT}\")")
    v = Verdict(ok=True)
    seed = doc.get("seed")
    if seed is None:
        raise ValueError("the record has no seed")
    if not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    base = {k: doc[k] for k in ("rules", "dealer", "base") if k in doc}
    args = hand_record.replay_args({**base, "seed": seed, "log": doc.get("log", [])})
    commitment = doc.get("seed_sha256")
    fair = check_hand(args["rules"], seed, args["log"], dealer=args["dealer"],
                      base=args["base"], shown=commitment)
    if fair.seed_ok:
        v.checks.append("seed matches the SHA-256 shown at the start")
    elif fair.seed_ok is not None:
        v.problems.append("seed does not match the published SHA-256")
    if "deck" in doc:
        try:
            same = C.parse_cards(doc["deck"]) == Hand.new(args["rules"], seed=seed).deck
        except (C.CardError, TypeError):
            raise ValueError("deck does not parse") from None
        if same:
            v.checks.append("deck is the shuffle of that seed")
        else:
            v.problems.append("deck is not the shuffle of that seed")
    if fair.hand is None:
        v.problems.append(f"illegal move: {fair.illegal}")
        v.ok = False
        return v
    v.checks.append(f"all {fair.steps} moves are legal")
    recorded = doc.get("result")
    if recorded is not None:
        if recorded == result_summary(fair.hand.outcome):
            v.checks.append("result matches the replay")
        else:
            v.problems.append(f"result differs: replay gives {result_summary(fair.hand.outcome)}")
    v.ok = not v.problems
    return v


def cmd_verify(args: Any, stdin: Any, stdout: Any,
               check: Callable[[Any], Verdict] = verify) -> int:
    """``python -m engine verify FILE``: 0 verified, 1 the record fails a check, 2 not a record
    (``check``: what reads the record; ``engine.duplicate.verify_any`` takes a challenge's too)."""
    import json

    try:
        with open(args.file, encoding="utf-8") as f:
            verdict = check(json.load(f))
    except (OSError, ValueError) as e:
        print(json.dumps({"error": str(e)}, ensure_ascii=False), file=stdout)
        return 2
    print(json.dumps(verdict.to_dict(), ensure_ascii=False), file=stdout)
    return 0 if verdict.ok else 1
