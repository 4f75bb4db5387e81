"""A group's time zone (/timezone, an admin's setting): the times the bot shows a group, such
as a 复式挑战's deadline, are in it; :data:`DEFAULT` (China's, where the game is played) for a
group whose admins set none. Zones are IANA names, read by :mod:`zoneinfo`."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

DEFAULT = "Asia/Shanghai"
# what the usage and a refusal offer
EXAMPLES = ("Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Singapore",
            "Europe/London", "America/New_York", "UTC")
NAME_MAX = 64  # characters: longer than any IANA name


@cache
def _names() -> dict[str, str]:
    """Every zone name, by its lower case."""
    return {name.lower(): name for name in available_timezones()}


def zone_named(word: str) -> str | None:
    """The IANA zone ``word`` names (any letter case: ``asia/tokyo``); None if none."""
    if len(word) > NAME_MAX:
        return None
    return _names().get(word.lower())


def local_time(timestamp: float, zone: str | None) -> str:
    """``2026-12-08 20:30 (Asia/Shanghai, UTC+8)``: the epoch time in the group's zone."""
    name = zone or DEFAULT
    at = datetime.fromtimestamp(timestamp, ZoneInfo(name))
    offset = at.utcoffset()
    minutes = 0 if offset is None else int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    utc = f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "") if minutes else "UTC"
    where = utc if name == "UTC" else f"{name}, {utc}"
    return f"{at:%Y-%m-%d %H:%M} ({where})"
