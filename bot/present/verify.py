"""验证 under a settlement: the fairness check of a finished hand, in words a player can follow.

Two facts are checked, not only told: the SHA-256 of the revealed seed begins with the 🔒
fingerprint the group was shown from the first picture of the hand on (read from the
message the button is under, so the check is against what the group saw), and the record the
store holds, replayed by the engine from that seed, ends in the settlement's result (its
winner and every seat's points, birds included: ``bot.table.birds.hand_totals``). The same
checks ``python -m engine verify`` makes on the ``/export`` file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.present.fairness import FINGERPRINT_HEX, fingerprint, replay, seed_commitment
from bot.present.screens.words import hand_outcome_lines, signed
from bot.store import BirdRow, PlayedHand
from bot.table.birds import hand_totals

_SHOWN = re.compile(rf"🔒 ([0-9a-f]{{{FINGERPRINT_HEX}}})")


@dataclass(frozen=True)
class Check:
    """The outcome of checking one finished hand."""

    played: PlayedHand
    sha: str
    shown: str  # the fingerprint the group was shown
    seed_ok: bool
    steps: int
    replay_ok: bool
    result: tuple[str, ...]  # how the replayed hand ended, in words
    points: tuple[int, ...] | None  # by seat, as replayed (None: the record does not replay)


def shown_fingerprint(caption: str | None) -> str | None:
    """The 🔒 fingerprint in a settlement's caption, if any."""
    found = _SHOWN.search(caption or "")
    return found[1] if found else None


def check(played: PlayedHand, birds: Sequence[BirdRow], shown: str | None,
          lang: str) -> Check:
    """Check the hand against the fingerprint ``shown`` (the seed's own one when the caption
    held none) and replay its record."""
    sha = seed_commitment(played.seed)
    shown = shown or fingerprint(played.seed)
    try:
        hand = replay(played)
    except ValueError:  # engine.state.IllegalAction: a log the rules refuse
        hand = None
    if hand is None or hand.outcome is None:
        return Check(played, sha, shown, sha.startswith(shown), len(played.log), False, (), None)
    points = hand_totals(hand, birds)
    ok = points == played.points and hand.outcome.winner == played.winner
    return Check(played, sha, shown, sha.startswith(shown), len(played.log), ok,
                 tuple(hand_outcome_lines(hand, played.names, lang)), points)


def check_text(c: Check, lang: str) -> str:
    """The private answer to 验证: each check with ✅ or ❌ and the figures it compared."""
    played = c.played
    lines = [t(lang, "verify_title", table=played.table_number, hand=played.table_no, id=played.id),
             t(lang, "verify_seed_ok" if c.seed_ok else "verify_seed_bad", seed=played.seed,
               sha=c.sha, fp=c.shown)]
    if c.points is None:
        lines.append(t(lang, "verify_replay_broken", steps=c.steps))
    else:
        lines.append(t(lang, "verify_replay_ok" if c.replay_ok else "verify_replay_bad",
                       steps=c.steps))
        lines += c.result
        lines += [t(lang, "verify_points", name=name, points=signed(p))
                  for name, p in zip(played.names, c.points, strict=True)]
    lines.append(t(lang, "verify_yourself", id=played.id))
    return "\n".join(lines)

