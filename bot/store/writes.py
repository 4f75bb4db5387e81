"""The store's writes, written once for every backend over a :class:`bot.store.conn.Conn`:
what one transaction (:meth:`bot.store.Store.transaction`) may do."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.boards import board_of
from bot.store.challenges import ChallengeWrites
from bot.store.club_scores import ClubWrites
from bot.store.conn import Conn, Row, now
from bot.store.cups import CupWrites
from bot.store.posts import PostWrites
from bot.store.presses import PressWrites
from bot.store.rows import TableRow
from bot.store.skill import SkillWrites

# The open tables, of any bot, where a user has a seat (``seats_by_user``).
SEATED_AT = ("SELECT t.* FROM seats s JOIN tables t ON t.id = s.table_id"
             " WHERE s.user_id = ? AND t.status != 'closed' ORDER BY t.id")
# The open table, of any bot, of a group's topic (``one_open_table_per_topic``).
TABLE_AT = ("SELECT * FROM tables WHERE chat_id = ? AND COALESCE(thread_id, 0) = ?"
            " AND status != 'closed' AND private = 0")


class PlaceTaken(Exception):
    """A group's topic has an open table already, maybe another bot's (its ``bot_id``)."""

    def __init__(self, bot_id: int) -> None:
        super().__init__(f"the place has an open table of bot {bot_id}")
        self.bot_id = bot_id


class Writes(ChallengeWrites, ClubWrites, CupWrites, PostWrites, PressWrites, SkillWrites):
    """The writes of one transaction (:class:`bot.store.Tx`), on its backend's connection."""

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    async def exec(self, sql: str, *args: object) -> int:
        """Run a write (``?`` parameters); the number of rows it changed."""
        return await self._conn.run(sql, args)

    async def _insert(self, sql: str, *args: object) -> int:
        return await self._conn.insert(sql, args)

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        await self.exec(
            "INSERT INTO users (user_id, name, username, lang, dm_ok) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " username = COALESCE(excluded.username, users.username),"
            " lang = COALESCE(users.lang_choice, excluded.lang, users.lang),"
            " dm_ok = CASE WHEN excluded.dm_ok > users.dm_ok THEN excluded.dm_ok"
            " ELSE users.dm_ok END, seen_at = excluded.seen_at",
            user_id, name, username, lang, int(dm_ok))

    async def move_chat(self, old: int, new: int) -> None:
        """A group upgraded to a supergroup (``old`` id -> ``new`` id): its tables (and so
        their hands, history and hand numbers), its leaderboard and its settings move to the
        new id; scores the new id already holds are added up."""
        await self.exec("UPDATE tables SET chat_id = ? WHERE chat_id = ?", new, old)
        await self.exec("UPDATE hands SET chat_id = ? WHERE chat_id = ?", new, old)
        await self.move_challenges(old, new)
        await self.move_cups(old, new)
        await self.exec("INSERT INTO notify (chat_id, user_id) SELECT CAST(? AS BIGINT), user_id"
                        " FROM notify WHERE chat_id = ? ON CONFLICT DO NOTHING", new, old)
        await self.exec("DELETE FROM notify WHERE chat_id = ?", old)
        await self.exec("INSERT INTO apart (chat_id, user_lo, user_hi, set_by) SELECT"
                        " CAST(? AS BIGINT), user_lo, user_hi, set_by FROM apart"
                        " WHERE chat_id = ? ON CONFLICT DO NOTHING", new, old)
        await self.exec("DELETE FROM apart WHERE chat_id = ?", old)
        await self.exec("UPDATE seasons SET chat_id = ? WHERE chat_id = ?", new, old)
        await self.exec("INSERT INTO chat_timezones (chat_id, zone) SELECT CAST(? AS BIGINT),"
                        " zone FROM chat_timezones WHERE chat_id = ? ON CONFLICT DO NOTHING",
                        new, old)
        await self.exec("DELETE FROM chat_timezones WHERE chat_id = ?", old)
        await self.exec("UPDATE topic_names SET chat_id = ? WHERE chat_id = ?", new, old)
        await self.exec(
            "INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins, birds)"
            " SELECT CAST(? AS BIGINT), rule_set, user_id, points, hands, wins, birds FROM scores"
            " WHERE chat_id = ? ON CONFLICT (chat_id, rule_set, user_id) DO UPDATE SET"
            " points = scores.points + excluded.points, hands = scores.hands + excluded.hands,"
            " wins = scores.wins + excluded.wins, birds = scores.birds + excluded.birds", new, old)
        await self.exec("DELETE FROM scores WHERE chat_id = ?", old)
        await self.exec("INSERT INTO chats (chat_id, title, lang)"
                        " SELECT CAST(? AS BIGINT), title, lang"
                        " FROM chats WHERE chat_id = ? ON CONFLICT (chat_id) DO NOTHING",
                        new, old)
        await self.exec("DELETE FROM chats WHERE chat_id = ?", old)

    async def create_table(self, chat_id: int, opener_id: int, base: int, rules: str = "qq",
                           timer: int | None = None, thread_id: int | None = None,
                           bot_id: int = 0, private: bool = False) -> int:
        """A new table in its lobby, owned by ``bot_id`` (0: a store one bot serves alone),
        numbered after the group's other tables (its ``no``: 第 1 桌 is a group's first).
        Raises :class:`PlaceTaken` when the topic has an open table already: two bots in one
        group both read the same /new, and the one whose insert comes second (on
        PostgreSQL it waits on the unique index for the first to commit) inserts nothing.
        A ``private`` table (played in its players' private chats) takes no place."""
        await self.lock_chat(chat_id)  # its number: two bots opening tables at once
        if private:
            return await self._insert(
                "INSERT INTO tables (chat_id, opener_id, status, base, rules, timer, thread_id,"
                " bot_id, no, private) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?,"
                " (SELECT COALESCE(MAX(no), 0) + 1 FROM tables WHERE chat_id = ?), 1)",
                chat_id, opener_id, base, rules, timer, thread_id, bot_id, chat_id)
        if not await self.exec(
                "INSERT INTO tables (chat_id, opener_id, status, base, rules, timer, thread_id,"
                " bot_id, no) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?,"
                " (SELECT COALESCE(MAX(no), 0) + 1 FROM tables WHERE chat_id = ?))"
                " ON CONFLICT DO NOTHING",
                chat_id, opener_id, base, rules, timer, thread_id, bot_id, chat_id):
            taken = await self._conn.one(TABLE_AT, (chat_id, thread_id or 0))
            raise PlaceTaken(taken["bot_id"] if taken is not None else bot_id)
        row = await self._conn.one(TABLE_AT, (chat_id, thread_id or 0))
        assert row is not None
        return int(row["id"])

    async def claim_tables(self, bot_id: int) -> int:
        """The tables no bot owns yet (``bot_id`` 0: a store one bot served before tables
        named their bot) become ``bot_id``'s; how many."""
        return await self.exec("UPDATE tables SET bot_id = ? WHERE bot_id = 0", bot_id)

    async def lock_user(self, user_id: int) -> None:
        """Hold the user's seat lock to the end of the transaction, so that no other process
        seats him meanwhile. SQLite's transactions exclude each other whole already;
        PostgreSQL's store takes an advisory lock (:class:`bot.store.postgres.PostgresWrites`)."""

    async def seated_at(self, user_id: int) -> list[TableRow]:
        """The open tables, of any bot, where the user has a seat, as this transaction sees
        them, holding his seat lock (:meth:`lock_user`) from here on: check it in the
        transaction that seats him, and no other bot seats him before it commits."""
        await self.lock_user(user_id)
        return [table_row(r) for r in await self._conn.all(SEATED_AT, (user_id,))]

    async def next_hand_no(self, chat_id: int) -> int:
        """The number of a group's next hand (1, 2, 3… over all its tables, of every bot),
        holding the group's lock to the end of the transaction (:meth:`lock_chat`), so that
        two bots dealing in one group's topics at once never draw the same number."""
        await self.lock_chat(chat_id)
        row = await self._conn.one(
            "SELECT COALESCE(MAX(no), 0) + 1 AS n FROM hands WHERE chat_id = ?", (chat_id,))
        assert row is not None
        return int(row["n"])

    async def table_number(self, table_id: int) -> int:
        """A table's number in its group (第 n 桌)."""
        row = await self._conn.one("SELECT no FROM tables WHERE id = ?", (table_id,))
        assert row is not None, f"no table {table_id}"
        return int(row["no"])

    async def lock_chat(self, chat_id: int) -> None:
        """Hold the group's hand-number lock to the end of the transaction (as
        :meth:`lock_user`: nothing to do on SQLite)."""

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
        return await self._insert("INSERT INTO matches (table_id, hands) VALUES (?, ?)",
                               table_id, hands)

    async def update_match(self, match_id: int, **cols: object) -> None:
        await self._update("matches", {"id": match_id}, cols)

    async def close_table(self, table_id: int, version: int) -> None:
        await self.exec("UPDATE tables SET status = 'closed', version = ?, closed_at = ?"
                        " WHERE id = ?", version, now(), table_id)
        await self.exec("UPDATE hands SET status = 'aborted', ended_at = ? WHERE table_id = ?"
                        " AND status = 'running'", now(), table_id)

    async def add_seat(self, table_id: int, seat: int, user_id: int) -> None:
        await self.exec("INSERT INTO seats (table_id, seat, user_id) VALUES (?, ?, ?)",
                        table_id, seat, user_id)

    async def move_seat(self, table_id: int, seat: int, to: int) -> None:
        """Seat ``seat``'s player at the free seat ``to`` (a lobby shrinking to fewer seats)."""
        await self.exec("UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ?",
                        to, table_id, seat)

    async def remove_seat(self, table_id: int, seat: int) -> None:
        await self.exec("DELETE FROM seats WHERE table_id = ? AND seat = ?", table_id, seat)

    async def update_seat(self, table_id: int, seat: int, **cols: object) -> None:
        await self._update("seats", {"table_id": table_id, "seat": seat}, cols)

    async def reset_seats(self, table_id: int) -> None:
        """A new hand: nobody is ready or in 托管; the old hand message is left behind (the
        last ping is kept, so the next one deletes it)."""
        await self.exec("UPDATE seats SET ready = 0, autoplay = 0, hand_msg_id = NULL"
                        " WHERE table_id = ?", table_id)

    async def create_hand(self, table_id: int, no: int, table_no: int, rule_set: str,
                          seed: int, dealer: int) -> int:
        """A running hand: ``no`` its group's number (its id for /replay N), ``table_no``
        its table's (what players read)."""
        return await self._insert(
            "INSERT INTO hands (table_id, chat_id, no, table_no, rule_set, seed, dealer, status)"
            " VALUES (?, (SELECT chat_id FROM tables WHERE id = ?), ?, ?, ?, ?, ?, 'running')",
            table_id, table_id, no, table_no, rule_set, str(seed), dealer)

    async def append_action(self, hand_id: int, seat: int, action: str,
                            auto: bool = False) -> int:
        """Append a move to the hand's log under the next sequence number the store holds
        (so the log has no hole whatever the caller believes); returns that number."""
        row = await self._conn.one(  # one statement: every move's transaction runs it
            "INSERT INTO actions (hand_id, seq, seat, action, auto) VALUES (?, (SELECT"
            " COALESCE(MAX(seq), -1) + 1 FROM actions WHERE hand_id = ?), ?, ?, ?)"
            " RETURNING seq", (hand_id, hand_id, seat, action, int(auto)))
        assert row is not None
        return int(row["seq"])

    async def finish_hand(self, hand_id: int, chat_id: int, users: Sequence[int],
                          points: Sequence[int], winner: int | None,
                          counted: bool = True, zimo: bool = False,
                          huxi: int | None = None) -> None:
        """Record a finished hand: per-seat results, its win (``zimo``, ``huxi``: what /stats
        reads) and the chat's score table of the hand's rule set (a hand not ``counted``, one
        dissolved by vote, adds no hand played)."""
        await self.exec("UPDATE hands SET status = 'done', winner = ?, ended_at = ?, zimo = ?,"
                        " huxi = ?, dissolved = ? WHERE id = ?",
                        winner, now(), int(zimo), huxi, int(not counted), hand_id)
        rule_set = await self._hand_rule_set(hand_id)
        for seat, (user_id, p) in enumerate(zip(users, points, strict=True)):
            await self.exec("INSERT INTO results (hand_id, seat, user_id, points)"
                            " VALUES (?, ?, ?, ?)", hand_id, seat, user_id, p)
            await self._add_score(chat_id, rule_set, user_id, p, hands=int(counted),
                                  wins=int(seat == winner))

    async def _hand_rule_set(self, hand_id: int) -> str:
        row = await self._conn.one("SELECT rule_set FROM hands WHERE id = ?", (hand_id,))
        assert row is not None, f"unknown hand {hand_id}"
        return board_of(row["rule_set"])

    async def _add_score(self, chat_id: int, rule_set: str, user_id: int, points: int, *,
                         hands: int = 0, wins: int = 0, birds: int = 0) -> None:
        await self.exec(
            "INSERT INTO scores (chat_id, rule_set, user_id, points, hands, wins, birds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, rule_set, user_id) DO UPDATE SET"
            " points = scores.points + excluded.points, hands = scores.hands + excluded.hands,"
            " wins = scores.wins + excluded.wins, birds = scores.birds + excluded.birds",
            chat_id, rule_set, user_id, points, hands, wins, birds)

    # --- birds (打鸟) ---------------------------------------------------------------------

    async def toggle_bird(self, table_id: int, user_id: int) -> bool:
        """Place the user's bird on the table's next deal, or withdraw it if placed; True
        when it is placed now."""
        if await self.exec("DELETE FROM birds WHERE table_id = ? AND user_id = ?"
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
        rows = await self._conn.all("SELECT user_id FROM birds WHERE hand_id = ? ORDER BY id",
                                    (hand_id,))
        return [r["user_id"] for r in rows]

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
        return await self._insert("INSERT INTO votes (table_id, kind, proposer) VALUES (?, ?, ?)",
                               table_id, kind, proposer)

    async def drop_vote(self, vote_id: int) -> None:
        await self.exec("DELETE FROM votes WHERE id = ?", vote_id)

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        """/notify (``on``) or /notify off in a group."""
        if on:
            await self.exec("INSERT INTO notify (chat_id, user_id) VALUES (?, ?)"
                            " ON CONFLICT DO NOTHING", chat_id, user_id)
        else:
            await self.exec("DELETE FROM notify WHERE chat_id = ? AND user_id = ?",
                            chat_id, user_id)

    async def mark_notified(self, table_id: int, user_id: int) -> bool:
        """Note that the user is told of the table; False when he was already."""
        return bool(await self.exec("INSERT INTO notified (table_id, user_id) VALUES (?, ?)"
                                    " ON CONFLICT DO NOTHING", table_id, user_id))


def table_row(r: Row) -> TableRow:
    return TableRow(r["id"], r["chat_id"], r["opener_id"], r["status"], r["dealer"],
                    r["draws_in_row"], r["version"], r["base"], r["rules"], r["timer"],
                    r["thread_id"], r["match_hands"], r["bot_id"], r["robot_level"],
                    bool(r["standing"]), r["no"], bool(r["private"]))
