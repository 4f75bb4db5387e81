"""The store's side of the two skill measures (docs/club_scores.md): the skill rating's
matches and ratings (``bot.table.rater`` folds them), and each human seat's 复盘 figures
(``bot.table.reviewer`` computes them) that a season's 技术分 sums.

A rated match is read from the hands themselves: the seats' points summed over the match's
counted hands (done, not ended by a 解散, not voided), with the level of its table's computer
players. A match is complete once it is no longer running (a hand outside a match: once it
is done).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store.club_scores import Span
from bot.store.conn import Conn, Row

# The counted hands ``h`` of one rule set, whatever its seats and house rules (parameters:
# the rule set and its two prefixes, ``_rules``).
COUNTED = ("h.status = 'done' AND h.dissolved = 0 AND h.voided_by IS NULL"
           " AND (h.rule_set = ? OR h.rule_set LIKE ? OR h.rule_set LIKE ?)")
MATCH_KEY = "COALESCE(h.match_id, -h.id)"


@dataclass(frozen=True)
class MatchSeat:
    """A seat of a rated match: who (a computer's id is negative), his points over the
    match's counted hands, and the level of the table's computer players."""

    match_key: int
    user_id: int
    points: int
    level: str


@dataclass(frozen=True)
class StoredRating:
    user_id: int
    name: str
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True)
class SkillState:
    """What a rule set's ratings were folded from: the last ``seq`` and whether a void has
    made them stale since."""

    seq: int
    stale: bool


@dataclass(frozen=True)
class ReviewedRow:
    """A member's reviewed seats over a span: hands, decisions and the points they lost."""

    user_id: int
    name: str
    hands: int
    decisions: int
    loss: float


def _rules(rule_set: str) -> tuple[str, str, str]:
    """A rule set's keys: itself, its seat counts (``hunan/4``), its house rules (``qq+…``)."""
    return rule_set, f"{rule_set}/%", f"{rule_set}+%"


def _seat(r: Row) -> MatchSeat:
    return MatchSeat(int(r["m"]), int(r["user_id"]), int(r["points"]), str(r["level"]))


async def _state(conn: Conn, rule_set: str) -> SkillState:
    row = await conn.one(
        "SELECT COALESCE(MAX(seq), 0) AS seq, EXISTS (SELECT 1 FROM skill_stale"
        " WHERE rule_set = ?) AS stale FROM skill_matches WHERE rule_set = ?",
        (rule_set, rule_set))
    assert row is not None
    return SkillState(int(row["seq"]), bool(row["stale"]))


class SkillReads:
    """The skill reads of :class:`bot.store.reads.Queries`."""

    _conn: Conn

    async def skill_state(self, rule_set: str) -> SkillState:
        return await _state(self._conn, rule_set)

    async def scan_floor(self) -> int | None:
        """The oldest hand id a match not yet complete may hold: of the hands being played
        and the matches running (None: there are none)."""
        row = await self._conn.one(
            "SELECT MIN(x) AS low FROM (SELECT MIN(id) AS x FROM hands WHERE status = 'running'"
            " UNION ALL SELECT MIN(h.id) FROM matches m JOIN hands h ON h.match_id = m.id"
            " WHERE m.status = 'running') AS floors", ())
        return None if row is None or row["low"] is None else int(row["low"])

    async def unrated_matches(self, rule_set: str, since: int) -> list[tuple[int, int]]:
        """(match key, its last hand's id) of every complete match of the rule set with a
        counted hand from hand id ``since`` on that is not folded yet, by its last hand."""
        rows = await self._conn.all(
            f"SELECT {MATCH_KEY} AS m, MAX(h.id) AS last FROM hands h"
            " LEFT JOIN matches x ON x.id = h.match_id"
            f" WHERE {COUNTED} AND h.id >= ? AND (h.match_id IS NULL OR x.status != 'running')"
            " AND NOT EXISTS (SELECT 1 FROM skill_matches s WHERE s.rule_set = ?"
            f" AND s.match_key = {MATCH_KEY}) GROUP BY {MATCH_KEY} ORDER BY MAX(h.id)",
            (*_rules(rule_set), since, rule_set))
        return [(int(r["m"]), int(r["last"])) for r in rows]

    async def match_seats(self, rule_set: str, keys: list[int]) -> list[MatchSeat]:
        """The seats of the matches ``keys`` (by key, then seat order of user id)."""
        if not keys:
            return []
        found: list[MatchSeat] = []
        for chunk in range(0, len(keys), 500):
            part = keys[chunk:chunk + 500]
            matches = [k for k in part if k > 0]
            singles = [-k for k in part if k < 0]
            for column, ids in (("h.match_id", matches), ("h.id", singles)):
                if not ids:
                    continue
                marks = ", ".join("?" * len(ids))
                rows = await self._conn.all(
                    f"SELECT {MATCH_KEY} AS m, r.user_id, SUM(r.points) AS points,"
                    " MAX(t.robot_level) AS level FROM hands h"
                    " JOIN results r ON r.hand_id = h.id JOIN tables t ON t.id = h.table_id"
                    f" WHERE {COUNTED} AND {column} IN ({marks})"
                    f" GROUP BY {MATCH_KEY}, r.user_id", (*_rules(rule_set), *ids))
                found += [_seat(r) for r in rows]
        return found

    async def rated_keys(self, rule_set: str) -> list[int]:
        """The rule set's folded matches, in the order they were folded."""
        rows = await self._conn.all("SELECT match_key FROM skill_matches WHERE rule_set = ?"
                                    " ORDER BY seq", (rule_set,))
        return [int(r["match_key"]) for r in rows]

    async def skill_ratings(self, rule_set: str, user_ids: list[int] | None = None
                            ) -> list[StoredRating]:
        """The rule set's ratings (of ``user_ids`` only, if given)."""
        where = "s.rule_set = ?"
        args: list[object] = [rule_set]
        if user_ids is not None:
            if not user_ids:
                return []
            where += f" AND s.user_id IN ({', '.join('?' * len(user_ids))})"
            args += user_ids
        rows = await self._conn.all(
            "SELECT s.user_id, COALESCE(u.name, CAST(s.user_id AS TEXT)) AS name, s.mu,"
            " s.sigma, s.matches FROM skill_ratings s LEFT JOIN users u"
            f" ON u.user_id = s.user_id WHERE {where}", args)
        return [StoredRating(int(r["user_id"]), str(r["name"]), float(r["mu"]),
                             float(r["sigma"]), int(r["matches"])) for r in rows]

    async def skill_board(self, chat_id: int | None, rule_set: str, limit: int
                          ) -> list[StoredRating]:
        """The best ``limit`` ratings (by ``mu - 3 sigma``) of the rule set: of those who
        played it in the group ``chat_id`` (its scores, on any of the rule set's boards), or
        of everyone (None)."""
        member = "" if chat_id is None else (
            " AND EXISTS (SELECT 1 FROM scores c WHERE c.chat_id = ? AND c.user_id = s.user_id"
            " AND (c.rule_set = s.rule_set OR c.rule_set LIKE ?))")  # any of its boards
        args: list[object] = [rule_set] + ([] if chat_id is None else [chat_id,
                                                                      f"{rule_set}+%"])
        rows = await self._conn.all(
            "SELECT s.user_id, COALESCE(u.name, CAST(s.user_id AS TEXT)) AS name, s.mu,"
            " s.sigma, s.matches FROM skill_ratings s LEFT JOIN users u ON u.user_id = s.user_id"
            f" WHERE s.rule_set = ?{member} ORDER BY s.mu - 3 * s.sigma DESC, s.matches DESC,"
            " s.user_id LIMIT ?", (*args, limit))
        return [StoredRating(int(r["user_id"]), str(r["name"]), float(r["mu"]),
                             float(r["sigma"]), int(r["matches"])) for r in rows]

    async def unreviewed_seats(self, bot_id: int, since: int, limit: int
                               ) -> list[tuple[int, int, int]]:
        """(hand id, seat, user id) of human seats of this bot's finished hands from id
        ``since`` on that have no 复盘 figures yet, newest first."""
        rows = await self._conn.all(
            "SELECT h.id, r.seat, r.user_id FROM hands h JOIN tables t ON t.id = h.table_id"
            " JOIN results r ON r.hand_id = h.id WHERE t.bot_id = ? AND h.id >= ?"
            " AND h.status = 'done' AND h.dissolved = 0 AND r.user_id > 0"
            " AND NOT EXISTS (SELECT 1 FROM seat_reviews s WHERE s.hand_id = h.id"
            " AND s.seat = r.seat) ORDER BY h.id DESC, r.seat LIMIT ?", (bot_id, since, limit))
        return [(int(r["id"]), int(r["seat"]), int(r["user_id"])) for r in rows]

    async def last_hand_id(self) -> int:
        row = await self._conn.one("SELECT COALESCE(MAX(id), 0) AS n FROM hands", ())
        return 0 if row is None else int(row["n"])

    async def season_reviews(self, chat_id: int, span: Span, rule_set: str
                             ) -> list[ReviewedRow]:
        """Every member's reviewed seats over a span of the group's counted hands."""
        where, args = span.where(chat_id, rule_set)
        rows = await self._conn.all(
            "SELECT s.user_id, COALESCE(u.name, CAST(s.user_id AS TEXT)) AS name,"
            " COUNT(*) AS hands, SUM(s.decisions) AS decisions, SUM(s.loss) AS loss"
            " FROM hands h JOIN seat_reviews s ON s.hand_id = h.id"
            " LEFT JOIN users u ON u.user_id = s.user_id"
            f" WHERE {where} AND h.dissolved = 0 GROUP BY s.user_id, u.name", args)
        return [ReviewedRow(int(r["user_id"]), str(r["name"]), int(r["hands"]),
                            int(r["decisions"]), float(r["loss"])) for r in rows]


class SkillWrites:
    """The skill writes of :class:`bot.store.writes.Writes`."""

    _conn: Conn

    async def lock_skill(self) -> None:
        """Hold the ratings' lock to the end of the transaction (as ``lock_user``: nothing
        to do on SQLite, whose transactions exclude each other whole)."""

    async def skill_state(self, rule_set: str) -> SkillState:
        """As :meth:`SkillReads.skill_state`, in the transaction."""
        return await _state(self._conn, rule_set)

    async def save_ratings(self, rule_set: str, ratings: list[tuple[int, float, float, int]],
                           keys: list[int], first_seq: int, rebuilt: bool) -> None:
        """Write (user id, mu, sigma, matches) ratings and the matches just folded (seq from
        ``first_seq``); ``rebuilt``: they replace the rule set's ratings whole."""
        if rebuilt:
            await self._conn.run("DELETE FROM skill_ratings WHERE rule_set = ?", (rule_set,))
            await self._conn.run("DELETE FROM skill_stale WHERE rule_set = ?", (rule_set,))
        for user_id, mu, sigma, matches in ratings:
            await self._conn.run(
                "INSERT INTO skill_ratings (rule_set, user_id, mu, sigma, matches)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (rule_set, user_id) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches",
                (rule_set, user_id, mu, sigma, matches))
        for i, key in enumerate(keys):
            await self._conn.run("INSERT INTO skill_matches (rule_set, match_key, seq)"
                                 " VALUES (?, ?, ?)", (rule_set, key, first_seq + i))

    async def mark_skill_stale(self, rule_set: str) -> None:
        await self._conn.run("INSERT INTO skill_stale (rule_set) VALUES (?)"
                             " ON CONFLICT DO NOTHING", (rule_set,))

    async def add_seat_review(self, hand_id: int, seat: int, user_id: int, decisions: int,
                              loss: float) -> None:
        await self._conn.run(
            "INSERT INTO seat_reviews (hand_id, seat, user_id, decisions, loss)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (hand_id, seat, user_id, decisions, loss))


class SkillStore(Protocol):
    """What :class:`bot.store.Store` offers for the skill measures (:class:`SkillReads`)."""

    async def skill_state(self, rule_set: str) -> SkillState: ...
    async def scan_floor(self) -> int | None: ...
    async def unrated_matches(self, rule_set: str, since: int) -> list[tuple[int, int]]: ...
    async def match_seats(self, rule_set: str, keys: list[int]) -> list[MatchSeat]: ...
    async def rated_keys(self, rule_set: str) -> list[int]: ...
    async def skill_ratings(self, rule_set: str, user_ids: list[int] | None = None
                            ) -> list[StoredRating]: ...
    async def skill_board(self, chat_id: int | None, rule_set: str, limit: int
                          ) -> list[StoredRating]: ...
    async def unreviewed_seats(self, bot_id: int, since: int, limit: int
                               ) -> list[tuple[int, int, int]]: ...
    async def last_hand_id(self) -> int: ...
    async def season_reviews(self, chat_id: int, span: Span, rule_set: str
                             ) -> list[ReviewedRow]: ...


class SkillTx(Protocol):
    """What :class:`bot.store.Tx` offers for the skill measures (:class:`SkillWrites`)."""

    async def lock_skill(self) -> None: ...
    async def save_ratings(self, rule_set: str, ratings: list[tuple[int, float, float, int]],
                           keys: list[int], first_seq: int, rebuilt: bool) -> None: ...
    async def mark_skill_stale(self, rule_set: str) -> None: ...
    async def add_seat_review(self, hand_id: int, seat: int, user_id: int, decisions: int,
                              loss: float) -> None: ...
    async def skill_state(self, rule_set: str) -> SkillState: ...
