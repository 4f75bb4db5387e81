"""Provably fair deals in the bot: the seed's commitment, its reveal, and the exported record.

The group sees the commitment's :func:`fingerprint` (its first 8 hex digits) in the table
caption from the first picture of a hand on; the settlement repeats it and, in a 公平性 part a
curious player opens, reveals the seed, the full ``seed_commitment(seed)`` and how to verify; ``/export`` sends the last finished hand of the group as
the JSON document of :func:`engine.record.export_hand`, which ``python -m engine verify``
checks. A running hand is never exported: its seed is the deal. ``/export 挑战 N`` sends an
ended 复式挑战 as the document of :func:`engine.duplicate.export_challenge` (every player's
every deal, the seeds and their committed SHA-256), which ``python -m engine verify`` checks
too; an open challenge is not exported: its seeds are secret until it ends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from bot.i18n import t
from bot.store import BirdRow, PlayedHand
from bot.store.challenges import ChallengeRow
from bot.table.challenges import Run, Standing
from engine.duplicate import export_challenge, seeds_commitment
from engine.record import (
    FINGERPRINT_HEX,
    Fairness,
    check_hand,
    export_hand,
    fingerprint,
    seed_commitment,
)
from engine.rules import get_rule_set
from engine.state import Hand

__all__ = ["FINGERPRINT_HEX", "Fairness", "challenge_file", "check", "export_file", "filename",
           "fingerprint", "replay", "seal", "seed_commitment"]


def seal(seed: int, lang: str) -> str:
    """The fingerprint as a caption's head carries it (``🔒 1a2b3c4d``)."""
    return t(lang, "table_seal", fp=fingerprint(seed))


def replay(played: PlayedHand) -> Hand:
    """The finished hand rebuilt from its record in the store."""
    return Hand.replay(get_rule_set(played.rule_set), seed=played.seed, dealer=played.dealer,
                       base=played.base, log=list(played.log))


def check(played: PlayedHand, birds: Sequence[BirdRow], shown: str | None = None) -> Fairness:
    """The fairness check (:func:`engine.record.check_hand`) of a finished hand the store
    holds, against the 🔒 fingerprint ``shown`` (the seed's own when None), its birds (those
    settled count) and its recorded points and winner."""
    return check_hand(get_rule_set(played.rule_set), played.seed, played.log,
                      dealer=played.dealer, base=played.base,
                      shown=shown or fingerprint(played.seed),
                      birds=sum(b.points is not None for b in birds),
                      points=played.points, winner=played.winner)


def filename(hand_id: int) -> str:
    return f"paohuzi-hand-{hand_id}.json"


def export_file(played: PlayedHand) -> tuple[str, bytes, str]:
    """(file name, UTF-8 JSON bytes, seed commitment) of a finished hand's record."""
    hand = replay(played)
    doc = export_hand(hand)
    data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
    return filename(played.id), data, doc["seed_sha256"]


def challenge_file(row: ChallengeRow, table: Sequence[Standing],
                   runs: Mapping[int, Run]) -> tuple[str, bytes, str]:
    """(file name, UTF-8 JSON bytes, the seeds' commitment) of an ended challenge: its
    players in standing order, each with his deals as far as he played them."""
    players = [(s.player.name, [d.hand for d in runs[s.player.user_id].deals]) for s in table]
    doc = export_challenge(row.id, get_rule_set(row.rules), row.seeds, players)
    data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
    return f"paohuzi-challenge-{row.id}.json", data, seeds_commitment(row.seeds)
