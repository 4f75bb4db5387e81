"""Several bots on one store: each table is its bot's (the store keeps the bot's id with it,
and each process loads and serves only its own bot's tables, :mod:`bot.table.registry`),
while players, their seats and their records are shared. A player sits at one table at a
time across all bots, which only the store can tell: it is checked in the transaction that
seats him, under his seat lock (:meth:`bot.store.writes.Writes.seated_at`). A group's topic
holds one open table, of whichever bot opened it first; another bot in the same group leaves
that table's commands to it (``served_elsewhere``: the caller stays quiet).
"""

from __future__ import annotations

from bot.store import PlaceTaken, Reads, Tx
from bot.table.model import Refusal
from engine.rules import RuleSet

ELSEWHERE = "served_elsewhere"  # the refusal of a command another bot's table answers


async def check_seat_free(tx: Tx, user_id: int) -> None:
    """Refuse to seat a user who sits at an open table of any bot (this one's included:
    callers check their own tables in memory first, and this is the check that holds when
    another process seats him at the same moment)."""
    if await tx.seated_at(user_id):
        raise Refusal("seated_elsewhere")


async def check_place_free(store: Reads, bot_id: int, chat_id: int,
                           thread_id: int | None) -> None:
    """Refuse (quietly) a command at a group's topic whose open table is another bot's."""
    row = await store.table_at(chat_id, thread_id)
    if row is not None and row.bot_id != bot_id:
        raise Refusal(ELSEWHERE)


async def create_table(tx: Tx, bot_id: int, chat_id: int, opener_id: int, rules: RuleSet,
                       thread_id: int | None, *, seated: bool = True,
                       private: bool = False) -> int:
    """A new table of ``bot_id`` at a group's topic, its opener free to sit there; a topic
    given a table meanwhile is refused ``table_exists`` if the table is this bot's, quietly
    if another bot's (both bots read the same /new: the one that came second). The place
    is taken first, so that the second bot stays quiet even though its opener now sits at
    the first bot's table; a refused seat rolls the table back with the transaction. The
    opener of a standing table (not ``seated``) may sit anywhere. A ``private`` table takes
    no place (:class:`bot.table.model.Table`)."""
    try:
        table_id = await tx.create_table(chat_id, opener_id, rules.default_base, rules.key,
                                         thread_id=thread_id, bot_id=bot_id, private=private)
    except PlaceTaken as taken:
        raise Refusal("table_exists" if taken.bot_id == bot_id else ELSEWHERE) from None
    if seated:
        await check_seat_free(tx, opener_id)
    return table_id
