"""验证 under a settlement: the fairness check of a finished hand, in words a player can follow.

Two facts are checked, not only told: the SHA-256 of the revealed seed begins with the 🔒
fingerprint the group was shown from the first picture of the hand on (read from the
message the button is under, so the check is against what the group saw), and the record the
store holds, replayed by the engine from that seed, ends in the settlement's result (its
winner and every seat's points, birds included). It is the one fairness check,
:func:`engine.record.check_hand`, that /dispute and ``python -m engine verify`` (on the
``/export`` file) make too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.present.fairness import FINGERPRINT_HEX, Fairness
from bot.present.fairness import check as check_fairness
from bot.present.screens.words import hand_outcome_lines, signed
from bot.store import BirdRow, PlayedHand

_SHOWN = re.compile(rf"🔒 ([0-9a-f]{{{FINGERPRINT_HEX}}})")


@dataclass(frozen=True)
class Check:
    """One finished hand checked (:func:`bot.present.fairness.check`), with the fingerprint
    checked against and how the replay ended, in words."""

    played: PlayedHand
    shown: str  # the fingerprint the group was shown
    fair: Fairness
    result: tuple[str, ...]


def shown_fingerprint(caption: str | None) -> str | None:
    """The 🔒 fingerprint in a settlement's caption, if any."""
    found = _SHOWN.search(caption or "")
    return found[1] if found else None


def check(played: PlayedHand, birds: Sequence[BirdRow], shown: str | None,
          lang: str) -> Check:
    """Check the hand against the fingerprint ``shown`` (the seed's own one when the caption
    held none) and replay its record."""
    fair = check_fairness(played, birds, shown)
    result = () if fair.hand is None or fair.points is None else \
        tuple(hand_outcome_lines(fair.hand, played.names, lang))
    return Check(played, shown or fair.sha[:FINGERPRINT_HEX], fair, result)


def check_text(c: Check, lang: str) -> str:
    """The private answer to 验证: each check with ✅ or ❌ and the figures it compared."""
    played = c.played
    lines = [t(lang, "verify_title", table=played.table_number, hand=played.table_no, id=played.id),
             t(lang, "verify_seed_ok" if c.fair.seed_ok else "verify_seed_bad", seed=played.seed,
               sha=c.fair.sha, fp=c.shown)]
    if c.fair.points is None:
        lines.append(t(lang, "verify_replay_broken", steps=c.fair.steps))
    else:
        lines.append(t(lang, "verify_replay_ok" if c.fair.same else "verify_replay_bad",
                       steps=c.fair.steps))
        lines += c.result
        lines += [t(lang, "verify_points", name=name, points=signed(p))
                  for name, p in zip(played.names, c.fair.points, strict=True)]
    lines.append(t(lang, "verify_yourself", id=played.id))
    return "\n".join(lines)

