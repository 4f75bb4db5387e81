"""/void and /dispute: an admin voids a finished hand as a whole; a player of a hand asks the
admins to look at it, with its fairness check and every seat's 复盘 summary.

The fairness check (:func:`bot.present.fairness.check`, the engine's one check) is what anyone
can redo with ``python -m engine verify`` on the hand's /export: the seed's SHA-256 (its first
digits were the 🔒 shown at the deal), the seed, and a replay of the recorded moves from that
seed, whose settlement (with the birds' share, as ``bot.table.birds`` settled them) must be
the one the store recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.numbers import positive
from bot.present.fairness import Fairness, fingerprint
from bot.store import PlayedHand
from engine import actions as A
from engine.review import Review

REASON_MAX = 200  # characters of a void's reason


@dataclass(frozen=True)
class VoidQuery:
    no: int
    reason: str


def void_query(args: Sequence[str]) -> VoidQuery | None:
    """/void N 理由: the group's hand number and a reason (both needed); None otherwise."""
    if len(args) < 2 or not args[0].isdigit() or not 0 < int(args[0]) < 2**31:
        return None
    reason = " ".join(args[1:]).strip()
    if not reason or len(reason) > REASON_MAX:
        return None
    return VoidQuery(int(args[0]), reason)


def hand_number(args: Sequence[str]) -> int | None:
    """/dispute N: the group's hand number."""
    return positive(args[0]) if len(args) == 1 else None


def void_text(played: PlayedHand, by: str, reason: str, lang: str) -> str:
    points = " · ".join(f"{n} {p:+d}" for n, p in zip(played.names, played.points, strict=True))
    return t(lang, "void_done", no=played.no, by=by, reason=reason, points=points)


def _points(names: Sequence[str], points: Sequence[int] | None) -> str:
    if points is None:
        return "—"
    return " · ".join(f"{n} {p:+d}" for n, p in zip(names, points, strict=True))


def dispute_text(played: PlayedHand, found: Fairness, by: str, lang: str) -> str:
    """The fairness part of /dispute's answer (``found``: :func:`bot.present.fairness.check`)."""
    lines = [t(lang, "dispute_head", no=played.no, table=played.table_number, hand=played.table_no,
               by=by),
             t(lang, "dispute_seed", fp=fingerprint(played.seed), seed=played.seed, sha=found.sha),
             t(lang, "dispute_replay" if found.legal else "dispute_illegal", steps=found.steps,
               points=_points(played.names, found.points)),
             t(lang, "dispute_recorded", points=_points(played.names, played.points)),
             t(lang, "dispute_same" if found.same else "dispute_differs")]
    if played.voided_by is not None:  # decided already: nothing left to ask the admins
        lines.append(t(lang, "dispute_voided", reason=played.void_reason or ""))
    else:
        lines.append(t(lang, "dispute_decide", no=played.no))
    return "\n".join(lines)


def reviews_text(played: PlayedHand, review: Review, lang: str) -> str:
    """Every seat's 复盘 in a line or two: its rating and its costliest moment."""
    lines = [t(lang, "dispute_reviews", no=played.no)]
    for mine in review.seats:
        name = played.names[mine.seat]
        if mine.rating is None:
            lines.append(t(lang, "dispute_seat_unrated", name=name))
            continue
        worst = mine.costliest(1)
        if not worst:
            lines.append(t(lang, "dispute_seat_flawless", name=name, rating=mine.rating))
            continue
        d = worst[0]
        lines.append(t(lang, "dispute_seat", name=name, rating=mine.rating, step=d.step,
                       played=A.label(d.played, lang), better=A.label(d.best, lang),
                       loss=f"{d.loss:.1f}", n=len(mine.costliest())))
    return "\n".join(lines)
