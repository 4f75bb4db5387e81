"""A club's figures from its hands: seasons (/season), club stats (/stats) and voids (/void).

Nothing here is a counter: a season is a span of the group's hand numbers (a hand counts in
the season it was dealt in, ``hands_by_chat``), /stats a span of finish times
(``finished_hands_by_time``) or a season, and every figure is summed in SQL over the
finished, not voided, hands of that span, so a read costs what the span holds, however long
the group's history (``bench/bench_stats.py``). The all-time scores (/rank, /me, 等级) are
the ``scores`` counters; a void takes its hand out of them in the transaction that marks it,
the one edit a score ever gets besides a hand's own settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.store.boards import board_of, board_rule_set, in_board
from bot.store.conn import Conn, Row, now
from bot.store.rows import RankRow

LAST = 2**31 - 1  # the open end of the current season's span of hand numbers

# The finished, not voided hands ``h`` of one group's span of hand numbers on one board
# (:mod:`bot.store.boards`): parameters chat, first, last, then the board's keys.
IN_SEASON = ("h.chat_id = ? AND h.no >= ? AND h.no <= ? AND h.status = 'done'"
             " AND h.voided_by IS NULL AND ")
# The same over a span of finish times: chat, since, then the board's keys.
SINCE = "h.chat_id = ? AND h.ended_at >= ? AND h.status = 'done' AND h.voided_by IS NULL AND "


@dataclass(frozen=True)
class Season:
    """A group's season: its number and name, the group's hands ``first_no``..``last_no``
    (None: the current season, open-ended) and who closed it when."""

    no: int
    name: str | None
    first_no: int
    last_no: int | None
    closed_by: int | None = None
    closed_at: str | None = None


@dataclass(frozen=True)
class Span:
    """The hands a club figure covers: a season's hand numbers, or those finished since a
    time (``since``, as the schema keeps times)."""

    first_no: int = 1
    last_no: int = LAST
    since: str | None = None

    @classmethod
    def of(cls, season: Season) -> Span:
        return cls(season.first_no, LAST if season.last_no is None else season.last_no)

    def where(self, chat_id: int, rule_set: str) -> tuple[str, tuple[object, ...]]:
        """The condition on hands ``h`` and its parameters."""
        board, keys = in_board("h.rule_set", rule_set)
        if self.since is not None:
            return SINCE + board, (chat_id, self.since, *keys)
        return IN_SEASON + board, (chat_id, self.first_no, self.last_no, *keys)


@dataclass(frozen=True)
class ClubRow:
    """A member's figures over a span: hands played, points, matches topped (大赢家), the
    biggest 胡 (胡息 of his best win; None: no win recorded with it) and 自摸 wins."""

    user_id: int
    name: str
    hands: int
    points: int
    top: int
    huxi: int | None
    zimo: int


@dataclass(frozen=True)
class Voided:
    """A void of a finished hand as /void wrote it."""

    hand_id: int
    no: int
    users: tuple[int, ...]
    points: tuple[int, ...]


def season_row(r: Row) -> Season:
    return Season(r["no"], r["name"], r["first_no"], r["last_no"], r["closed_by"],
                  r["closed_at"])


class ClubReads:
    """The club reads of :class:`bot.store.reads.Queries`."""

    _conn: Conn

    async def seasons(self, chat_id: int) -> list[Season]:
        """A group's seasons, first to current (season 1 from hand 1 when none was closed)."""
        rows = await self._conn.all("SELECT * FROM seasons WHERE chat_id = ? ORDER BY no",
                                    (chat_id,))
        return [season_row(r) for r in rows] or [Season(1, None, 1, None)]

    async def season(self, chat_id: int, no: int | None = None) -> Season | None:
        """A group's season ``no`` (None: the current one); None when it has none such."""
        if no is None:
            row = await self._conn.one("SELECT * FROM seasons WHERE chat_id = ?"
                                       " AND last_no IS NULL", (chat_id,))
            return Season(1, None, 1, None) if row is None else season_row(row)
        row = await self._conn.one("SELECT * FROM seasons WHERE chat_id = ? AND no = ?",
                                   (chat_id, no))
        if row is None:
            return Season(1, None, 1, None) if no == 1 and not await self._any_season(
                chat_id) else None
        return season_row(row)

    async def _any_season(self, chat_id: int) -> bool:
        return await self._conn.one("SELECT 1 FROM seasons WHERE chat_id = ? LIMIT 1",
                                    (chat_id,)) is not None

    async def season_ranking(self, chat_id: int, span: Span, rule_set: str,
                             limit: int = 10) -> list[RankRow]:
        """The top ``limit`` players of one rule set over a span of the group's hands, by
        points then wins, summed from their results and birds (打鸟) there. Computer players
        are not ranked."""
        where, args = span.where(chat_id, rule_set)
        rows = await self._conn.all(
            "SELECT x.user_id, COALESCE(u.name, CAST(x.user_id AS TEXT)) AS name,"
            " SUM(x.points) AS points, SUM(x.hands) AS hands, SUM(x.wins) AS wins,"
            " SUM(x.birds) AS birds FROM ("
            " SELECT r.user_id, r.points, 1 - h.dissolved AS hands,"
            " CASE WHEN r.seat = h.winner THEN 1 ELSE 0 END AS wins, 0 AS birds"
            f" FROM hands h JOIN results r ON r.hand_id = h.id WHERE {where}"
            " UNION ALL SELECT b.user_id, b.points, 0, 0, 1"
            f" FROM hands h JOIN birds b ON b.hand_id = h.id WHERE {where}"
            " AND b.points IS NOT NULL) x LEFT JOIN users u ON u.user_id = x.user_id"
            " WHERE x.user_id > 0 GROUP BY x.user_id, u.name"
            " ORDER BY points DESC, wins DESC, x.user_id LIMIT ?", (*args, *args, limit))
        return [RankRow(r["user_id"], str(r["name"]), int(r["points"]), int(r["hands"]),
                        int(r["wins"]), int(r["birds"])) for r in rows]

    async def season_recent(self, chat_id: int, span: Span, rule_set: str,
                            user_ids: list[int], last: int = 20) -> dict[int, list[int]]:
        """Each user's points in his ``last`` hands of the span, oldest first (the season
        board's sparklines): one query, each part walking the group's hands back from the
        span's end until it has ``last`` of his (each hand's results by its key: the unary
        ``+`` keeps SQLite off a user index, which it walked whole for every hand)."""
        if not user_ids:
            return {}
        where, args = span.where(chat_id, rule_set)
        part = ("SELECT * FROM (SELECT r.user_id, r.points, h.no AS k FROM hands h"
                f" JOIN results r ON r.hand_id = h.id WHERE {where} AND +r.user_id = ?"
                " ORDER BY h.no DESC LIMIT ?) AS part")
        params: list[object] = []
        for user_id in user_ids:
            params += [*args, user_id, last]
        rows = await self._conn.all(" UNION ALL ".join([part] * len(user_ids))
                                    + " ORDER BY user_id, k", params)
        found: dict[int, list[int]] = {u: [] for u in user_ids}
        for r in rows:
            found[r["user_id"]].append(r["points"])
        return found

    async def club_stats(self, chat_id: int, span: Span, rule_set: str) -> list[ClubRow]:
        """Every member's figures over a span of the group's hands of one rule set, most
        points first. His points are /season's (:meth:`season_ranking`): his results and his
        birds' (打鸟; a bird is no hand played). A match's 大赢家 is whoever ends it (within
        the span) with the most points at its seats, above 0 (each of equals); a hand outside
        a match is a match of its own."""
        where, args = span.where(chat_id, rule_set)
        rows = await self._conn.all(
            "WITH x AS (SELECT COALESCE(h.match_id, -h.id) AS m, h.winner, h.zimo, h.huxi,"
            " h.dissolved, r.seat, r.user_id, r.points"
            f" FROM hands h JOIN results r ON r.hand_id = h.id WHERE {where}),"
            " per AS (SELECT m, user_id, SUM(points) AS p FROM x GROUP BY m, user_id),"
            " tops AS (SELECT user_id, COUNT(*) AS n FROM (SELECT user_id, p,"
            " MAX(p) OVER (PARTITION BY m) AS best FROM per) z WHERE p > 0 AND p = best"
            " GROUP BY user_id),"
            " y AS (SELECT user_id, 1 - dissolved AS hands, points,"
            " CASE WHEN seat = winner THEN huxi END AS huxi,"
            " CASE WHEN seat = winner AND zimo = 1 THEN 1 ELSE 0 END AS zimo FROM x"
            " UNION ALL SELECT b.user_id, 0, b.points, NULL, 0"
            f" FROM hands h JOIN birds b ON b.hand_id = h.id WHERE {where}"
            " AND b.points IS NOT NULL)"
            " SELECT y.user_id, COALESCE(u.name, CAST(y.user_id AS TEXT)) AS name,"
            " SUM(y.hands) AS hands, SUM(y.points) AS points,"
            " COALESCE(MAX(tops.n), 0) AS top, MAX(y.huxi) AS huxi, SUM(y.zimo) AS zimo"
            " FROM y LEFT JOIN users u ON u.user_id = y.user_id"
            " LEFT JOIN tops ON tops.user_id = y.user_id WHERE y.user_id > 0"
            " GROUP BY y.user_id, u.name ORDER BY points DESC, top DESC, y.user_id",
            (*args, *args))
        return [ClubRow(r["user_id"], str(r["name"]), int(r["hands"]), int(r["points"]),
                        int(r["top"]), None if r["huxi"] is None else int(r["huxi"]),
                        int(r["zimo"])) for r in rows]


class ClubWrites:
    """The club writes of :class:`bot.store.writes.Writes`."""

    _conn: Conn

    if TYPE_CHECKING:  # written by Writes
        async def lock_chat(self, chat_id: int) -> None: ...

        async def _add_score(self, chat_id: int, rule_set: str, user_id: int, points: int, *,
                             hands: int = 0, wins: int = 0, birds: int = 0) -> None: ...

        async def mark_skill_stale(self, rule_set: str) -> None: ...

    async def close_season(self, chat_id: int, by: int, name: str | None) -> Season | None:
        """Close the group's current season at its last hand dealt so far (a hand still
        running counts in it when it ends) and open the next, named ``name``; the closed
        season, or None when no hand was dealt in it (nothing is changed then). Holds the
        group's hand-number lock, so that no hand is dealt meanwhile on another bot."""
        await self.lock_chat(chat_id)
        row = await self._conn.one("SELECT * FROM seasons WHERE chat_id = ?"
                                   " AND last_no IS NULL", (chat_id,))
        current = Season(1, None, 1, None) if row is None else season_row(row)
        top = await self._conn.one("SELECT COALESCE(MAX(no), 0) AS n FROM hands"
                                   " WHERE chat_id = ?", (chat_id,))
        last = int(top["n"]) if top is not None else 0
        if last < current.first_no:
            return None
        at = now()
        if row is None:
            await self._conn.run(
                "INSERT INTO seasons (chat_id, no, name, first_no, last_no, closed_by,"
                " closed_at) VALUES (?, 1, NULL, 1, ?, ?, ?)", (chat_id, last, by, at))
        else:
            await self._conn.run(
                "UPDATE seasons SET last_no = ?, closed_by = ?, closed_at = ?"
                " WHERE chat_id = ? AND no = ?", (last, by, at, chat_id, current.no))
        await self._conn.run("INSERT INTO seasons (chat_id, no, name, first_no)"
                             " VALUES (?, ?, ?, ?)", (chat_id, current.no + 1, name, last + 1))
        return Season(current.no, current.name, current.first_no, last, by, at)

    async def void_hand(self, hand_id: int, by: int, reason: str) -> Voided | None:
        """Void a finished hand as a whole: marked with who and why (its record stays), and
        its results and birds taken out of its group's scores. None when it is not a
        finished hand or is void already (nothing changes)."""
        if not await self._conn.run(
                "UPDATE hands SET voided_by = ?, void_reason = ?, voided_at = ?"
                " WHERE id = ? AND status = 'done' AND voided_by IS NULL",
                (by, reason, now(), hand_id)):
            return None
        hand = await self._conn.one("SELECT chat_id, no, rule_set, winner, dissolved"
                                    " FROM hands WHERE id = ?", (hand_id,))
        assert hand is not None
        chat_id, rule_set = hand["chat_id"], board_of(hand["rule_set"])
        await self.mark_skill_stale(board_rule_set(rule_set))  # its match's places may change
        results = await self._conn.all("SELECT seat, user_id, points FROM results"
                                       " WHERE hand_id = ? ORDER BY seat", (hand_id,))
        for r in results:
            await self._add_score(chat_id, rule_set, r["user_id"], -r["points"],
                                  hands=-(1 - hand["dissolved"]),
                                  wins=-int(r["seat"] == hand["winner"]))
        birds = await self._conn.all("SELECT user_id, points FROM birds WHERE hand_id = ?"
                                     " AND points IS NOT NULL", (hand_id,))
        for b in birds:
            await self._add_score(chat_id, rule_set, b["user_id"], -b["points"], birds=-1)
        # a player whose only record it was is as if he had never played: off the boards
        users = {r["user_id"] for r in results} | {b["user_id"] for b in birds}
        marks = ", ".join("?" * len(users))
        await self._conn.run(f"DELETE FROM scores WHERE chat_id = ? AND rule_set = ?"
                             f" AND user_id IN ({marks}) AND points = 0 AND hands = 0"
                             f" AND wins = 0 AND birds = 0", (chat_id, rule_set, *users))
        return Voided(hand_id, hand["no"], tuple(r["user_id"] for r in results),
                      tuple(r["points"] for r in results))
