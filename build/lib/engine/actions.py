"""Action strings: the log format, the bot's callback payload, and their labels.

``"hu"`` win · ``"pass"`` 过 · ``"peng"`` 碰 · ``"d:x3"`` discard a 三 ·
``"c:x1x2x3+x2x2d2"`` 吃 (first group holds the eaten card, the rest are 比 groups).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import cards as C

HU = "hu"
PASS = "pass"
PENG = "peng"
ESCAPE = "escape"  # logged for 逃跑; never among the legal actions
DISSOLVE = "dissolve"  # logged for a 解散 the seats agreed to; never among the legal actions


_DISCARDS = tuple(f"d:{C.to_ascii(k)}" for k in range(C.KINDS))
_DISCARD_KIND = {a: k for k, a in enumerate(_DISCARDS)}


def discard(kind: int) -> str:
    return _DISCARDS[kind]


def chi(groups: Sequence[Sequence[int]]) -> str:
    return "c:" + "+".join("".join(C.to_ascii(k) for k in g) for g in groups)


@dataclass(frozen=True)
class ParsedAction:
    kind: str  # hu pass peng discard chi escape dissolve
    card: int | None = None  # the discarded card
    groups: tuple[tuple[int, ...], ...] = ()  # 吃 groups


def parse(action: str) -> ParsedAction:
    """Structure of an action string; ``ValueError`` when it is not one."""
    if action in (HU, PASS, PENG, ESCAPE, DISSOLVE):
        return ParsedAction(action)
    if action in _DISCARD_KIND:
        return ParsedAction("discard", card=_DISCARD_KIND[action])
    head, sep, body = action.partition(":")
    if sep and head == "d":
        return ParsedAction("discard", card=C.parse_card(body))
    if sep and head == "c":
        groups = tuple(tuple(C.parse_cards(g)) for g in body.split("+"))
        if not groups or any(len(g) != 3 for g in groups):
            raise ValueError(f"malformed 吃 action: {action!r}")
        return ParsedAction("chi", groups=groups)
    raise ValueError(f"unknown action: {action!r}")


_LABELS = {
    "zh": {HU: "胡", PASS: "过", PENG: "碰", ESCAPE: "逃跑", DISSOLVE: "解散", "discard": "出", "chi": "吃", "bi": "比"},
    "en": {HU: "胡 Win", PASS: "过 Pass", PENG: "碰", ESCAPE: "逃跑 Leave", DISSOLVE: "解散 Dissolve",
           "discard": "出",
           "chi": "吃", "bi": "比"},
}


def label(action: str, lang: str = "zh") -> str:
    """Short button label: ``出 三``, ``吃 一二三 比 二二贰``, ``碰``, ``胡``, ``过``."""
    words = _LABELS.get(lang, _LABELS["zh"])
    p = parse(action)
    if p.kind == "discard":
        assert p.card is not None
        return f"{words['discard']} {C.to_char(p.card)}"
    if p.kind == "chi":
        first, *rest = p.groups
        parts = [f"{words['chi']} {C.format_cards(first)}"]
        parts += [f"{words['bi']} {C.format_cards(g)}" for g in rest]
        return " ".join(parts)
    return words[p.kind]
