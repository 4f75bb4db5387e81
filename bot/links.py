"""The bot's deep links, ``t.me/<bot>?start=<payload>``: a payload is a letter and a number
(``r12`` the replay of hand 12, ``c12`` its 验证 check, ``x3`` joins challenge 3, ``j5``
seats at table 5), read back strictly."""

from __future__ import annotations


def payload(prefix: str, number: int) -> str:
    return f"{prefix}{number}"


def number(text: str, prefix: str) -> int | None:
    """The number of the payload ``<prefix><digits>``; None for any other payload."""
    rest = text.removeprefix(prefix)
    return int(rest) if text.startswith(prefix) and rest.isascii() and rest.isdigit() else None
