"""Telegram's Mini App init data, checked exactly as Telegram documents it
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"):

    secret_key = HMAC_SHA256(key="WebAppData", msg=bot_token)
    hash       = hex(HMAC_SHA256(key=secret_key, msg=data_check_string))

where ``data_check_string`` is every received ``key=value`` pair except ``hash``, sorted by
key and joined by ``\\n``. ``auth_date`` must not be older than ``max_age`` seconds.

A page opened from a group's link (``t.me/<bot>/<app>?startapp=t<table id>``,
:func:`bot.links.app_link`) has Telegram's signed ``start_param``: the seat to show is at that table."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from functools import cache
from urllib.parse import parse_qsl

from bot.links import APP_TABLE, number

MAX_LENGTH = 8192  # characters: Telegram's is under 2 KB; a longer one is not even parsed


class BadInitData(ValueError):
    """Init data that is malformed, forged, signed for another bot, or too old."""


class StaleInitData(BadInitData):
    """Init data signed with the bot's key but older than ``max_age``: the page was opened
    too long ago and is to be opened again from the chat."""


@dataclass(frozen=True)
class WebUser:
    """The user Telegram vouches for."""

    id: int
    first_name: str
    language_code: str | None
    table_id: int | None = None  # the table the page was opened for (a group's link)


@cache
def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(pairs: dict[str, str]) -> str:
    return "\n".join(f"{k}={pairs[k]}" for k in sorted(pairs) if k != "hash")


def validate(init_data: str, token: str, *, max_age: float, now: float) -> WebUser:
    """The user of ``init_data`` if it is signed with ``token``'s key and fresh."""
    if len(init_data) > MAX_LENGTH:
        raise BadInitData("too long")
    try:
        pairs_list = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise BadInitData("malformed") from None
    pairs = dict(pairs_list)
    if len(pairs) != len(pairs_list):
        raise BadInitData("a key given twice")
    given = pairs.get("hash", "")
    want = hmac.new(secret_key(token), data_check_string(pairs).encode(),
                    hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), want.encode()):
        raise BadInitData("bad hash")
    try:
        auth_date = int(pairs["auth_date"])
        user = json.loads(pairs["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise BadInitData("no auth_date or user") from None
    if auth_date > now + 60:
        raise BadInitData("from the future")
    if auth_date < now - max_age:
        raise StaleInitData("stale")
    lang = user.get("language_code")
    return WebUser(user_id, str(user.get("first_name", "")),
                   lang if isinstance(lang, str) else None,
                   number(pairs.get("start_param") or "", APP_TABLE))
