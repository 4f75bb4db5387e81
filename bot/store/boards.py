"""Leaderboards keep apart the hands whose points are not comparable (docs/club_scores.md).

A board is named by a rule set and the house rules (房规) of its hands that change what a hand's
points are: ``hunan``, ``hunan+起胡10+封顶100``. 起胡, 封顶, 名堂, 海底 and 自摸 each change who
may win or what a win costs, so a hand played under them counts on a board of its own; who
deals (开桌人庄, 不连庄) changes neither, so those hands count with the rule set's others. Seat
counts and two-seat options share their rule set's board, as they always have.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from engine.rules import (
    DEALER_OPENER,
    NO_STAYS,
    RULE_SETS,
    HouseRuleError,
    table_rules,
    with_house_rules,
)

SAME_POINTS = (DEALER_OPENER, NO_STAYS)  # house words that leave a hand's points comparable
SEP = "+"  # between a board's rule set and its words, as in a rules key


def board_of(key: str) -> str:
    """The board a hand of rules key ``key`` counts on (``hunan/3+起胡10+开桌人庄`` ->
    ``hunan+起胡10``)."""
    base, *words = key.split(SEP)
    return SEP.join([base.partition("/")[0], *(w for w in words if w not in SAME_POINTS)])


def board_rule_set(board: str) -> str:
    """The rule set id of a board."""
    return board.partition(SEP)[0]


def board_words(board: str) -> tuple[str, ...]:
    """The house words of a board (none for a rule set's own)."""
    return tuple(board.split(SEP)[1:])


@cache
def board_keys(board: str) -> tuple[str, ...]:
    """Every rules key whose hands count on ``board``: each table shape of its rule set with
    the board's house words and any of those that leave points comparable (a board of a rule
    set not offered: its own name)."""
    rule_id, *words = board.split(SEP)
    base = RULE_SETS.get(rule_id)
    if base is None:
        return (board,)
    keys: set[str] = set()
    for seats in base.seat_choices:
        for two_seat in (base.two_seat_choices if seats == 2 and base.two_seat_choices
                         else (None,)):
            shape = table_rules(rule_id, seats, two_seat)
            for n in range(len(SAME_POINTS) + 1):
                for extra in combinations(SAME_POINTS, n):
                    try:
                        key = with_house_rules(shape, [*words, *extra]).key
                    except HouseRuleError:
                        continue
                    if board_of(key) == board:  # a word at its default there is dropped
                        keys.add(key)
    return tuple(sorted(keys))


def in_board(column: str, board: str) -> tuple[str, tuple[str, ...]]:
    """The SQL condition that rules key ``column`` counts on ``board``, and its parameters."""
    keys = board_keys(board)
    return f"{column} IN ({','.join('?' * len(keys))})", keys
