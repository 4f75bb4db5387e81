"""The store of record, behind the :class:`Store` and :class:`Tx` protocols.

Everything a restart needs is here: open tables (with their rules key, 底分 and decision
timer) and their seats, each hand's rule set, seed and dealer, and the **append-only** action
log (the schema refuses UPDATE and DELETE on it) from which ``Hand.replay`` rebuilds a running
hand. Writes go through :meth:`Store.transaction`, which commits or rolls back as a whole.

Layout: :mod:`.rows` (what reads return), :mod:`.protocols` (what callers type against),
:mod:`.reads` and :mod:`.writes` (the SQL, once for every backend), :mod:`.schema` and
``migrations/`` (the schema, one ``.sql`` file per migration), the backends :mod:`.sqlite`
(the default, one file) and :mod:`.postgres` (``DATABASE_URL``, shared by several bots),
:mod:`.factory` (which backend a path or URL names), :mod:`.copy` (``copy-store``) and
:mod:`.health` (what a backend raises when the store cannot take a call now, said once).
"""

from bot.store.boards import board_of, board_rule_set, board_words
from bot.store.club_scores import ClubRow, Season, Span, Voided
from bot.store.factory import open_store
from bot.store.health import StoreBusy, StoreUnavailable
from bot.store.opening import StoreUnusable
from bot.store.protocols import Reads, Settings, Store, Tx
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
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION
from bot.store.writes import PlaceTaken

__all__ = [
    "ClubSettings",
    "MIGRATIONS",
    "QQ_ID",
    "SCHEMA_VERSION",
    "BirdRow",
    "ClubRow",
    "HandRow",
    "MatchRow",
    "PlaceTaken",
    "PlayedHand",
    "RankRow",
    "Reads",
    "Settings",
    "Score",
    "Season",
    "SeatRow",
    "Span",
    "Store",
    "StoreBusy",
    "StoreUnavailable",
    "StoreUnusable",
    "TableRow",
    "Tx",
    "UserRow",
    "VoteRow",
    "Voided",
    "board_of",
    "board_rule_set",
    "board_words",
    "open_store",
]
