"""What the lobby and the settlement say of 打鸟 (the rules are :mod:`bot.table.birds`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.store import BirdRow
from bot.table.birds import seat_points
from bot.table.model import HandRecord
from engine.rules import RuleSet


def waiting_line(rules: RuleSet, birds: Sequence[BirdRow], lang: str) -> str | None:
    """The lobby's (and a live settlement's) line on 打鸟: what it is, and who placed one."""
    if not rules.birds:
        return None
    if not birds:
        return t(lang, "birds_none")
    return t(lang, "birds_waiting", names=t(lang, "name_sep").join(b.name for b in birds))


def settled_lines(record: HandRecord, birds: Sequence[BirdRow], lang: str) -> list[str]:
    """The settlement's lines on the hand's birds: the seat the last card named, each bird's
    points, and what the seats paid them or got from them (on top of the hand's points, in
    the running totals)."""
    settled = [b for b in birds if b.points is not None]
    if not settled:
        return []
    seat = settled[0].seat
    followed = record.names[seat] if seat is not None else "—"
    lines = [t(lang, "birds_followed", name=followed)]
    lines += [t(lang, "birds_points", name=b.name, points=b.points) for b in settled]
    outcome = record.hand.outcome
    assert outcome is not None
    shares = [(record.names[s], p - o) for s, (p, o) in
              enumerate(zip(seat_points(record, settled), outcome.points, strict=True)) if p != o]
    if shares:
        lines.append(t(lang, "birds_shares", shares=" · ".join(
            t(lang, "birds_share", name=name, points=p) for name, p in shares)))
    return lines


def picture_birds(birds: Sequence[BirdRow]) -> list[tuple[str, int]]:
    """The settlement picture's birds: (name, points) of each settled one."""
    return [(b.name, b.points) for b in birds if b.points is not None]
