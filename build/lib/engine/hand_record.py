"""A hand as a JSON-able record, and back: rule set, seed or deck, dealer, base and the log.

``Hand.to_dict`` and ``Hand.from_dict`` use these; ``engine.record`` adds the seed commitment
and the result for an exported, verifiable record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import cards as C
from engine.rules import get_rule_set

if TYPE_CHECKING:
    from engine.state import Hand


def to_dict(hand: Hand) -> dict[str, Any]:
    d: dict[str, Any] = {"rules": hand.rules.key, "dealer": hand.dealer, "base": hand.base}
    if hand.seed is not None:
        d["seed"] = hand.seed
    else:
        d["deck"] = C.format_ascii(hand.deck)
    d["log"] = [[seat, action] for seat, action in hand.log]
    return d


def replay_args(d: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``Hand.replay`` a record gives; ValueError for a bad one."""
    if not isinstance(d, dict):
        raise ValueError("hand record must be a JSON object")
    try:
        rules = get_rule_set(d.get("rules", "qq"))
        deck = C.parse_cards(d["deck"]) if "deck" in d else None
        seed = d.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ValueError("seed must be an integer")
        dealer, base = d.get("dealer", 0), d.get("base")
        if not isinstance(dealer, int) or (base is not None and not isinstance(base, int)):
            raise ValueError("dealer and base must be integers")
        log = d.get("log", [])
        if not isinstance(log, list) or not all(
            isinstance(e, list | tuple) and len(e) == 2 and isinstance(e[0], int)
            and isinstance(e[1], str) for e in log
        ):
            raise ValueError("log must be a list of [seat, action] pairs")
    except C.CardError as e:
        raise ValueError(f"bad deck: {e}") from None
    return {"rules": rules, "seed": seed, "deck": deck, "dealer": dealer, "base": base, "log": log}
