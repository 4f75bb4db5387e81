"""The club's store: pairs of players an admin keeps apart in a group (/apart), players found
by their username, the groups a player plays in, the group's club settings (/club), the
解散 votes its members proposed (their daily limit) and the names of its forum topics
(/tables). Written once for every backend: each
store's queries are these."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store import conn
from bot.store.rows import ClubSettings, UserRow
from bot.store.units import Units

CLUB_UTC_OFFSET = timedelta(hours=8)  # a club's day: China's


def day_start(now: datetime, days_back: int = 0) -> str:
    """The start of the club's day ``days_back`` days before ``now``'s, as the schema keeps
    times (UTC)."""
    local = (now.astimezone(UTC) + CLUB_UTC_OFFSET).replace(hour=0, minute=0, second=0,
                                                            microsecond=0)
    start = local - timedelta(days=days_back) - CLUB_UTC_OFFSET
    return start.strftime("%Y-%m-%d %H:%M:%S")


def pair(a: int, b: int) -> tuple[int, int]:
    """A pair as stored: the lower id first."""
    return (a, b) if a < b else (b, a)


class ClubQueries(Units):
    """The reads and single writes of :class:`Units` and the club's: /apart and the groups of a player."""

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

    async def club_settings(self, chat_id: int) -> ClubSettings:
        """The group's club settings (/club); all off when none were set."""
        row = await self._one("SELECT * FROM club_settings WHERE chat_id = ?", chat_id)
        if row is None:
            return ClubSettings()
        return ClubSettings(bool(row["auto_ready"]), row["dissolve_limit"],
                            bool(row["cup_no_dissolve"]))

    async def set_club_settings(self, chat_id: int, by: int, settings: ClubSettings) -> None:
        async with self.transaction() as tx:
            await tx.exec(
                "INSERT INTO club_settings (chat_id, auto_ready, dissolve_limit,"
                " cup_no_dissolve, set_by) VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO"
                " UPDATE SET auto_ready = excluded.auto_ready, dissolve_limit ="
                " excluded.dissolve_limit, cup_no_dissolve = excluded.cup_no_dissolve,"
                " set_by = excluded.set_by", chat_id, int(settings.auto_ready),
                settings.dissolve_limit, int(settings.cup_no_dissolve), by)

    async def dissolve_asks(self, chat_id: int, user_id: int, since: str) -> int:
        """How many 解散 votes the member proposed in the group since ``since`` (as the
        schema keeps times: :func:`day_start`)."""
        row = await self._one("SELECT count(*) AS n FROM dissolve_asks WHERE chat_id = ?"
                              " AND user_id = ? AND asked_at >= ?", chat_id, user_id, since)
        return int(row["n"]) if row is not None else 0

    async def add_dissolve_ask(self, chat_id: int, user_id: int) -> None:
        async with self.transaction() as tx:
            await tx.exec("INSERT INTO dissolve_asks (chat_id, user_id, asked_at)"
                          " VALUES (?, ?, ?)", chat_id, user_id, conn.now())

    async def topic_names(self, chat_id: int) -> dict[int, str]:
        """The group's forum topics whose names the bot saw, by thread id."""
        rows = await self._all("SELECT thread_id, name FROM topic_names WHERE chat_id = ?",
                               chat_id)
        return {r["thread_id"]: r["name"] for r in rows}

    async def set_topic_name(self, chat_id: int, thread_id: int, name: str) -> None:
        """A forum topic's name, created or renamed."""
        async with self.transaction() as tx:
            await tx.exec("INSERT INTO topic_names (chat_id, thread_id, name) VALUES (?, ?, ?)"
                          " ON CONFLICT (chat_id, thread_id) DO UPDATE SET name = excluded.name",
                          chat_id, thread_id, name)
