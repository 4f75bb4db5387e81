"""Provably fair hands: a seed commitment before the deal, and an exported record anyone can check.

When a hand starts the group is shown ``seed_commitment(seed)``; the settlement reveals the seed.
``export_hand`` writes the whole hand as a JSON-able document; ``verify`` replays such a document
through the engine and confirms the commitment, the deck, every move and the result.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import cards as C
from engine.rules import get_rule_set
from engine.state import Hand, IllegalAction
from engine.views import Outcome

FORMAT = "paohuzi-hand/1"


def seed_commitment(seed: int) -> str:
    """SHA-256 (hex) of the seed written in decimal: published before the deal."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


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
    """Replay a record; ``ValueError`` if it is not one at all."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"not a hand record (expected \"format\": \"{FORMAT}\")")
    v = Verdict(ok=True)
    seed = doc.get("seed")
    if seed is None:
        raise ValueError("the record has no seed")
    if not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    commitment = doc.get("seed_sha256")
    if commitment is not None:
        if commitment == seed_commitment(seed):
            v.checks.append("seed matches the SHA-256 shown at the start")
        else:
            v.problems.append("seed does not match the published SHA-256")
    base = {k: doc[k] for k in ("rules", "dealer", "base") if k in doc}
    get_rule_set(base.get("rules", "qq"))
    fresh = Hand.from_dict({**base, "seed": seed})
    if "deck" in doc:
        try:
            same = C.parse_cards(doc["deck"]) == fresh.deck
        except (C.CardError, TypeError):
            raise ValueError("deck does not parse") from None
        if same:
            v.checks.append("deck is the shuffle of that seed")
        else:
            v.problems.append("deck is not the shuffle of that seed")
    try:
        hand = Hand.from_dict({**base, "seed": seed, "log": doc.get("log", [])})
        v.checks.append(f"all {len(hand.log)} moves are legal")
    except IllegalAction as e:
        v.problems.append(f"illegal move: {e}")
        v.ok = False
        return v
    recorded = doc.get("result")
    if recorded is not None:
        if recorded == result_summary(hand.outcome):
            v.checks.append("result matches the replay")
        else:
            v.problems.append(f"result differs: replay gives {result_summary(hand.outcome)}")
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
