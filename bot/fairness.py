"""Provably fair deals in the bot: the seed's commitment, its reveal, and the exported record.

The group sees ``seed_commitment(seed)`` in the table caption from the first picture of a hand
on; the settlement reveals the seed; ``/export`` sends the last finished hand of the group as
the JSON document of :func:`engine.record.export_hand`, which ``python -m engine verify``
checks. A running hand is never exported: its seed is the deal.
"""

from __future__ import annotations

import json

from bot.store import PlayedHand
from engine.record import export_hand, seed_commitment
from engine.rules import get_rule_set
from engine.state import Hand

__all__ = ["export_file", "filename", "replay", "seed_commitment"]


def replay(played: PlayedHand) -> Hand:
    """The finished hand rebuilt from its record in the store."""
    return Hand.replay(get_rule_set(played.rule_set), seed=played.seed, dealer=played.dealer,
                       base=played.base, log=list(played.log))


def filename(hand_id: int) -> str:
    return f"paohuzi-hand-{hand_id}.json"


def export_file(played: PlayedHand) -> tuple[str, bytes, str]:
    """(file name, UTF-8 JSON bytes, seed commitment) of a finished hand's record."""
    hand = replay(played)
    doc = export_hand(hand)
    data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
    return filename(played.id), data, doc["seed_sha256"]
