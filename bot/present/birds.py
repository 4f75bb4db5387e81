"""What the lobby and the settlement say of 打鸟 (the rules are :mod:`bot.table.birds`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.store import BirdRow
from bot.table.model import HandRecord
from engine.points import signed
from engine.rules import RuleSet


def waiting_line(rules: RuleSet, birds: Sequence[BirdRow], lang: str) -> str | None:
    """The lobby's (and a live settlement's) line on 打鸟: what it is, and who placed one."""
    if not rules.birds:
        return None
    if not birds:
        return t(lang, "birds_none")
    return t(lang, "birds_waiting", names=t(lang, "name_sep").join(b.name for b in birds))


def settled_lines(record: HandRecord, birds: Sequence[BirdRow], lang: str) -> list[str]:
    """The settlement's lines on the hand's birds: the seat the last card named and each
    bird's points (what the seats paid them or got from them is a part of the seats' own
    points, :func:`bot.present.screens.words.points_text`)."""
    settled = [(b, b.points) for b in birds if b.points is not None]
    if not settled:
        return []
    seat = settled[0][0].seat
    followed = record.names[seat] if seat is not None else "—"
    return [t(lang, "birds_followed", name=followed),
            *(t(lang, "birds_points", name=b.name, points=signed(points))
              for b, points in settled)]


def picture_birds(birds: Sequence[BirdRow]) -> list[tuple[str, int]]:
    """The settlement picture's birds: (name, points) of each settled one."""
    return [(b.name, b.points) for b in birds if b.points is not None]
