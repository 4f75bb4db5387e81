"""The tables: lobby, seating, hands and actions, with the database as the store of record.
No Telegram here.

- :mod:`bot.table.model` — the records (``Table``, ``Player``, ``HandRecord``, ``Match``,
  ``Decision``), the statuses (``TableStatus``, ``HandStatus``, ``MatchStatus``,
  ``ChallengeStatus``, ``EntrantStatus``, ``CupStatus``), ``Refusal`` and the ``Observer``
  protocol;
- :mod:`bot.table.registry` — the open tables in memory: cache, load, lookup, chat moves;
- :mod:`bot.table.work` — the unit of work every change goes through;
- :mod:`bot.table.lobby`, :mod:`bot.table.play`, :mod:`bot.table.matches` — the rules of
  each change; :mod:`bot.table.clock` — deadlines; :mod:`bot.table.birds` (打鸟),
  :mod:`bot.table.votes`, :mod:`bot.table.notify` — the rules of those;
  :mod:`bot.table.robots` — computer players and 托管;
- :mod:`bot.table.service` — ``TableService``, what callers hold.
"""

from bot.table.model import (
    ABSENT_HANDS,
    BASES,
    DEFAULT_RULES,
    MATCHES,
    SLOW,
    SLOW_TIMEOUT,
    TIMERS,
    ChallengeStatus,
    CupStatus,
    Decision,
    EntrantStatus,
    HandRecord,
    HandStatus,
    Match,
    MatchStatus,
    Observer,
    Person,
    Place,
    Player,
    PressAnswer,
    Refusal,
    Table,
    TableStatus,
)
from bot.table.robots import LEVELS
from bot.table.service import TableService

__all__ = [
    "ABSENT_HANDS", "BASES", "DEFAULT_RULES", "LEVELS", "MATCHES", "SLOW", "SLOW_TIMEOUT",
    "TIMERS",
    "ChallengeStatus", "CupStatus", "Decision", "EntrantStatus", "HandRecord", "HandStatus",
    "Match", "MatchStatus", "Observer", "Person", "Place", "Player", "PressAnswer", "Refusal",
    "Table", "TableService", "TableStatus",
]
