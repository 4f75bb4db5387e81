"""The store's queries, written once for every backend over a :class:`bot.store.conn.Conn`.

Each read is one query or a few, bounded however long the history grows: per-user reads walk
``results_by_user`` (user, hand) back from the newest hand, per-group reads the hands of that
group's tables.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from bot.store.boards import in_board
from bot.store.challenges import ChallengeReads
from bot.store.club_scores import ClubReads, Season, Voided
from bot.store.conn import Conn, Row, epoch
from bot.store.cups import CupReads
from bot.store.posts import PostReads
from bot.store.presses import PressReads
from bot.store.rows import (
    QQ_ID,
    BirdRow,
    HandRow,
    MatchRow,
    PlayedHand,
    RankRow,
    Score,
    SeatRow,
    TableRow,
    UserRow,
    VoteRow,
)
from bot.store.skill import SkillReads
from bot.store.writes import SEATED_AT, TABLE_AT, Writes, table_row

# Rows of the tables ``t`` of one bot (the two parameters its id), or of every bot (None).
OF_BOT = "(CAST(? AS BIGINT) IS NULL OR t.bot_id = ?)"


class Queries(ChallengeReads, ClubReads, CupReads, PostReads, PressReads, SkillReads, ABC):
    """The reads of a :class:`bot.store.Store`, and the two writes that need no unit of work
    of the caller's; a backend adds opening, closing and transactions."""

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Writes]:
        """One unit of work: committed when the block ends, rolled back if it raises."""

    async def _one(self, sql: str, *args: object) -> Row | None:
        return await self._conn.one(sql, args)

    async def _all(self, sql: str, *args: object) -> list[Row]:
        return await self._conn.all(sql, args)

    async def user(self, user_id: int) -> UserRow | None:
        row = await self._one("SELECT * FROM users WHERE user_id = ?", user_id)
        if row is None:
            return None
        return UserRow(row["user_id"], row["name"], row["lang"], bool(row["dm_ok"]),
                       bool(row["quiet"]))

    async def chat_lang(self, chat_id: int) -> str | None:
        row = await self._one("SELECT lang FROM chats WHERE chat_id = ?", chat_id)
        return row["lang"] if row else None

    async def chat_timezone(self, chat_id: int) -> str | None:
        """The group's time zone (an IANA name), None when its admins set none."""
        row = await self._one("SELECT zone FROM chat_timezones WHERE chat_id = ?", chat_id)
        return row["zone"] if row else None

    async def open_tables(self, bot_id: int | None = None) -> list[TableRow]:
        """The open tables of one bot (the store may serve several), or of every bot."""
        if bot_id is None:
            rows = await self._all("SELECT * FROM tables WHERE status != 'closed' ORDER BY id")
        else:
            rows = await self._all("SELECT * FROM tables WHERE bot_id = ? AND status != 'closed'"
                                   " ORDER BY id", bot_id)
        return [table_row(r) for r in rows]

    async def seated_at(self, user_id: int) -> list[TableRow]:
        """The open tables, of any bot, where the user has a seat."""
        return [table_row(r) for r in await self._all(SEATED_AT, user_id)]

    async def table_at(self, chat_id: int, thread_id: int | None) -> TableRow | None:
        """The open table, of any bot, of a group's topic (``thread_id`` None: not a forum,
        or General)."""
        row = await self._one(TABLE_AT, chat_id, thread_id or 0)
        return None if row is None else table_row(row)

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", table_id)
        return [
            SeatRow(r["seat"], r["user_id"], bool(r["ready"]), bool(r["autoplay"]),
                    r["clock_from"])
            for r in rows
        ]

    async def last_hand(self, table_id: int) -> HandRow | None:
        """The table's latest hand with its action log."""
        row = await self._one(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY no DESC LIMIT 1", table_id)
        return None if row is None else await self._hand_row(row)

    async def unposted_hands(self, bot_id: int | None = None) -> list[tuple[int, HandRow]]:
        """(table id, hand) of every finished hand whose settlement was never posted (the
        bot stopped before it could be), oldest first: of one bot's tables, or of every bot's.
        A private table's are none: it posts nothing in its group."""
        rows = await self._all("SELECT h.* FROM hands h JOIN tables t ON t.id = h.table_id"
                               " WHERE h.status = 'done' AND h.settle_msg_id IS NULL"
                               f" AND t.private = 0 AND {OF_BOT} ORDER BY h.id", bot_id, bot_id)
        return [(r["table_id"], await self._hand_row(r)) for r in rows]

    async def table(self, table_id: int) -> TableRow | None:
        """A table, open or closed."""
        row = await self._one("SELECT * FROM tables WHERE id = ?", table_id)
        return None if row is None else table_row(row)

    async def _hand_row(self, row: Row) -> HandRow:
        log = await self._all(
            "SELECT seat, action, at FROM actions WHERE hand_id = ? ORDER BY seq", row["id"])
        users = await self._all(
            "SELECT user_id FROM results WHERE hand_id = ? ORDER BY seat", row["id"])
        return HandRow(row["id"], row["no"], row["table_no"], row["rule_set"], int(row["seed"]),
                       row["dealer"], row["status"], tuple((r["seat"], r["action"]) for r in log),
                       tuple(r["user_id"] for r in users),
                       tuple(epoch(r["at"]) or 0.0 for r in log), epoch(row["started_at"]),
                       epoch(row["ended_at"]))

    async def open_votes(self, bot_id: int | None = None) -> list[VoteRow]:
        """Every vote left open (the bot stopped before it ended), oldest first: at one
        bot's tables, or at every bot's."""
        rows = await self._all("SELECT v.id, v.kind, t.chat_id, t.thread_id"
                               " FROM votes v JOIN tables t ON t.id = v.table_id"
                               f" WHERE {OF_BOT} ORDER BY v.id", bot_id, bot_id)
        return [VoteRow(r["id"], r["kind"], r["chat_id"], r["thread_id"]) for r in rows]

    async def absent_hands(self, table_id: int, user_id: int, last: int) -> int:
        """In how many of the table's ``last`` finished hands the user sat and every move of
        his seat was played for him (托管), none by himself."""
        row = await self._one(
            "SELECT COUNT(*) AS n FROM (SELECT id FROM hands WHERE table_id = ?"
            " AND status = 'done' ORDER BY no DESC LIMIT ?) h"
            " JOIN results r ON r.hand_id = h.id AND r.user_id = ?"
            " WHERE EXISTS (SELECT 1 FROM actions a WHERE a.hand_id = h.id AND a.seat = r.seat"
            " AND a.auto = 1) AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.hand_id = h.id"
            " AND a.seat = r.seat AND a.auto = 0)", table_id, last, user_id)
        assert row is not None
        return int(row["n"])

    async def subscribers(self, chat_id: int) -> list[int]:
        """Who asked (/notify) to be told of this group's tables."""
        rows = await self._all("SELECT user_id FROM notify WHERE chat_id = ? ORDER BY user_id",
                               chat_id)
        return [r["user_id"] for r in rows]

    async def next_hand_no(self, chat_id: int) -> int:
        """The number of a group's next hand: its hands count 1, 2, 3… over all its tables."""
        row = await self._one(
            "SELECT COALESCE(MAX(no), 0) + 1 AS n FROM hands WHERE chat_id = ?", chat_id)
        assert row is not None
        return int(row["n"])

    async def next_table_hand_no(self, table_id: int) -> int:
        """The number its players read on a table's next hand: 1, 2, 3… at that table."""
        row = await self._one(
            "SELECT COALESCE(MAX(table_no), 0) + 1 AS n FROM hands WHERE table_id = ?", table_id)
        assert row is not None
        return int(row["n"])

    async def table_totals(self, table_id: int) -> dict[int, int]:
        """Points per user over this table's finished hands."""
        rows = await self._all(
            "SELECT r.user_id, SUM(r.points) AS p FROM results r JOIN hands h ON h.id = r.hand_id"
            " WHERE h.table_id = ? GROUP BY r.user_id", table_id)
        return {r["user_id"]: r["p"] for r in rows}

    async def score(self, user_id: int, chat_id: int | None = None,
                    rule_set: str = QQ_ID) -> tuple[int, int, int]:
        """(points, hands, wins) of a user in one rule set, in one chat or over all chats."""
        found = (await self.scores(user_id, chat_id)).get(rule_set)
        return (found.points, found.hands, found.wins) if found else (0, 0, 0)

    async def scores(self, user_id: int, chat_id: int | None = None) -> dict[str, Score]:
        """A user's record per rule set id, in one chat or over all chats."""
        if chat_id is None:
            rows = await self._all("SELECT * FROM global_scores WHERE user_id = ?", user_id)
        else:
            rows = await self._all(
                "SELECT * FROM scores WHERE chat_id = ? AND user_id = ?", chat_id, user_id)
        return {r["rule_set"]: Score(r["points"], r["hands"], r["wins"], r["birds"])
                for r in rows}

    async def ranking(self, chat_id: int | None = None, limit: int = 10,
                      rule_set: str = QQ_ID) -> list[RankRow]:
        """The top ``limit`` players of one rule set in a chat (or in all chats) by points,
        then wins. Computer players (negative ids, see :mod:`bot.robots`) are not ranked."""
        source = "global_scores s" if chat_id is None else "scores s"
        where = "WHERE s.user_id > 0 AND s.rule_set = ?" + \
            ("" if chat_id is None else " AND s.chat_id = ?")
        args: tuple[object, ...] = (rule_set,) if chat_id is None else (rule_set, chat_id)
        rows = await self._all(
            f"SELECT s.user_id, COALESCE(u.name, CAST(s.user_id AS TEXT)) AS name, s.points,"
            f" s.hands, s.wins,"
            f" s.birds FROM {source} LEFT JOIN users u ON u.user_id = s.user_id {where}"
            f" ORDER BY s.points DESC, s.wins DESC, s.user_id LIMIT ?", *args, limit)
        return [RankRow(r["user_id"], str(r["name"]), r["points"], r["hands"], r["wins"],
                        r["birds"]) for r in rows]

    async def waiting_birds(self, table_id: int) -> list[BirdRow]:
        """The birds placed for a table's next deal, in the order they were placed."""
        rows = await self._all(
            "SELECT b.user_id, COALESCE(u.name, CAST(b.user_id AS TEXT)) AS name, b.seat, b.points"
            " FROM birds b LEFT JOIN users u ON u.user_id = b.user_id"
            " WHERE b.table_id = ? AND b.hand_id IS NULL ORDER BY b.id", table_id)
        return [_bird_row(r) for r in rows]

    async def hand_birds(self, hand_id: int) -> list[BirdRow]:
        """The birds of a hand, in the order they were placed."""
        rows = await self._all(
            "SELECT b.user_id, COALESCE(u.name, CAST(b.user_id AS TEXT)) AS name, b.seat, b.points"
            " FROM birds b LEFT JOIN users u ON u.user_id = b.user_id"
            " WHERE b.hand_id = ? ORDER BY b.id", hand_id)
        return [_bird_row(r) for r in rows]

    async def finished_hands(self, chat_id: int, limit: int) -> list[PlayedHand]:
        """A chat's last ``limit`` finished hands, newest first."""
        rows = await self._all(
            "SELECT h.*, t.base, t.no AS table_number,"
            " COALESCE(v.name, CAST(h.voided_by AS TEXT)) AS voider"
            " FROM hands h JOIN tables t ON t.id = h.table_id"
            " LEFT JOIN users v ON v.user_id = h.voided_by"
            " WHERE h.chat_id = ? AND h.status = 'done' ORDER BY h.id DESC LIMIT ?",
            chat_id, limit)
        return [await self._played(r, r["voider"]) for r in rows]

    async def running_match(self, table_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE table_id = ? AND status = 'running'",
                              table_id)
        return None if row is None else _match_row(row)

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE id = ?", match_id)
        return None if row is None else _match_row(row)

    async def unposted_matches(self, bot_id: int | None = None) -> list[MatchRow]:
        """Ended matches whose 总结算 never reached the group, oldest first: of one bot's
        tables, or of every bot's (a private table's are none)."""
        rows = await self._all("SELECT m.* FROM matches m JOIN tables t ON t.id = m.table_id"
                               " WHERE m.status != 'running' AND m.summary_msg_id IS NULL"
                               f" AND t.private = 0 AND {OF_BOT} ORDER BY m.id", bot_id, bot_id)
        return [_match_row(r) for r in rows]

    async def match_place(self, hand_id: int) -> tuple[int, int] | None:
        """(k, N) when the hand is the k-th of a match of N hands (a voided hand counts not)."""
        row = await self._one(
            "SELECT m.hands, (SELECT COUNT(*) FROM hands o WHERE o.match_id = h.match_id"
            " AND o.id <= h.id AND o.status != 'aborted') AS k"
            " FROM hands h JOIN matches m ON m.id = h.match_id WHERE h.id = ?", hand_id)
        return None if row is None else (row["k"], row["hands"])

    async def match_played(self, match_id: int) -> list[PlayedHand]:
        """A match's finished hands, in order (a hand voided by /stop is not one)."""
        rows = await self._all(
            "SELECT h.*, t.base, t.no AS table_number"
            " FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.match_id = ? AND h.status = 'done' ORDER BY h.id", match_id)
        return [await self._played(r) for r in rows]

    async def best_hand(self, user_id: int, rule_set: str = QQ_ID) -> PlayedHand | None:
        """The hand of a rule set this user won for the most points (the earliest of equals),
        found walking ``results_by_points`` down from his best result (a win is almost always
        among his first few). ``rule_set``: a board (:mod:`bot.store.boards`)."""
        board, keys = in_board("h.rule_set", rule_set)
        row = await self._one(
            "SELECT h.*, t.base, t.no AS table_number"
            " FROM results r JOIN hands h ON h.id = r.hand_id"
            " JOIN tables t ON t.id = h.table_id"
            " WHERE r.user_id = ? AND r.seat = h.winner AND h.voided_by IS NULL"
            f" AND {board}"
            " ORDER BY r.points DESC, r.hand_id LIMIT 1", user_id, *keys)
        return await self._played(row) if row is not None else None

    # --- replays, pictures (/replay, /rank, /me) -----------------------------------------

    async def hand_in_chat(self, chat_id: int, no: int) -> tuple[int, str] | None:
        """(id, status) of a group's hand number ``no``; None when the group has none."""
        row = await self._one(
            "SELECT id, status FROM hands WHERE chat_id = ? AND no = ?", chat_id, no)
        return None if row is None else (row["id"], row["status"])

    async def played_hand(self, hand_id: int) -> tuple[int, PlayedHand] | None:
        """(the group's chat id, the hand) of a finished hand; None for any other id."""
        row = await self._one(
            "SELECT h.*, t.base, t.no AS table_number"
            " FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.id = ? AND h.status = 'done'", hand_id)
        return None if row is None else (row["chat_id"], await self._played(row))

    async def last_played_id(self, user_id: int) -> int | None:
        """The id of the last finished hand ``user_id`` sat at, in any group."""
        row = await self._one(
            "SELECT r.hand_id AS id FROM results r JOIN hands h ON h.id = r.hand_id"
            " WHERE r.user_id = ? AND h.status = 'done' ORDER BY r.hand_id DESC LIMIT 1", user_id)
        return None if row is None else row["id"]

    async def recent_points(self, user_ids: Sequence[int], rule_set: str,
                            chat_id: int | None = None, last: int = 20) -> dict[int, list[int]]:
        """Each user's points in his ``last`` finished hands of one rule set (in one chat, or
        in all), oldest first: one query for all of them (the leaderboard's sparklines),
        each user's part walking ``results_by_user`` back from his latest result and
        stopping after ``last``, however many hands he played. Birds are not hands."""
        if not user_ids:
            return {}
        in_chat = "" if chat_id is None else " AND h.chat_id = ?"
        board, keys = in_board("h.rule_set", rule_set)
        part = ("SELECT * FROM (SELECT r.user_id, r.points, r.hand_id AS k FROM results r"
                " JOIN hands h ON h.id = r.hand_id"
                " WHERE r.user_id = ? AND h.voided_by IS NULL"
                f" AND {board}{in_chat}"
                " ORDER BY r.hand_id DESC LIMIT ?) AS part")
        args: list[object] = []
        for user_id in user_ids:
            args += [user_id, *keys, *([] if chat_id is None else [chat_id]), last]
        rows = await self._all(" UNION ALL ".join([part] * len(user_ids))
                               + " ORDER BY user_id, k", *args)
        found: dict[int, list[int]] = {u: [] for u in user_ids}
        for r in rows:
            found[r["user_id"]].append(r["points"])
        return found

    async def user_hands(self, user_id: int, rule_set: str, last: int) -> list[PlayedHand]:
        """The ``last`` finished hands of one rule set ``user_id`` sat at, oldest first, read
        in three queries however many (for /me's card, which replays them)."""
        board, keys = in_board("h.rule_set", rule_set)
        hands = await self._all(
            "SELECT * FROM (SELECT h.*, t.base, t.no AS table_number"
            " FROM results r JOIN hands h ON h.id = r.hand_id"
            " JOIN tables t ON t.id = h.table_id WHERE r.user_id = ? AND h.status = 'done'"
            f" AND h.voided_by IS NULL AND {board}"
            " ORDER BY r.hand_id DESC LIMIT ?)"
            " AS last_hands ORDER BY id", user_id, *keys, last)
        if not hands:
            return []
        ids = [h["id"] for h in hands]
        marks = ",".join("?" * len(ids))
        logs: dict[int, list[tuple[int, str]]] = {i: [] for i in ids}
        for r in await self._all(f"SELECT hand_id, seat, action FROM actions WHERE hand_id"
                                 f" IN ({marks}) ORDER BY hand_id, seq", *ids):
            logs[r["hand_id"]].append((r["seat"], r["action"]))
        seats: dict[int, list[Row]] = {i: [] for i in ids}
        for r in await self._all(
                "SELECT r.hand_id, r.user_id, r.points,"
                " COALESCE(u.name, CAST(r.user_id AS TEXT)) AS name"
                f" FROM results r LEFT JOIN users u ON u.user_id = r.user_id WHERE r.hand_id"
                f" IN ({marks}) ORDER BY r.hand_id, r.seat", *ids):
            seats[r["hand_id"]].append(r)
        return [PlayedHand(h["id"], h["no"], h["rule_set"], int(h["seed"]), h["dealer"],
                           h["base"], h["winner"], tuple(logs[h["id"]]),
                           tuple(r["user_id"] for r in seats[h["id"]]),
                           tuple(str(r["name"]) for r in seats[h["id"]]),
                           tuple(r["points"] for r in seats[h["id"]]),
                           h["table_id"], h["table_no"], h["table_number"]) for h in hands]

    async def _played(self, row: Row, voider: str | None = None) -> PlayedHand:
        log = await self._all(
            "SELECT seat, action FROM actions WHERE hand_id = ? ORDER BY seq", row["id"])
        results = await self._all(
            "SELECT r.user_id, r.points, COALESCE(u.name, CAST(r.user_id AS TEXT)) AS name"
            " FROM results r"
            " LEFT JOIN users u ON u.user_id = r.user_id WHERE r.hand_id = ? ORDER BY r.seat",
            row["id"])
        return PlayedHand(row["id"], row["no"], row["rule_set"], int(row["seed"]), row["dealer"],
                          row["base"], row["winner"],
                          tuple((r["seat"], r["action"]) for r in log),
                          tuple(r["user_id"] for r in results),
                          tuple(str(r["name"]) for r in results),
                          tuple(r["points"] for r in results), row["table_id"], row["table_no"],
                          row["table_number"], row["voided_by"], row["void_reason"], voider)

    # --- writes outside a unit of work (bookkeeping that no game state depends on) -----

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        async with self.transaction() as tx:
            await tx.upsert_user(user_id, name, username, lang, dm_ok)

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        """/notify (``on``) or /notify off in a group."""
        async with self.transaction() as tx:
            await tx.subscribe(chat_id, user_id, on)

    async def set_quiet(self, user_id: int, quiet: bool) -> None:
        """/quiet (``quiet``) or /quiet off: the user's pings off or on (a known user)."""
        async with self.transaction() as tx:
            await tx.exec("UPDATE users SET quiet = ? WHERE user_id = ?", int(quiet), user_id)

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        """/lang zh|en in the private chat: the user's own language from now on (a known
        user), over the one his Telegram client names (:meth:`upsert_user` keeps it)."""
        async with self.transaction() as tx:
            await tx.exec("UPDATE users SET lang_choice = ?, lang = ? WHERE user_id = ?",
                          lang, lang, user_id)

    async def close_season(self, chat_id: int, by: int, name: str | None) -> Season | None:
        """/season new: the group's season closed and the next opened, in a transaction of
        its own (:meth:`bot.store.club_scores.ClubWrites.close_season`)."""
        async with self.transaction() as tx:
            return await tx.close_season(chat_id, by, name)

    async def void_hand(self, hand_id: int, by: int, reason: str) -> Voided | None:
        """/void: a finished hand voided, in a transaction of its own
        (:meth:`bot.store.club_scores.ClubWrites.void_hand`)."""
        async with self.transaction() as tx:
            return await tx.void_hand(hand_id, by, reason)

    async def lang_choices(self) -> dict[int, str]:
        """The languages users chose with /lang in their private chat, by user."""
        rows = await self._all("SELECT user_id, lang_choice FROM users"
                               " WHERE lang_choice IS NOT NULL")
        return {r["user_id"]: r["lang_choice"] for r in rows}

    async def set_chat_timezone(self, chat_id: int, zone: str) -> None:
        async with self.transaction() as tx:
            await tx.exec("INSERT INTO chat_timezones (chat_id, zone) VALUES (?, ?)"
                          " ON CONFLICT (chat_id) DO UPDATE SET zone = excluded.zone",
                          chat_id, zone)

    async def set_chat_lang(self, chat_id: int, lang: str, title: str | None = None) -> None:
        async with self.transaction() as tx:
            await tx.exec(
                "INSERT INTO chats (chat_id, title, lang) VALUES (?, ?, ?) ON CONFLICT (chat_id)"
                " DO UPDATE SET lang = excluded.lang,"
                " title = COALESCE(excluded.title, chats.title)",
                chat_id, title, lang)


def _bird_row(r: Row) -> BirdRow:
    return BirdRow(r["user_id"], str(r["name"]), r["seat"], r["points"])


def _match_row(r: Row) -> MatchRow:
    return MatchRow(r["id"], r["table_id"], r["hands"], r["status"], r["leaver"],
                    r["summary_msg_id"])
