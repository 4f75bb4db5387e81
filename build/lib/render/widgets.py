"""Small drawing pieces shared by the layouts: pills, glows, meld columns, event text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import cards as C
from engine.melds import CHINESE_NAMES, Group
from engine.rules import get_rule_set
from engine.views import Event, MeldView
from render import fonts
from render import theme as T
from render.scene import Box, Rect, Scene

Run = tuple[str, T.RGB]  # a piece of text and its colour (one of several on a line)


def pill(
    scene: Scene, x: int, y: int, text: str, px: int, fill: T.RGB, ink: T.RGB = T.TEXT
) -> Rect:
    """Bold ``text`` on a rounded label whose left-top corner is (x, y)."""
    w = round(fonts.font(px, bold=True).getlength(text)) + px
    rect = Rect(x, y, w, round(px * 1.5))
    scene.add(Box(rect, fill=fill, radius=rect.h // 2))
    scene.text(x + w // 2, y + rect.h // 2, text, px, ink, bold=True, anchor="mm")
    return rect


def glow(scene: Scene, rect: Rect, colour: T.RGB = T.HIGHLIGHT, d: int = 5) -> None:
    """A coloured halo behind ``rect`` (add it before the cards it surrounds)."""
    scene.add(Box(rect.grow(d), fill=colour, radius=10))


def meld_column(
    scene: Scene, x: int, y: int, meld: MeldView, size: T.CardSize, seat: int, owner: bool
) -> Rect:
    """One table meld as an overlapping column; ``owner``: draw hidden cards as faces marked
    hidden (the owner's own view), else as backs."""
    order = sorted(range(len(meld.cards)), key=lambda i: not meld.face_up[i])
    kinds = [meld.cards[i] for i in order]
    hidden = [owner and not meld.face_up[i] for i in order]
    return scene.column(x, y, kinds, size, "meld", seat, hidden=hidden)


def group_huxi(meld: MeldView) -> int | None:
    """The meld's 胡息 when every card is known to the viewer."""
    if any(k is None for k in meld.cards):
        return None
    return Group(meld.kind, tuple(k for k in meld.cards if k is not None)).huxi


def kind_name(kind: str) -> str:
    return CHINESE_NAMES.get(kind, kind)  # type: ignore[call-overload]


def event_text(
    event: Event, names: Sequence[str], s: Mapping[str, str], name_px: int, name_width: float
) -> str:
    """One line describing ``event`` (player name cleaned and cut to ``name_width``)."""
    who = (
        "" if event.seat is None else fonts.name(names[event.seat], fonts.font(name_px), name_width)
    )
    if event.groups:
        shown = " ".join(C.format_cards(g) for g in event.groups)
    else:
        shown = C.format_cards(event.cards)
    template = s.get(f"ev_{event.kind}", "{name}")
    return " ".join(template.format(name=who, cards=shown).split())


def seat_mark(
    s: Mapping[str, str], seat: int, trustee: frozenset[int], robots: frozenset[int]
) -> Run | None:
    """The mark beside a seat's name: 电脑 for a computer player (always automatic), else 托管."""
    if seat in robots:
        return (s["robot"], T.ROBOT)
    if seat in trustee:
        return (s["trustee"], T.TRUSTEE)
    return None


def rules_label(s: Mapping[str, str], key: str) -> str:
    """The rules in force, short, from a ``RuleSet.key``: the rule set's name, the seat count
    and the two-seat option ("湖南跑胡子 · 2人 · 去20张")."""
    rules = get_rule_set(key)
    parts = [s.get(f"rules_{rules.id}", rules.id), s["rules_seats"].format(n=rules.players)]
    if rules.two_seat:
        parts.append(s[f"rules_{rules.two_seat}"])
    return s["rules_sep"].join(parts)
