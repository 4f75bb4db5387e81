"""The store's part for 复式挑战 (duplicate challenges, :mod:`bot.table.challenges`): its rows,
reads and writes, mixed into :class:`bot.store.reads.Queries` and
:class:`bot.store.writes.Writes` (SQL once for every backend, ``?`` parameters).

A participant's moves are only his own decisions: the computer players' follow from them,
so replaying the moves rebuilds his game exactly (after a restart too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.store.conn import Conn, Row


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    chat_id: int
    thread_id: int | None
    opener_id: int
    rules: str  # a RuleSet.key
    seeds: tuple[int, ...]  # one per deal
    deadline: float  # epoch seconds
    status: str  # open, done


@dataclass(frozen=True)
class ChallengePlayerRow:
    user_id: int
    name: str
    lang: str
    status: str  # playing, done, left
    joined_at: float


@dataclass(frozen=True)
class ChallengeMove:
    deal: int
    seq: int  # his decisions in the deal, from 0
    action: str
    off: bool  # not the strong computer player's choice


def _challenge(r: Row) -> ChallengeRow:
    return ChallengeRow(r["id"], r["chat_id"], r["thread_id"], r["opener_id"], r["rules"],
                        tuple(int(s) for s in str(r["seeds"]).split(",")), float(r["deadline"]),
                        r["status"])


class ChallengeReads:
    """The reads; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._conn.one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else _challenge(row)

    async def open_challenge(self, chat_id: int) -> ChallengeRow | None:
        """The group's open challenge, if any (one at most: ``one_open_challenge``)."""
        row = await self._conn.one(
            "SELECT * FROM challenges WHERE chat_id = ? AND status = 'open'", (chat_id,))
        return None if row is None else _challenge(row)

    async def open_challenges(self, bot_id: int) -> list[ChallengeRow]:
        rows = await self._conn.all(
            "SELECT * FROM challenges WHERE status = 'open' AND bot_id = ? ORDER BY id",
            (bot_id,))
        return [_challenge(r) for r in rows]

    async def unposted_challenges(self, bot_id: int) -> list[ChallengeRow]:
        """Challenges ended whose final card is not in their group yet."""
        rows = await self._conn.all(
            "SELECT * FROM challenges WHERE status = 'done' AND bot_id = ? AND NOT EXISTS ("
            "SELECT 1 FROM posts p WHERE p.slot = 'challenge_final'"
            " AND p.key_id = challenges.id) ORDER BY id", (bot_id,))
        return [_challenge(r) for r in rows]

    async def user_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]:
        """The open challenges of the groups the user has played in (at a table or in a
        challenge), newest first."""
        rows = await self._conn.all(
            "SELECT c.* FROM challenges c WHERE c.status = 'open' AND c.chat_id IN ("
            " SELECT h.chat_id FROM results r JOIN hands h ON h.id = r.hand_id"
            " WHERE r.user_id = ? UNION SELECT c2.chat_id FROM challenge_players p"
            " JOIN challenges c2 ON c2.id = p.challenge_id WHERE p.user_id = ?)"
            " ORDER BY c.id DESC LIMIT ?", (user_id, user_id, limit))
        return [_challenge(r) for r in rows]

    async def last_summary_match(self, user_id: int) -> int | None:
        """The last match with a posted 总结算 that the user played in (for his share
        cards, ``bot.telegram.inline``)."""
        row = await self._conn.one(
            "SELECT MAX(h.match_id) AS id FROM results r JOIN hands h ON h.id = r.hand_id"
            " JOIN matches m ON m.id = h.match_id WHERE r.user_id = ?"
            " AND m.summary_msg_id IS NOT NULL", (user_id,))
        return None if row is None or row["id"] is None else int(row["id"])

    async def challenge_players(self, challenge_id: int) -> list[ChallengePlayerRow]:
        rows = await self._conn.all(
            "SELECT * FROM challenge_players WHERE challenge_id = ? ORDER BY joined_at, user_id",
            (challenge_id,))
        return [ChallengePlayerRow(r["user_id"], r["name"], r["lang"], r["status"],
                                   float(r["joined_at"])) for r in rows]

    async def challenge_moves(self, challenge_id: int, user_id: int) -> list[ChallengeMove]:
        rows = await self._conn.all(
            "SELECT deal, seq, action, off FROM challenge_moves"
            " WHERE challenge_id = ? AND user_id = ? ORDER BY deal, seq", (challenge_id, user_id))
        return [ChallengeMove(r["deal"], r["seq"], r["action"], bool(r["off"])) for r in rows]

    async def playing_challenge(self, user_id: int) -> int | None:
        """The open challenge the user is playing now, if any."""
        row = await self._conn.one(
            "SELECT p.challenge_id AS id FROM challenge_players p JOIN challenges c"
            " ON c.id = p.challenge_id WHERE p.user_id = ? AND p.status = 'playing'"
            " AND c.status = 'open'", (user_id,))
        return None if row is None else int(row["id"])


class ChallengeWrites:
    """The writes of one transaction; the host class holds the connection (``_conn``)."""

    _conn: Conn

    async def add_challenge(self, bot_id: int, chat_id: int, thread_id: int | None,
                            opener_id: int, rules: str, seeds: Sequence[int], deadline: float,
                            at: float) -> int:
        return await self._conn.insert(
            "INSERT INTO challenges (bot_id, chat_id, thread_id, opener_id, rules, seeds,"
            " deadline, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (bot_id, chat_id, thread_id, opener_id, rules, ",".join(map(str, seeds)), deadline,
             at))

    async def move_challenges(self, old: int, new: int) -> None:
        """A group upgraded to a supergroup: its challenges move with it."""
        await self._conn.run("UPDATE challenges SET chat_id = ? WHERE chat_id = ?", (new, old))

    async def end_challenge(self, challenge_id: int) -> bool:
        """Close it; False when it was closed already."""
        return await self._conn.run(
            "UPDATE challenges SET status = 'done' WHERE id = ? AND status = 'open'",
            (challenge_id,)) > 0

    async def add_challenge_player(self, challenge_id: int, user_id: int, name: str, lang: str,
                                   at: float) -> None:
        await self._conn.run(
            "INSERT INTO challenge_players (challenge_id, user_id, name, lang, joined_at)"
            " VALUES (?, ?, ?, ?, ?)", (challenge_id, user_id, name, lang, at))

    async def set_challenge_player(self, challenge_id: int, user_id: int, *,
                                   status: str) -> None:
        await self._conn.run(
            "UPDATE challenge_players SET status = ? WHERE challenge_id = ? AND user_id = ?",
            (status, challenge_id, user_id))

    async def add_challenge_move(self, challenge_id: int, user_id: int, move: ChallengeMove
                                 ) -> None:
        await self._conn.run(
            "INSERT INTO challenge_moves (challenge_id, user_id, deal, seq, action, off)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (challenge_id, user_id, move.deal, move.seq, move.action, int(move.off)))


class ChallengeStore(Protocol):
    """What :class:`bot.store.Store` offers for challenges (see :class:`ChallengeReads`)."""

    async def challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    async def open_challenge(self, chat_id: int) -> ChallengeRow | None: ...
    async def open_challenges(self, bot_id: int) -> list[ChallengeRow]: ...
    async def unposted_challenges(self, bot_id: int) -> list[ChallengeRow]: ...
    async def user_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]: ...
    async def last_summary_match(self, user_id: int) -> int | None: ...
    async def challenge_players(self, challenge_id: int) -> list[ChallengePlayerRow]: ...
    async def challenge_moves(self, challenge_id: int, user_id: int) -> list[ChallengeMove]: ...
    async def playing_challenge(self, user_id: int) -> int | None: ...
    # units of work of their own (bot.store.units)
    async def add_challenge(self, bot_id: int, chat_id: int, thread_id: int | None,
                            opener_id: int, rules: str, seeds: Sequence[int], deadline: float,
                            at: float) -> int: ...
    async def end_challenge(self, challenge_id: int) -> bool: ...
    async def add_challenge_player(self, challenge_id: int, user_id: int, name: str, lang: str,
                                   at: float) -> None: ...
    async def set_challenge_player(self, challenge_id: int, user_id: int, *,
                                   status: str) -> None: ...
    async def add_challenge_move(self, challenge_id: int, user_id: int, move: ChallengeMove,
                                 status: str | None = None) -> None: ...


class ChallengeTx(Protocol):
    """What :class:`bot.store.Tx` offers for challenges (see :class:`ChallengeWrites`)."""

    async def add_challenge(self, bot_id: int, chat_id: int, thread_id: int | None,
                            opener_id: int, rules: str, seeds: Sequence[int], deadline: float,
                            at: float) -> int: ...
    async def move_challenges(self, old: int, new: int) -> None: ...
    async def end_challenge(self, challenge_id: int) -> bool: ...
    async def add_challenge_player(self, challenge_id: int, user_id: int, name: str, lang: str,
                                   at: float) -> None: ...
    async def set_challenge_player(self, challenge_id: int, user_id: int, *,
                                   status: str) -> None: ...
    async def add_challenge_move(self, challenge_id: int, user_id: int,
                                 move: ChallengeMove) -> None: ...
