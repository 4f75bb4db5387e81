"""What callers type against: a store of record (:class:`Store`), the writes of one of its
transactions (:class:`Tx`) and the reads that answer a command (:class:`Reads`), whatever
the backend.

The methods are documented where they are written once for every backend,
:class:`bot.store.reads.Queries` and :class:`bot.store.writes.Writes`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol

from bot.store.challenges import ChallengePlayerRow, ChallengeRow, ChallengeStore, ChallengeTx
from bot.store.club_scores import ClubRow, Season, Span, Voided
from bot.store.cups import CupRow, CupStore, CupTx
from bot.store.health import Health
from bot.store.posts import PostStore, PostTx
from bot.store.presses import PressStore, PressTx
from bot.store.rows import (
    QQ_ID,
    BirdRow,
    ClubSettings,
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
from bot.store.skill import ReviewedRow, SkillState, SkillStore, SkillTx, StoredRating


class Tx(ChallengeTx, CupTx, PostTx, PressTx, SkillTx, Protocol):
    """The writes inside one :meth:`Store.transaction`."""

    async def exec(self, sql: str, *args: object) -> int:
        ...

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        ...

    async def move_chat(self, old: int, new: int) -> None:
        ...

    async def create_table(self, chat_id: int, opener_id: int, base: int, rules: str = "qq",
                           timer: int | None = None, thread_id: int | None = None,
                           bot_id: int = 0, private: bool = False) -> int:
        ...

    async def seated_at(self, user_id: int) -> list[TableRow]:
        ...

    async def claim_tables(self, bot_id: int) -> int:
        ...

    async def lock_user(self, user_id: int) -> None:
        ...

    async def next_hand_no(self, chat_id: int) -> int:
        ...

    async def table_number(self, table_id: int) -> int:
        ...

    async def lock_chat(self, chat_id: int) -> None:
        ...

    async def update_table(self, table_id: int, **cols: object) -> None:
        ...

    async def update_hand(self, hand_id: int, **cols: object) -> None:
        ...

    async def create_match(self, table_id: int, hands: int) -> int:
        ...

    async def update_match(self, match_id: int, **cols: object) -> None:
        ...

    async def close_table(self, table_id: int, version: int) -> None:
        ...

    async def add_seat(self, table_id: int, seat: int, user_id: int) -> None:
        ...

    async def move_seat(self, table_id: int, seat: int, to: int) -> None:
        ...

    async def remove_seat(self, table_id: int, seat: int) -> None:
        ...

    async def update_seat(self, table_id: int, seat: int, **cols: object) -> None:
        ...

    async def reset_seats(self, table_id: int) -> None:
        ...

    async def create_hand(self, table_id: int, no: int, table_no: int, rule_set: str,
                          seed: int, dealer: int) -> int:
        ...

    async def append_action(self, hand_id: int, seat: int, action: str,
                            auto: bool = False) -> int:
        ...

    async def finish_hand(self, hand_id: int, chat_id: int, users: Sequence[int],
                          points: Sequence[int], winner: int | None,
                          counted: bool = True, zimo: bool = False,
                          huxi: int | None = None) -> None:
        ...

    async def toggle_bird(self, table_id: int, user_id: int) -> bool:
        ...

    async def deal_birds(self, table_id: int, hand_id: int, seated: Sequence[int],
                         allowed: bool) -> None:
        ...

    async def bird_users(self, hand_id: int) -> list[int]:
        ...

    async def settle_bird(self, hand_id: int, chat_id: int, user_id: int, seat: int | None,
                          points: int) -> None:
        ...

    async def add_vote(self, table_id: int, kind: str, proposer: int) -> int:
        ...

    async def drop_vote(self, vote_id: int) -> None:
        ...

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        ...

    async def mark_notified(self, table_id: int, user_id: int) -> bool:
        ...

    # a club's seasons and voids (bot.store.club_scores.ClubWrites)

    async def close_season(self, chat_id: int, by: int, name: str | None) -> Season | None:
        ...

    async def void_hand(self, hand_id: int, by: int, reason: str) -> Voided | None:
        ...


class Reads(Protocol):
    """The reads that answer a command (its handler's, :mod:`bot.commands`'): a store seen
    read-only. Every write goes through :class:`Settings` or the table room's services."""

    async def match(self, match_id: int) -> MatchRow | None:
        ...

    async def match_played(self, match_id: int) -> list[PlayedHand]:
        ...

    async def last_played_id(self, user_id: int) -> int | None:
        ...

    async def played_hand(self, hand_id: int) -> tuple[int, PlayedHand] | None:
        ...

    async def chat_timezone(self, chat_id: int) -> str | None:
        ...

    async def user(self, user_id: int) -> UserRow | None:
        ...

    async def hand_birds(self, hand_id: int) -> list[BirdRow]:
        ...

    async def season(self, chat_id: int, no: int | None = None) -> Season | None:
        ...

    async def club_stats(self, chat_id: int, span: Span, rule_set: str) -> list[ClubRow]:
        ...

    async def ranking(self, chat_id: int | None = None, limit: int = 10,
                      rule_set: str = QQ_ID) -> list[RankRow]:
        ...

    async def user_hands(self, user_id: int, rule_set: str, last: int) -> list[PlayedHand]:
        ...

    async def finished_hands(self, chat_id: int, limit: int) -> list[PlayedHand]:
        ...

    async def groups_of(self, user_id: int) -> set[int]:
        ...

    async def topic_names(self, chat_id: int) -> dict[int, str]:
        ...

    async def user_by_username(self, username: str) -> UserRow | None:
        ...

    async def table_at(self, chat_id: int, thread_id: int | None) -> TableRow | None:
        ...

    async def best_hand(self, user_id: int, rule_set: str = QQ_ID) -> PlayedHand | None:
        ...

    async def hand_in_chat(self, chat_id: int, no: int) -> tuple[int, str] | None:
        ...

    async def recent_points(self, user_ids: Sequence[int], rule_set: str,
                            chat_id: int | None = None, last: int = 20) -> dict[int, list[int]]:
        ...

    async def scores(self, user_id: int, chat_id: int | None = None) -> dict[str, Score]:
        ...

    async def season_ranking(self, chat_id: int, span: Span, rule_set: str,
                             limit: int = 10) -> list[RankRow]:
        ...

    async def season_recent(self, chat_id: int, span: Span, rule_set: str,
                            user_ids: list[int], last: int = 20) -> dict[int, list[int]]:
        ...

    async def open_cup(self, chat_id: int) -> CupRow | None:
        ...

    async def last_summary_match(self, user_id: int) -> int | None:
        ...

    async def user_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]:
        ...

    async def challenge_players(self, challenge_id: int) -> list[ChallengePlayerRow]:
        ...

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        ...

    async def skill_board(self, chat_id: int | None, rule_set: str, limit: int
                          ) -> list[StoredRating]:
        ...

    async def skill_ratings(self, rule_set: str, user_ids: list[int] | None = None
                            ) -> list[StoredRating]:
        ...

    async def season_reviews(self, chat_id: int, span: Span, rule_set: str
                             ) -> list[ReviewedRow]:
        ...


class Settings(Protocol):
    """What a command sets and keeps of a user, a group and its club: a user as last seen
    (name, language, whether he opened the bot), his own language and pings (/lang, /quiet),
    a group's language and time zone (/lang, /timezone), who is told of its tables
    (/notify), its pairs kept apart (/apart), its club settings (/club), its topics' names,
    and its club's records (/season new, /void): the store seen as a handler writes to it.
    Each write is one unit of work of the store's; a handler writes through here
    (``env.settings``), never through the whole store (``tests/test_transactions.py``)."""

    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None, dm_ok: bool = False) -> None:
        """The user as last seen (``dm_ok``: he opened the bot; once known, it stays)."""
        ...

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        """/lang zh|en privately: his own language from now on (a known user)."""
        ...

    async def set_quiet(self, user_id: int, quiet: bool) -> None:
        """/quiet (``quiet``) or /quiet off: his pings off or on (a known user)."""
        ...

    async def set_chat_lang(self, chat_id: int, lang: str, title: str | None = None) -> None:
        """The group's language (its title kept when given)."""
        ...

    async def set_chat_timezone(self, chat_id: int, zone: str) -> None:
        """/timezone: the group's time zone (an IANA name)."""
        ...

    async def subscribe(self, chat_id: int, user_id: int, on: bool) -> None:
        """/notify (``on``) or /notify off: whether the user is told of the group's tables."""
        ...

    async def set_topic_name(self, chat_id: int, thread_id: int, name: str) -> None:
        """A forum topic's name, kept for /tables."""
        ...

    async def apart_pairs(self, chat_id: int) -> list[tuple[int, int]]:
        """The group's pairs who never sit at one table of it (/apart)."""
        ...

    async def set_apart(self, chat_id: int, a: int, b: int, by: int, on: bool) -> bool:
        """/apart (``on``) or /apart off a pair; whether it changed anything."""
        ...

    async def club_settings(self, chat_id: int) -> ClubSettings:
        """The group's club settings (/club)."""
        ...

    async def set_club_settings(self, chat_id: int, by: int, settings: ClubSettings) -> None:
        """An admin's /club change."""
        ...

    async def close_season(self, chat_id: int, by: int, name: str | None) -> Season | None:
        """/season new: the group's season closed and the next opened; the closed one
        (None: no hand was dealt in it, and nothing changed)."""
        ...

    async def void_hand(self, hand_id: int, by: int, reason: str) -> Voided | None:
        """/void: a finished hand voided (None: not a finished hand, or void already;
        nothing changed)."""
        ...


class Store(Reads, Settings, ChallengeStore, CupStore, PostStore, PressStore, SkillStore, Protocol):
    """The store of record: every read, and the transactions that write."""

    health: Health  # whether its last call reached it (:mod:`bot.store.health`)

    @classmethod
    async def open(cls, where: Path | str) -> Store:
        """Open (creating and migrating as needed) the store at a SQLite path or a
        ``sqlite:///``/``postgresql://`` URL: :func:`bot.store.open_store`."""
        from bot.store.factory import open_store

        return await open_store(where)

    async def close(self) -> None:
        ...

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        ...

    async def schema_version(self) -> int:
        ...

    async def claim(self, bot_id: int, on_lost: Callable[[], None] = ...) -> bool:
        """Serve ``bot_id`` from this process alone: False when another process serves it.
        ``on_lost``: called if the claim is lost later (another process took it while this
        one's connection to the store was away); the process must then stop serving."""

    # whole tables, by the schema's names (copy-store, benchmarks)

    async def columns(self, table: str) -> list[str]:
        ...

    async def count(self, table: str) -> int:
        ...

    def dump(self, table: str, columns: Sequence[str],
             batch: int = 10_000) -> AsyncIterator[list[tuple[object, ...]]]:
        ...

    async def load(self, table: str, columns: Sequence[str],
                   rows: Iterable[Sequence[object]]) -> None:
        ...

    async def chat_lang(self, chat_id: int) -> str | None:
        ...

    async def open_tables(self, bot_id: int | None = None) -> list[TableRow]:
        ...

    async def seated_at(self, user_id: int) -> list[TableRow]:
        ...

    async def seats(self, table_id: int) -> list[SeatRow]:
        ...

    async def last_hand(self, table_id: int) -> HandRow | None:
        ...

    async def unposted_hands(self, bot_id: int | None = None) -> list[tuple[int, HandRow]]:
        ...

    async def table(self, table_id: int) -> TableRow | None:
        ...

    async def open_votes(self, bot_id: int | None = None) -> list[VoteRow]:
        ...

    async def absent_hands(self, table_id: int, user_id: int, last: int) -> int:
        ...

    async def subscribers(self, chat_id: int) -> list[int]:
        ...

    async def next_hand_no(self, chat_id: int) -> int:
        ...

    async def next_table_hand_no(self, table_id: int) -> int:
        ...

    async def table_totals(self, table_id: int) -> dict[int, int]:
        ...

    async def score(self, user_id: int, chat_id: int | None = None,
                    rule_set: str = QQ_ID) -> tuple[int, int, int]:
        ...

    async def waiting_birds(self, table_id: int) -> list[BirdRow]:
        ...

    async def running_match(self, table_id: int) -> MatchRow | None:
        ...

    async def unposted_matches(self, bot_id: int | None = None) -> list[MatchRow]:
        ...

    async def match_place(self, hand_id: int) -> tuple[int, int] | None:
        ...

    # a club's figures (bot.store.club_scores.ClubReads)

    async def seasons(self, chat_id: int) -> list[Season]:
        ...

    async def lang_choices(self) -> dict[int, str]:
        ...

    # units of work of their own (:mod:`bot.store.units`): the presenter's (set_post and the
    # presses' are in PostStore and PressStore) ...

    async def add_vote(self, table_id: int, kind: str, proposer: int) -> int:
        ...

    async def drop_vote(self, vote_id: int) -> None:
        ...

    async def mark_notified(self, table_id: int, user_id: int) -> bool:
        ...

    # ... and the table room's

    async def move_group(self, old: int, new: int, table_ids: Sequence[int]) -> None:
        ...

    async def claim_tables(self, bot_id: int) -> int:
        ...

    async def save_ratings_over(self, state: SkillState, rule_set: str,
                                ratings: list[tuple[int, float, float, int]],
                                keys: list[int]) -> bool:
        ...

    async def add_seat_review(self, hand_id: int, seat: int, user_id: int, decisions: int,
                              loss: float) -> None:
        ...

    # the club's (:mod:`bot.store.club`)

    async def apart_from(self, chat_id: int, user_id: int) -> set[int]:
        ...

    async def dissolve_asks(self, chat_id: int, user_id: int, since: str) -> int:
        ...

    async def add_dissolve_ask(self, chat_id: int, user_id: int) -> None:
        ...

