"""The bot's deep links, every one built here: ``t.me/<bot>?start=<payload>`` opens the
bot's private chat and sends it ``/start <payload>`` (:func:`private`); ``?startgroup=``
adds the bot to a group (:func:`add_to_group`); ``t.me/<bot>/<app>?startapp=t5`` opens the
Mini App (:func:`app_link`).

A payload is a letter and a number — ``j5`` seats at table 5, ``r12`` the replay of hand 12,
``c12`` its 验证 check, ``x3`` joins challenge 3 (:func:`start`) — read back strictly by
:func:`opened`; or a word: ``me`` the /me card of whoever opens it; or a sealed player's card,
``p42_<seal>`` (:func:`card`): player 42's /me card, the link of the card he shared. Its seal
is an HMAC of the player's id keyed by the bot's token, so that only the player himself (by
sharing his card) makes such a link: a made-up id opens nothing.
"""

from __future__ import annotations

import hashlib
import hmac

from bot.numbers import MOST_ID, whole

JOIN = "j"  # /start j<table id>: seats at that table (the lobby's 入座)
REPLAY = "r"  # /start r<hand id>: the hand's replay in the private chat
VERIFY = "c"  # /start c<hand id>: its 验证 fairness check
CHALLENGE = "x"  # /start x<challenge id>: 参加 that 复式挑战
NUMBERED = (JOIN, REPLAY, VERIFY, CHALLENGE)  # the payloads of a letter and an id
ME = "me"  # the /me card of whoever opens the link, privately
CARD = "p"  # /start p<user id>_<seal>: that player's /me card (his share card's link)
SEAL = 12  # hex digits of a card link's seal (48 bits of an HMAC-SHA256)
GROUP = "paohuzi"  # the 添加到群组 link's: the group's /start gets the help
APP_TABLE = "t"  # a Mini App link's start parameter: the seat at this table


def payload(prefix: str, number: int) -> str:
    return f"{prefix}{number}"


def number(text: str, prefix: str) -> int | None:
    """The number of the payload ``<prefix><digits>``; None for any other payload."""
    rest = text.removeprefix(prefix)
    return whole(rest, MOST_ID) if text.startswith(prefix) and rest.isascii() else None


def opened(text: str) -> tuple[str, int] | None:
    """What a /start payload of :data:`NUMBERED` names: (its letter, a positive id); None
    for any other payload (a word, an unknown letter, no id or a forged one)."""
    for prefix in NUMBERED:
        found = number(text, prefix)
        if found:
            return prefix, found
    return None


def _seal(user_id: int, token: str) -> str:
    return hmac.new(token.encode(), f"card:{user_id}".encode(),
                    hashlib.sha256).hexdigest()[:SEAL]


def card(bot_username: str, user_id: int, token: str) -> str:
    """The private chat's link that shows player ``user_id``'s /me card, sealed with the bot's
    ``token`` (a share card's button: it opens the sharer's card, whoever presses it)."""
    return private(bot_username, f"{CARD}{user_id}_{_seal(user_id, token)}")


def card_of(text: str, token: str) -> int | None:
    """The player a :func:`card` payload names, if its seal is this bot's; None for any other
    payload (a forged or altered one too)."""
    head, _, seal = text.partition("_")
    user_id = number(head, CARD)
    if not user_id or not hmac.compare_digest(seal.encode(), _seal(user_id, token).encode()):
        return None
    return user_id


def private(bot_username: str, start_payload: str = "") -> str:
    """The bot's private chat; with a payload, opening it sends ``/start <payload>``."""
    link = f"https://t.me/{bot_username}"
    return f"{link}?start={start_payload}" if start_payload else link


def start(bot_username: str, prefix: str, id_: int) -> str:
    """The private chat's link that opens ``id_`` as ``prefix`` says (:data:`NUMBERED`)."""
    if prefix not in NUMBERED:
        raise ValueError(f"no deep link of letter {prefix!r}")
    return private(bot_username, payload(prefix, id_))


def add_to_group(bot_username: str) -> str:
    """Telegram's 添加到群组 link: pick a group to add the bot to (its /start: the help)."""
    return f"https://t.me/{bot_username}?startgroup={GROUP}"


def app_link(bot_username: str, short_name: str, table_id: int) -> str:
    """Telegram's direct link to the bot's Mini App ``short_name`` (made with BotFather's
    /newapp) opening the seat at table ``table_id``: the page's init data has it signed as
    ``start_param``."""
    return f"https://t.me/{bot_username}/{short_name}?startapp={payload(APP_TABLE, table_id)}"
