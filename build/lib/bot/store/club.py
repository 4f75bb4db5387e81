"""The club's store: pairs of players an admin keeps apart in a group (/apart), players found
by their username, and the groups a player plays in. Written once for every backend: each
store's queries are these."""

from __future__ import annotations

from bot.store.reads import Queries
from bot.store.rows import UserRow


def pair(a: int, b: int) -> tuple[int, int]:
    """A pair as stored: the lower id first."""
    return (a, b) if a < b else (b, a)


class ClubQueries(Queries):
    """The reads of :class:`Queries` and the club's: /apart and the groups of a player."""

    async def user_by_username(self, username: str) -> UserRow | None:
        """The known user whose Telegram username is ``username`` (any case, no @)."""
        row = await self._one("SELECT * FROM users WHERE lower(username) = lower(?)"
                              " ORDER BY seen_at DESC LIMIT 1", username)
        if row is None:
            return None
        return UserRow(row["user_id"], row["name"], row["lang"], bool(row["dm_ok"]),
                       bool(row["quiet"]))

    async def apart_pairs(self, chat_id: int) -> list[tuple[int, int]]:
        """Every pair kept apart in the group, in the order set."""
        rows = await self._all("SELECT user_lo, user_hi FROM apart WHERE chat_id = ?"
                               " ORDER BY user_lo, user_hi", chat_id)
        return [(r["user_lo"], r["user_hi"]) for r in rows]

    async def apart_from(self, chat_id: int, user_id: int) -> set[int]:
        """Those the user is kept apart from in the group."""
        rows = await self._all(
            "SELECT user_hi AS other FROM apart WHERE chat_id = ? AND user_lo = ? UNION"
            " SELECT user_lo AS other FROM apart WHERE chat_id = ? AND user_hi = ?",
            chat_id, user_id, chat_id, user_id)
        return {r["other"] for r in rows}

    async def set_apart(self, chat_id: int, a: int, b: int, by: int, on: bool) -> bool:
        """Keep ``a`` and ``b`` apart in the group (``on``) or no longer; False when that
        was so already."""
        lo, hi = pair(a, b)
        async with self.transaction() as tx:
            if on:
                return bool(await tx.exec(
                    "INSERT INTO apart (chat_id, user_lo, user_hi, set_by) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT DO NOTHING", chat_id, lo, hi, by))
            return bool(await tx.exec(
                "DELETE FROM apart WHERE chat_id = ? AND user_lo = ? AND user_hi = ?",
                chat_id, lo, hi))

    async def groups_of(self, user_id: int) -> set[int]:
        """The groups the user plays in: those he has a score in or asked /notify of."""
        rows = await self._all("SELECT chat_id FROM scores WHERE user_id = ? UNION"
                               " SELECT chat_id FROM notify WHERE user_id = ?", user_id, user_id)
        return {r["chat_id"] for r in rows}
