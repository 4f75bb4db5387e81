"""The bot's deep links, ``t.me/<bot>?start=<payload>``: a payload is a letter and a number
(``r12`` the replay of hand 12, ``c12`` its 验证 check, ``x3`` joins challenge 3, ``j5``
seats at table 5), read back strictly; and the Mini App's, ``t.me/<bot>/<app>?startapp=t5``
(:func:`app_link`)."""

from __future__ import annotations

from bot.numbers import MOST_ID, whole


def payload(prefix: str, number: int) -> str:
    return f"{prefix}{number}"


def number(text: str, prefix: str) -> int | None:
    """The number of the payload ``<prefix><digits>``; None for any other payload."""
    rest = text.removeprefix(prefix)
    return whole(rest, MOST_ID) if text.startswith(prefix) and rest.isascii() else None


APP_TABLE = "t"  # a Mini App link's start parameter: the seat at this table


def app_link(bot_username: str, short_name: str, table_id: int) -> str:
    """Telegram's direct link to the bot's Mini App ``short_name`` (made with BotFather's
    /newapp) opening the seat at table ``table_id``: the page's init data has it signed as
    ``start_param``."""
    return f"https://t.me/{bot_username}/{short_name}?startapp={payload(APP_TABLE, table_id)}"
