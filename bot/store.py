"""The store of record: a small repository over aiosqlite.

Everything a restart needs is here: open tables (with their rules key, 底分 and decision
timer) and their seats, each hand's rule set, seed and dealer, and the **append-only** action
log (SQLite triggers refuse UPDATE and DELETE on it) from which ``Hand.replay`` rebuilds a
running hand. Writes go through :meth:`Store.transaction`, which commits or rolls back as a
whole; one lock serialises them because the single connection is shared by every coroutine.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

# Ordered migrations: MIGRATIONS[i] brings the schema from user_version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE users (
        user_id   INTEGER PRIMARY KEY,
        name      TEXT NOT NULL,
        username  TEXT,
        lang      TEXT,
        dm_ok     INTEGER NOT NULL DEFAULT 0,   -- has pressed Start in a private chat
        seen_at   TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE chats (
        chat_id   INTEGER PRIMARY KEY,
        title     TEXT,
        lang      TEXT NOT NULL
    );
    CREATE TABLE tables (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id        INTEGER NOT NULL,
        opener_id      INTEGER NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'between', 'closed')),
        dealer         INTEGER,                 -- NULL until the first hand draws one
        draws_in_row   INTEGER NOT NULL DEFAULT 0,
        version        INTEGER NOT NULL DEFAULT 0,
        base           INTEGER NOT NULL,
        lobby_msg_id   INTEGER,
        created_at     TEXT NOT NULL DEFAULT (datetime('now')),
        closed_at      TEXT
    );
    CREATE UNIQUE INDEX one_open_table_per_chat ON tables (chat_id) WHERE status != 'closed';
    CREATE TABLE seats (
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
        user_id      INTEGER NOT NULL REFERENCES users (user_id),
        ready        INTEGER NOT NULL DEFAULT 0,
        autoplay     INTEGER NOT NULL DEFAULT 0,
        hand_msg_id  INTEGER,
        ping_msg_id  INTEGER,
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, user_id)
    );
    CREATE TABLE hands (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id      INTEGER NOT NULL REFERENCES tables (id),
        no            INTEGER NOT NULL,
        rule_set      TEXT NOT NULL,
        seed          TEXT NOT NULL,            -- decimal: 64-bit seeds overflow INTEGER
        dealer        INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('running', 'done', 'aborted')),
        group_msg_id  INTEGER,                  -- the table photo in the group
        settle_msg_id INTEGER,                  -- the settlement message
        started_at    TEXT NOT NULL DEFAULT (datetime('now')),
        ended_at      TEXT,
        UNIQUE (table_id, no)
    );
    CREATE TABLE actions (
        hand_id  INTEGER NOT NULL REFERENCES hands (id),
        seq      INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        action   TEXT NOT NULL,
        auto     INTEGER NOT NULL DEFAULT 0,    -- played by the bot (托管)
        at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
        PRIMARY KEY (hand_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TABLE results (
        hand_id  INTEGER NOT NULL REFERENCES hands (id),
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        points   INTEGER NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    CREATE TABLE scores (
        chat_id  INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        points   INTEGER NOT NULL DEFAULT 0,
        hands    INTEGER NOT NULL DEFAULT 0,
        wins     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE VIEW global_scores AS
        SELECT user_id, SUM(points) AS points, SUM(hands) AS hands, SUM(wins) AS wins
        FROM scores GROUP BY user_id;
    """,
    # 2: the winner's seat on each hand (leaderboards and /me find a best hand without
    # replaying all of a user's hands), backfilled from the results: a win is the only
    # outcome with exactly one seat above zero (逃跑 pays two seats, 荒庄 none).
    """
    ALTER TABLE hands ADD COLUMN winner INTEGER;
    UPDATE hands SET winner = (SELECT r.seat FROM results r
                               WHERE r.hand_id = hands.id AND r.points > 0)
        WHERE status = 'done'
          AND (SELECT COUNT(*) FROM results r WHERE r.hand_id = hands.id AND r.points > 0) = 1;
    CREATE INDEX results_by_user ON results (user_id);
    CREATE INDEX hands_by_table ON hands (table_id, status);
    CREATE INDEX tables_by_chat ON tables (chat_id);
    """,
    # 3: hands are numbered per group (1, 2, 3… over all of a group's tables), not per table:
    # renumbered in order of creation (through negatives, so that no two hands of a table
    # share a number on the way).
    """
    UPDATE hands SET no = -no;
    UPDATE hands SET no = (
        SELECT n FROM (SELECT h.id AS id, ROW_NUMBER() OVER (PARTITION BY t.chat_id
                                                             ORDER BY h.id) AS n
                       FROM hands h JOIN tables t ON t.id = h.table_id) AS numbered
        WHERE numbered.id = hands.id);
    """,
    # table options (issue 12): each table keeps its rules key (rule set, seat count and
    # two-seat option: ``engine.rules.get_rule_set``) and its decision timer (seconds; NULL
    # the bot's default, 0 慢速); seats run 0..3, so the seats table is rebuilt for its CHECK.
    """
    ALTER TABLE tables ADD COLUMN rules TEXT NOT NULL DEFAULT 'qq';
    ALTER TABLE tables ADD COLUMN timer INTEGER;
    CREATE TABLE seats_4 (
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id      INTEGER NOT NULL REFERENCES users (user_id),
        ready        INTEGER NOT NULL DEFAULT 0,
        autoplay     INTEGER NOT NULL DEFAULT 0,
        hand_msg_id  INTEGER,
        ping_msg_id  INTEGER,
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, user_id)
    );
    INSERT INTO seats_4 SELECT table_id, seat, user_id, ready, autoplay, hand_msg_id,
                               ping_msg_id FROM seats;
    DROP TABLE seats;
    ALTER TABLE seats_4 RENAME TO seats;
    """,
    # Leaderboards per rule set (a 湖南 囤 is not a QQ point): scores are kept per (chat,
    # rule set id, user); those before were all played by qq. A bird (打鸟) adds its points
    # and counts in ``birds``, not in ``hands``. ``birds`` holds each one: placed for a
    # table's next deal (hand_id NULL), bound to the hand when it is dealt, and given the
    # seat it followed and its points at the settlement.
    """
    CREATE TABLE scores_by_rules (
        chat_id   INTEGER NOT NULL,
        rule_set  TEXT NOT NULL,                -- RuleSet.id: qq | hunan | four14
        user_id   INTEGER NOT NULL,
        points    INTEGER NOT NULL DEFAULT 0,
        hands     INTEGER NOT NULL DEFAULT 0,
        wins      INTEGER NOT NULL DEFAULT 0,
        birds     INTEGER NOT NULL DEFAULT 0,   -- hands followed as a bird (打鸟)
        PRIMARY KEY (chat_id, rule_set, user_id)
    );
    INSERT INTO scores_by_rules (chat_id, rule_set, user_id, points, hands, wins)
        SELECT chat_id, 'qq', user_id, points, hands, wins FROM scores;
    DROP VIEW global_scores;
    DROP TABLE scores;
    ALTER TABLE scores_by_rules RENAME TO scores;
    CREATE VIEW global_scores AS
        SELECT rule_set, user_id, SUM(points) AS points, SUM(hands) AS hands,
               SUM(wins) AS wins, SUM(birds) AS birds
        FROM scores GROUP BY rule_set, user_id;
    CREATE INDEX scores_by_rule_set ON scores (rule_set, user_id);
    CREATE INDEX scores_by_user ON scores (user_id);
    CREATE TABLE birds (
        table_id  INTEGER NOT NULL REFERENCES tables (id),
        hand_id   INTEGER REFERENCES hands (id),  -- NULL: placed for the table's next deal
        user_id   INTEGER NOT NULL,
        seat      INTEGER,                        -- the seat it followed (at settlement)
        points    INTEGER,                        -- its result (at settlement)
        placed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
    );
    CREATE UNIQUE INDEX one_waiting_bird ON birds (table_id, user_id) WHERE hand_id IS NULL;
    CREATE UNIQUE INDEX one_bird_a_hand ON birds (hand_id, user_id) WHERE hand_id IS NOT NULL;
    """,
    # forum topics: a table belongs to the topic it was opened in (its message_thread_id;
    # NULL outside forums and in a forum's General topic), and each topic of a group may hold
    # an open table of its own
    """
    ALTER TABLE tables ADD COLUMN thread_id INTEGER;
    DROP INDEX one_open_table_per_chat;
    CREATE UNIQUE INDEX one_open_table_per_topic ON tables (chat_id, COALESCE(thread_id, 0))
        WHERE status != 'closed';
    """,
    # votes (解散, replacing an absent seat) and /notify: an open vote's group message, so
    # that a restart can say the vote was cancelled and take its buttons away; who asked a
    # group for a private note when a table opens or lacks one player, and who was told of
    # which table (at most once)
    """
    CREATE TABLE votes (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id  INTEGER NOT NULL REFERENCES tables (id),
        kind      TEXT NOT NULL CHECK (kind IN ('dissolve', 'replace')),
        proposer  INTEGER NOT NULL,
        msg_id    INTEGER                         -- its group message, once sent
    );
    CREATE UNIQUE INDEX one_vote_per_table ON votes (table_id);
    CREATE TABLE notify (
        chat_id   INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE TABLE notified (
        table_id  INTEGER NOT NULL REFERENCES tables (id),
        user_id   INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    """,
    # matches (局数, issue 13): a table plays single hands (match_hands 1) or matches of 4, 8
    # or 16 hands; each match is a row, its hands point at it, and its 总结算 message id is
    # kept so that it is posted once (after a restart too). ``leaver``: the user whose leaving
    # ended it early; status ``stopped`` when /stop ended it.
    """
    ALTER TABLE tables ADD COLUMN match_hands INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE matches (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id        INTEGER NOT NULL REFERENCES tables (id),
        hands           INTEGER NOT NULL,
        status          TEXT NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'done', 'left', 'stopped')),
        leaver          INTEGER,
        summary_msg_id  INTEGER
    );
    CREATE UNIQUE INDEX one_running_match ON matches (table_id) WHERE status = 'running';
    ALTER TABLE hands ADD COLUMN match_id INTEGER REFERENCES matches (id);
    CREATE INDEX hands_by_match ON hands (match_id);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
QQ_ID = "qq"  # the rule set of every score kept before leaderboards were per rule set


def rule_set_id(key: str) -> str:
    """The rule set a rules key belongs to (``hunan/4`` -> ``hunan``): leaderboards keep rule
    sets apart, not seat counts."""
    return key.partition("/")[0]


@dataclass(frozen=True)
class UserRow:
    user_id: int
    name: str
    lang: str | None
    dm_ok: bool


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    ready: bool
    autoplay: bool
    hand_msg_id: int | None
    ping_msg_id: int | None


@dataclass(frozen=True)
class HandRow:
    id: int
    no: int
    rule_set: str
    seed: int
    dealer: int
    status: str
    group_msg_id: int | None
    settle_msg_id: int | None
    log: tuple[tuple[int, str], ...]  # (seat, action), in order
    users: tuple[int, ...]  # who played it, by seat (from its results; empty while running)


@dataclass(frozen=True)
class TableRow:
    id: int
    chat_id: int
    opener_id: int
    status: str
    dealer: int | None
    draws_in_row: int
    version: int
    base: int
    lobby_msg_id: int | None
    rules: str = "qq"  # the rules key (``engine.rules.get_rule_set``)
    timer: int | None = None  # decision timer in seconds; None the bot's default, 0 慢速
    thread_id: int | None = None  # its forum topic (None: not a forum, or General)
    match_hands: int = 1  # hands a match of this table has: 1 (single hands), 4, 8 or 16


@dataclass(frozen=True)
class MatchRow:
    """A match (局数): its table, hands planned, status (running | done | left | stopped),
    the user whose leaving ended it, and its 总结算 message once posted."""

    id: int
    table_id: int
    hands: int
    status: str
    leaver: int | None
    summary_msg_id: int | None


@dataclass(frozen=True)
class RankRow:
    user_id: int
    name: str
    points: int
    hands: int
    wins: int
    birds: int = 0  # hands followed as a bird (打鸟); their points are in ``points``


@dataclass(frozen=True)
class Score:
    """A user's record in one rule set: seated hands and wins, and birds (打鸟) apart."""

    points: int
    hands: int
    wins: int
    birds: int


@dataclass(frozen=True)
class BirdRow:
    """A bird (打鸟) of a hand: who placed it, and once settled the seat it followed and its
    points (``seat`` None: settled without a card naming a seat)."""

    user_id: int
    name: str
    seat: int | None
    points: int | None


@dataclass(frozen=True)
class VoteRow:
    """An open vote as stored: where its group message is."""

    id: int
    kind: str  # dissolve | replace
    chat_id: int
    thread_id: int | None
    msg_id: int | None


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand as recorded: enough to replay it (``base`` is its table's)."""

    id: int
    no: int
    rule_set: str
    seed: int
    dealer: int
    base: int
    winner: int | None
    log: tuple[tuple[int, str], ...]
    users: tuple[int, ...]  # by seat
    names: tuple[str, ...]  # by seat, as the users are called now
    points: tuple[int, ...]  # by seat


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply the missing migrations, each in its own transaction; return the version."""
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    version = row[0] if row else 0
    if version > SCHEMA_VERSION:
        raise RuntimeError(f"database schema {version} is newer than this program ({SCHEMA_VERSION})")
    for target in range(version + 1, SCHEMA_VERSION + 1):
        await db.executescript(
            f"BEGIN;\n{MIGRATIONS[target - 1]}\nPRAGMA user_version = {target};\nCOMMIT;"
        )
    return SCHEMA_VERSION


class Store:
    """Repository over one aiosqlite connection (WAL, autocommit outside transactions)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One unit of work: committed when the block ends, rolled back if it raises."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    # --- reads -----------------------------------------------------------------------

    async def _one(self, sql: str, *args: object) -> aiosqlite.Row | None:
        async with self._db.execute(sql, args) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, *args: object) -> list[aiosqlite.Row]:
        async with self._db.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def user(self, user_id: int) -> UserRow | None:
        row = await self._one("SELECT * FROM users WHERE user_id = ?", user_id)
        if row is None:
            return None
        return UserRow(row["user_id"], row["name"], row["lang"], bool(row["dm_ok"]))

    async def chat_lang(self, chat_id: int) -> str | None:
        row = await self._one("SELECT lang FROM chats WHERE chat_id = ?", chat_id)
        return row["lang"] if row else None

    async def open_tables(self) -> list[TableRow]:
        rows = await self._all("SELECT * FROM tables WHERE status != 'closed' ORDER BY id")
        return [_table_row(r) for r in rows]

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", table_id)
        return [
            SeatRow(r["seat"], r["user_id"], bool(r["ready"]), bool(r["autoplay"]),
                    r["hand_msg_id"], r["ping_msg_id"])
            for r in rows
        ]

    async def last_hand(self, table_id: int) -> HandRow | None:
        """The table's latest hand with its action log."""
        row = await self._one(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY no DESC LIMIT 1", table_id)
        return None if row is None else await self._hand_row(row)

    async def unposted_hands(self) -> list[tuple[int, HandRow]]:
        """(table id, hand) of every finished hand whose settlement was never posted (the
        bot stopped before it could be), oldest first."""
        rows = await self._all("SELECT * FROM hands WHERE status = 'done'"
                               " AND settle_msg_id IS NULL ORDER BY id")
        return [(r["table_id"], await self._hand_row(r)) for r in rows]

    async def table(self, table_id: int) -> TableRow | None:
        """A table, open or closed."""
        row = await self._one("SELECT * FROM tables WHERE id = ?", table_id)
        return None if row is None else _table_row(row)

    async def _hand_row(self, row: aiosqlite.Row) -> HandRow:
        log = await self._all(
            "SELECT seat, action FROM actions WHERE hand_id = ? ORDER BY seq", row["id"])
        users = await self._all(
            "SELECT user_id FROM results WHERE hand_id = ? ORDER BY seat", row["id"])
        return HandRow(row["id"], row["no"], row["rule_set"], int(row["seed"]), row["dealer"],
                       row["status"], row["group_msg_id"], row["settle_msg_id"],
                       tuple((r["seat"], r["action"]) for r in log),
                       tuple(r["user_id"] for r in users))

    async def open_votes(self) -> list[VoteRow]:
        """Every vote left open (the bot stopped before it ended), oldest first."""
        rows = await self._all("SELECT v.id, v.kind, v.msg_id, t.chat_id, t.thread_id"
                               " FROM votes v JOIN tables t ON t.id = v.table_id ORDER BY v.id")
        return [VoteRow(r["id"], r["kind"], r["chat_id"], r["thread_id"], r["msg_id"])
                for r in rows]

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
            "SELECT COALESCE(MAX(h.no), 0) + 1 AS n FROM hands h"
            " JOIN tables t ON t.id = h.table_id WHERE t.chat_id = ?", chat_id)
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
        then wins. Computer players (negative ids, see :mod:`bot.table.robots`) are not ranked."""
        source = "global_scores s" if chat_id is None else "scores s"
        where = "WHERE s.user_id > 0 AND s.rule_set = ?" + \
            ("" if chat_id is None else " AND s.chat_id = ?")
        args: tuple[object, ...] = (rule_set,) if chat_id is None else (rule_set, chat_id)
        rows = await self._all(
            f"SELECT s.user_id, COALESCE(u.name, s.user_id) AS name, s.points, s.hands, s.wins,"
            f" s.birds FROM {source} LEFT JOIN users u ON u.user_id = s.user_id {where}"
            f" ORDER BY s.points DESC, s.wins DESC, s.user_id LIMIT ?", *args, limit)
        return [RankRow(r["user_id"], str(r["name"]), r["points"], r["hands"], r["wins"],
                        r["birds"]) for r in rows]

    async def waiting_birds(self, table_id: int) -> list[BirdRow]:
        """The birds placed for a table's next deal, in the order they were placed."""
        rows = await self._all(
            "SELECT b.user_id, COALESCE(u.name, b.user_id) AS name, b.seat, b.points"
            " FROM birds b LEFT JOIN users u ON u.user_id = b.user_id"
            " WHERE b.table_id = ? AND b.hand_id IS NULL ORDER BY b.rowid", table_id)
        return [_bird_row(r) for r in rows]

    async def hand_birds(self, hand_id: int) -> list[BirdRow]:
        """The birds of a hand, in the order they were placed."""
        rows = await self._all(
            "SELECT b.user_id, COALESCE(u.name, b.user_id) AS name, b.seat, b.points"
            " FROM birds b LEFT JOIN users u ON u.user_id = b.user_id"
            " WHERE b.hand_id = ? ORDER BY b.rowid", hand_id)
        return [_bird_row(r) for r in rows]

    async def finished_hands(self, chat_id: int, limit: int) -> list[PlayedHand]:
        """A chat's last ``limit`` finished hands, newest first."""
        rows = await self._all(
            "SELECT h.*, t.base FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE t.chat_id = ? AND h.status = 'done' ORDER BY h.id DESC LIMIT ?",
            chat_id, limit)
        return [await self._played(r) for r in rows]

    async def running_match(self, table_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE table_id = ? AND status = 'running'",
                              table_id)
        return None if row is None else _match_row(row)

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE id = ?", match_id)
        return None if row is None else _match_row(row)

    async def unposted_matches(self) -> list[MatchRow]:
        """Ended matches whose 总结算 never reached the group, oldest first."""
        rows = await self._all("SELECT * FROM matches WHERE status != 'running'"
                               " AND summary_msg_id IS NULL ORDER BY id")
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
            "SELECT h.*, t.base FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.match_id = ? AND h.status = 'done' ORDER BY h.id", match_id)
        return [await self._played(r) for r in rows]

    async def best_hand(self, user_id: int, rule_set: str = QQ_ID) -> PlayedHand | None:
        """The hand of a rule set this user won for the most points (the earliest of equals)."""
        row = await self._one(
            "SELECT h.*, t.base FROM hands h JOIN tables t ON t.id = h.table_id"
            " JOIN results r ON r.hand_id = h.id AND r.seat = h.winner"
            " WHERE r.user_id = ? AND (h.rule_set = ? OR h.rule_set LIKE ?)"
            " ORDER BY r.points DESC, h.id LIMIT 1", user_id, rule_set, f"{rule_set}/%")
        return await self._played(row) if row is not None else None

    # --- replays, pictures (/replay, /rank, /me) -----------------------------------------

    async def hand_in_chat(self, chat_id: int, no: int) -> tuple[int, str] | None:
        """(id, status) of a group's hand number ``no``; None when the group has none."""
        row = await self._one(
            "SELECT h.id, h.status FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE t.chat_id = ? AND h.no = ?", chat_id, no)
        return None if row is None else (row["id"], row["status"])

    async def played_hand(self, hand_id: int) -> tuple[int, PlayedHand] | None:
        """(the group's chat id, the hand) of a finished hand; None for any other id."""
        row = await self._one(
            "SELECT h.*, t.base, t.chat_id FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.id = ? AND h.status = 'done'", hand_id)
        return None if row is None else (row["chat_id"], await self._played(row))

    async def last_played_id(self, user_id: int) -> int | None:
        """The id of the last finished hand ``user_id`` sat at, in any group."""
        row = await self._one(
            "SELECT MAX(r.hand_id) AS id FROM results r JOIN hands h ON h.id = r.hand_id"
            " WHERE r.user_id = ? AND h.status = 'done'", user_id)
        return None if row is None else row["id"]

    async def recent_points(self, user_ids: Sequence[int], rule_set: str,
                            chat_id: int | None = None, last: int = 20) -> dict[int, list[int]]:
        """Each user's points in his ``last`` finished hands of one rule set (in one chat, or
        in all), oldest first: one query for all of them (the leaderboard's sparklines),
        each user's part walking ``results_by_user`` back from his latest result and
        stopping after ``last``, however many hands he played. Birds are not hands."""
        if not user_ids:
            return {}
        in_chat = "" if chat_id is None else " AND t.chat_id = ?"
        part = ("SELECT * FROM (SELECT r.user_id, r.points, r.rowid AS k FROM results r"
                " JOIN hands h ON h.id = r.hand_id JOIN tables t ON t.id = h.table_id"
                f" WHERE r.user_id = ? AND (h.rule_set = ? OR h.rule_set LIKE ?){in_chat}"
                " ORDER BY r.rowid DESC LIMIT ?)")
        args: list[object] = []
        for user_id in user_ids:
            args += [user_id, rule_set, f"{rule_set}/%", *([] if chat_id is None else [chat_id]),
                     last]
        rows = await self._all(" UNION ALL ".join([part] * len(user_ids))
                               + " ORDER BY user_id, k", *args)
        found: dict[int, list[int]] = {u: [] for u in user_ids}
        for r in rows:
            found[r["user_id"]].append(r["points"])
        return found

    async def user_hands(self, user_id: int, rule_set: str, last: int) -> list[PlayedHand]:
        """The ``last`` finished hands of one rule set ``user_id`` sat at, oldest first, read
        in three queries however many (for /me's card, which replays them)."""
        hands = await self._all(
            "SELECT * FROM (SELECT h.*, t.base FROM results r JOIN hands h ON h.id = r.hand_id"
            " JOIN tables t ON t.id = h.table_id WHERE r.user_id = ? AND h.status = 'done'"
            " AND (h.rule_set = ? OR h.rule_set LIKE ?) ORDER BY h.id DESC LIMIT ?)"
            " ORDER BY id", user_id, rule_set, f"{rule_set}/%", last)
        if not hands:
            return []
        ids = [h["id"] for h in hands]
        marks = ",".join("?" * len(ids))
        logs: dict[int, list[tuple[int, str]]] = {i: [] for i in ids}
        for r in await self._all(f"SELECT hand_id, seat, action FROM actions WHERE hand_id"
                                 f" IN ({marks}) ORDER BY hand_id, seq", *ids):
            logs[r["hand_id"]].append((r["seat"], r["action"]))
        seats: dict[int, list[aiosqlite.Row]] = {i: [] for i in ids}
        for r in await self._all(
                "SELECT r.hand_id, r.user_id, r.points, COALESCE(u.name, r.user_id) AS name"
                f" FROM results r LEFT JOIN users u ON u.user_id = r.user_id WHERE r.hand_id"
                f" IN ({marks}) ORDER BY r.hand_id, r.seat", *ids):
            seats[r["hand_id"]].append(r)
        return [PlayedHand(h["id"], h["no"], h["rule_set"], int(h["seed"]), h["dealer"],
                           h["base"], h["winner"], tuple(logs[h["id"]]),
                           tuple(r["user_id"] for r in seats[h["id"]]),
                           tuple(str(r["name"]) for r in seats[h["id"]]),
                           tuple(r["points"] for r in seats[h["id"]])) for h in hands]

    async def _played(self, row: aiosqlite.Row) -> PlayedHand:
        log = await self._all(
            "SELECT seat, action FROM actions WHERE hand_id = ? ORDER BY seq", row["id"])
        results = await self._all(
            "SELECT r.user_id, r.points, COALESCE(u.name, r.user_id) AS name FROM results r"
            " LEFT JOIN users u ON u.user_id = r.user_id WHERE r.hand_id = ? ORDER BY r.seat",
            row["id"])
        return PlayedHand(row["id"], row["no"], row["rule_set"], int(row["seed"]), row["dealer"],
                          row["base"], row["winner"],
                          tuple((r["seat"], r["action"]) for r in log),
                          tuple(r["user_id"] for r in results),
                          tuple(str(r["name"]) for r in results),
                          tuple(r["points"] for r in results))

    # --- writes outside a unit of work (bookkeeping that no game state depends on) -----

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        async with self.transaction() as tx:
            await tx.upsert_user(user_id, name, username, lang, dm_ok)

    async def set_chat_lang(self, chat_id: int, lang: str, title: str | None = None) -> None:
        async with self.transaction() as tx:
            await tx.exec(
                "INSERT INTO chats (chat_id, title, lang) VALUES (?, ?, ?) ON CONFLICT (chat_id)"
                " DO UPDATE SET lang = excluded.lang, title = COALESCE(excluded.title, title)",
                chat_id, title, lang)

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        """/notify (``on``) or /notify off in a group."""
        async with self.transaction() as tx:
            await tx.subscribe(chat_id, user_id, on)


class Tx:
    """Writes inside one :meth:`Store.transaction`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def exec(self, sql: str, *args: object) -> int:
        async with self._db.execute(sql, args) as cur:
            return cur.lastrowid or 0

    async def _changes(self, sql: str, *args: object) -> int:
        """Run a write; the number of rows it changed."""
        async with self._db.execute(sql, args) as cur:
            return cur.rowcount

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        await self.exec(
            "INSERT INTO users (user_id, name, username, lang, dm_ok) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " username = excluded.username, lang = COALESCE(excluded.lang, lang),"
            " dm_ok = MAX(dm_ok, excluded.dm_ok), seen_at = datetime('now')",
            user_id, name, username, lang, int(dm_ok))

    async def move_chat(self, old: int, new: int) -> None:
        """A group upgraded to a supergroup (``old`` id -> ``new`` id): its tables (and so
        their hands, history and hand numbers), its leaderboard and its settings move to the
        new id; scores the new id already holds are added up."""
        await self.exec("UPDATE tables SET chat_id = ? WHERE chat_id = ?", new, old)
        await self.exec("UPDATE OR IGNORE notify SET chat_id = ? WHERE chat_id = ?", new, old)
        await self.exec(
            "INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins, birds)"
            " SELECT ?, rule_set, user_id, points, hands, wins, birds FROM scores"
            " WHERE chat_id = ? ON CONFLICT (chat_id, rule_set, user_id) DO UPDATE SET"
            " points = points + excluded.points, hands = hands + excluded.hands,"
            " wins = wins + excluded.wins, birds = birds + excluded.birds", new, old)
        await self.exec("DELETE FROM scores WHERE chat_id = ?", old)
        await self.exec("INSERT INTO chats (chat_id, title, lang) SELECT ?, title, lang"
                        " FROM chats WHERE chat_id = ? ON CONFLICT (chat_id) DO NOTHING",
                        new, old)
        await self.exec("DELETE FROM chats WHERE chat_id = ?", old)

    async def create_table(self, chat_id: int, opener_id: int, base: int, rules: str = "qq",
                           timer: int | None = None, thread_id: int | None = None) -> int:
        return await self.exec(
            "INSERT INTO tables (chat_id, opener_id, status, base, rules, timer, thread_id)"
            " VALUES (?, ?, 'lobby', ?, ?, ?, ?)", chat_id, opener_id, base, rules, timer, thread_id)

    async def _update(self, sql_table: str, where: dict[str, object],
                      cols: dict[str, object]) -> None:
        """UPDATE with column names from code (never from users), values as parameters."""
        sets = ", ".join(f"{c} = ?" for c in cols)
        conds = " AND ".join(f"{c} = ?" for c in where)
        await self.exec(f"UPDATE {sql_table} SET {sets} WHERE {conds}",
                        *cols.values(), *where.values())

    async def update_table(self, table_id: int, **cols: object) -> None:
        await self._update("tables", {"id": table_id}, cols)

    async def update_hand(self, hand_id: int, **cols: object) -> None:
        await self._update("hands", {"id": hand_id}, cols)

    async def create_match(self, table_id: int, hands: int) -> int:
        return await self.exec("INSERT INTO matches (table_id, hands) VALUES (?, ?)",
                               table_id, hands)

    async def update_match(self, match_id: int, **cols: object) -> None:
        await self._update("matches", {"id": match_id}, cols)

    async def close_table(self, table_id: int, version: int) -> None:
        await self.exec("UPDATE tables SET status = 'closed', version = ?,"
                        " closed_at = datetime('now') WHERE id = ?", version, table_id)
        await self.exec("UPDATE hands SET status = 'aborted', ended_at = datetime('now')"
                        " WHERE table_id = ? AND status = 'running'", table_id)

    async def add_seat(self, table_id: int, seat: int, user_id: int) -> None:
        await self.exec("INSERT INTO seats (table_id, seat, user_id) VALUES (?, ?, ?)",
                        table_id, seat, user_id)

    async def move_seat(self, table_id: int, seat: int, to: int) -> None:
        """Seat ``seat``'s player at the free seat ``to`` (a lobby shrinking to fewer seats)."""
        await self.exec("UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ?",
                        to, table_id, seat)

    async def remove_seat(self, table_id: int, seat: int) -> None:
        await self.exec("DELETE FROM seats WHERE table_id = ? AND seat = ?", table_id, seat)

    async def update_seat(self, table_id: int, seat: int, *, of_user: int | None = None,
                          **cols: object) -> None:
        """Update a seat; with ``of_user``, only while that user sits there."""
        where: dict[str, object] = {"table_id": table_id, "seat": seat}
        if of_user is not None:
            where["user_id"] = of_user
        await self._update("seats", where, cols)

    async def reset_seats(self, table_id: int) -> None:
        """A new hand: nobody is ready or in 托管; the old hand message is left behind (the
        last ping is kept, so the next one deletes it)."""
        await self.exec("UPDATE seats SET ready = 0, autoplay = 0, hand_msg_id = NULL"
                        " WHERE table_id = ?", table_id)

    async def create_hand(self, table_id: int, no: int, rule_set: str, seed: int,
                          dealer: int) -> int:
        return await self.exec(
            "INSERT INTO hands (table_id, no, rule_set, seed, dealer, status)"
            " VALUES (?, ?, ?, ?, ?, 'running')", table_id, no, rule_set, str(seed), dealer)

    async def append_action(self, hand_id: int, seq: int, seat: int, action: str,
                            auto: bool = False) -> None:
        await self.exec(
            "INSERT INTO actions (hand_id, seq, seat, action, auto) VALUES (?, ?, ?, ?, ?)",
            hand_id, seq, seat, action, int(auto))

    async def finish_hand(self, hand_id: int, chat_id: int, users: Sequence[int],
                          points: Sequence[int], winner: int | None,
                          counted: bool = True) -> None:
        """Record a finished hand: per-seat results and the chat's score table of the hand's
        rule set (a hand not ``counted``, one dissolved by vote, adds no hand played)."""
        await self.exec("UPDATE hands SET status = 'done', winner = ?, ended_at = datetime('now')"
                        " WHERE id = ?", winner, hand_id)
        rule_set = await self._hand_rule_set(hand_id)
        for seat, (user_id, p) in enumerate(zip(users, points, strict=True)):
            await self.exec("INSERT INTO results (hand_id, seat, user_id, points)"
                            " VALUES (?, ?, ?, ?)", hand_id, seat, user_id, p)
            await self._add_score(chat_id, rule_set, user_id, p, hands=int(counted),
                                  wins=int(seat == winner))

    async def _hand_rule_set(self, hand_id: int) -> str:
        async with self._db.execute("SELECT rule_set FROM hands WHERE id = ?", (hand_id,)) as cur:
            row = await cur.fetchone()
        assert row is not None, f"unknown hand {hand_id}"
        return rule_set_id(row["rule_set"])

    async def _add_score(self, chat_id: int, rule_set: str, user_id: int, points: int, *,
                         hands: int = 0, wins: int = 0, birds: int = 0) -> None:
        await self.exec(
            "INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins, birds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, rule_set, user_id) DO UPDATE SET"
            " points = points + excluded.points, hands = hands + excluded.hands,"
            " wins = wins + excluded.wins, birds = birds + excluded.birds",
            chat_id, rule_set, user_id, points, hands, wins, birds)

    # --- birds (打鸟) ---------------------------------------------------------------------

    async def toggle_bird(self, table_id: int, user_id: int) -> bool:
        """Place the user's bird on the table's next deal, or withdraw it if placed; True
        when it is placed now."""
        if await self._changes("DELETE FROM birds WHERE table_id = ? AND user_id = ?"
                               " AND hand_id IS NULL", table_id, user_id):
            return False
        await self.exec("INSERT INTO birds (table_id, user_id) VALUES (?, ?)", table_id, user_id)
        return True

    async def deal_birds(self, table_id: int, hand_id: int, seated: Sequence[int],
                         allowed: bool) -> None:
        """A hand is dealt: the birds waiting for it follow it (when its rules allow birds),
        except those of users seated since; the others are dropped."""
        if allowed:
            marks = ", ".join("?" * len(seated)) or "NULL"
            await self.exec(f"UPDATE birds SET hand_id = ? WHERE table_id = ? AND hand_id IS NULL"
                            f" AND user_id NOT IN ({marks})", hand_id, table_id, *seated)
        await self.exec("DELETE FROM birds WHERE table_id = ? AND hand_id IS NULL", table_id)

    async def bird_users(self, hand_id: int) -> list[int]:
        """The users whose birds follow a hand, in the order they were placed."""
        async with self._db.execute("SELECT user_id FROM birds WHERE hand_id = ? ORDER BY rowid",
                                    (hand_id,)) as cur:
            return [r["user_id"] for r in await cur.fetchall()]

    async def settle_bird(self, hand_id: int, chat_id: int, user_id: int, seat: int | None,
                          points: int) -> None:
        """A bird's result: written on it and added to its user's score (as a bird, not a
        hand) in the hand's rule set."""
        await self.exec("UPDATE birds SET seat = ?, points = ? WHERE hand_id = ? AND user_id = ?",
                        seat, points, hand_id, user_id)
        await self._add_score(chat_id, await self._hand_rule_set(hand_id), user_id, points,
                              birds=1)


    # --- votes and /notify ------------------------------------------------------------

    async def add_vote(self, table_id: int, kind: str, proposer: int) -> int:
        """A vote opened at the table; its id."""
        return await self.exec("INSERT INTO votes (table_id, kind, proposer) VALUES (?, ?, ?)",
                               table_id, kind, proposer)

    async def set_vote_msg(self, vote_id: int, msg_id: int) -> None:
        await self.exec("UPDATE votes SET msg_id = ? WHERE id = ?", msg_id, vote_id)

    async def drop_vote(self, vote_id: int) -> None:
        await self.exec("DELETE FROM votes WHERE id = ?", vote_id)

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        """/notify (``on``) or /notify off in a group."""
        if on:
            await self.exec("INSERT OR IGNORE INTO notify (chat_id, user_id) VALUES (?, ?)",
                            chat_id, user_id)
        else:
            await self.exec("DELETE FROM notify WHERE chat_id = ? AND user_id = ?",
                            chat_id, user_id)

    async def mark_notified(self, table_id: int, user_id: int) -> bool:
        """Note that the user is told of the table; False when he was already."""
        return bool(await self._changes(
            "INSERT OR IGNORE INTO notified (table_id, user_id) VALUES (?, ?)", table_id, user_id))


def _bird_row(r: aiosqlite.Row) -> BirdRow:
    return BirdRow(r["user_id"], str(r["name"]), r["seat"], r["points"])


def _table_row(r: aiosqlite.Row) -> TableRow:
    return TableRow(r["id"], r["chat_id"], r["opener_id"], r["status"], r["dealer"],
                    r["draws_in_row"], r["version"], r["base"], r["lobby_msg_id"],
                    r["rules"], r["timer"], r["thread_id"], r["match_hands"])


def _match_row(r: aiosqlite.Row) -> MatchRow:
    return MatchRow(r["id"], r["table_id"], r["hands"], r["status"], r["leaver"],
                    r["summary_msg_id"])
