"""What a command sets and keeps of a user, a group and its club: a user as last seen (name,
language, whether he opened the bot), his own language and pings (/lang, /quiet), a group's
language and time zone (/lang, /timezone), who is told of its tables (/notify), its pairs
kept apart (/apart), its club settings (/club), its topics' names, and its club's records
(/season new, /void). Each write is one unit of work of the store's; a handler writes
through here, never through the store (``tests/test_transactions.py`` checks it)."""

from __future__ import annotations

from bot.store import ClubSettings, Season, Store, Voided


class ChatSettings:
    """The settings and records of users and groups, over the store of record."""

    def __init__(self, store: Store) -> None:
        self._store = store

    # --- a user -----------------------------------------------------------------------

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        """The user as last seen (``dm_ok``: he opened the bot; once known, it stays)."""
        await self._store.upsert_user(user_id, name, username, lang, dm_ok)

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        """/lang zh|en privately: his own language from now on (a known user)."""
        await self._store.set_user_lang(user_id, lang)

    async def set_quiet(self, user_id: int, quiet: bool) -> None:
        """/quiet (``quiet``) or /quiet off: his pings off or on (a known user)."""
        await self._store.set_quiet(user_id, quiet)

    # --- a group ----------------------------------------------------------------------

    async def set_chat_lang(self, chat_id: int, lang: str, title: str | None = None) -> None:
        """The group's language (its title kept when given)."""
        await self._store.set_chat_lang(chat_id, lang, title)

    async def set_chat_timezone(self, chat_id: int, zone: str) -> None:
        """/timezone: the group's time zone (an IANA name)."""
        await self._store.set_chat_timezone(chat_id, zone)

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        """/notify (``on``) or /notify off: whether the user is told of the group's tables."""
        await self._store.subscribe(chat_id, user_id, on)

    async def set_topic_name(self, chat_id: int, thread_id: int, name: str) -> None:
        """A forum topic's name, kept for /tables."""
        await self._store.set_topic_name(chat_id, thread_id, name)

    # --- its club ---------------------------------------------------------------------

    async def apart_pairs(self, chat_id: int) -> list[tuple[int, int]]:
        """The group's pairs who never sit at one table of it (/apart)."""
        return await self._store.apart_pairs(chat_id)

    async def set_apart(self, chat_id: int, a: int, b: int, by: int, on: bool) -> bool:
        """/apart (``on``) or /apart off a pair; whether it changed anything."""
        return await self._store.set_apart(chat_id, a, b, by, on)

    async def club_settings(self, chat_id: int) -> ClubSettings:
        """The group's club settings (/club)."""
        return await self._store.club_settings(chat_id)

    async def set_club_settings(self, chat_id: int, by: int, settings: ClubSettings) -> None:
        """An admin's /club change."""
        await self._store.set_club_settings(chat_id, by, settings)

    async def close_season(self, chat_id: int, by: int, name: str | None) -> Season | None:
        """/season new: the group's season closed and the next opened; the closed one
        (None: no hand was dealt in it, and nothing changed)."""
        return await self._store.close_season(chat_id, by, name)

    async def void_hand(self, hand_id: int, by: int, reason: str) -> Voided | None:
        """/void: a finished hand voided (None: not a finished hand, or void already;
        nothing changed)."""
        return await self._store.void_hand(hand_id, by, reason)
