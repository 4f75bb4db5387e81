"""群杯 (a group cup), without Telegram and without the store: its sign-up list, the draw of
the first round's seats from a committed seed, 节分 and the Swiss re-seating of the next
rounds, and the standings.

A cup's state is one JSON document (:meth:`Cup.dumps`), written whole with each change. The
draw is :func:`draw`: the sign-up list in order, shuffled by ``random.Random(seed)``; the
seed's SHA-256 is shown from the sign-up on and the seed itself on the final card, so
anyone can replay the draw. After a round each table's seats get 节分 by place (3, 2, 1,
then 0; equal points share the better place); the standings go by 节分, then points, then
the 节分 of one's opponents, and players equal in all three share a place. The next round
seats the players by standings table by table, then swaps seats while that lowers a cost
(:func:`swiss_tables`: nobody alone with computer players twice, no pair again, the
standings otherwise), so it follows from the results alone. Computer players fill the
empty seats; they have no place in the standings.
Either way, :func:`keep_apart` then parts any pair an admin keeps apart (/apart) by swaps
that follow from the seats alone, so the draw stays checkable from the seed: the first
round's swaps are kept (``Cup.swaps``) for the final card's proof.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, replace

from engine.standings import places

MAX_PLAYERS = 36  # a cup's sign-up list is full at this many
ROUNDS = range(1, 9)  # 轮数 a cup may have
HANDS = range(1, 9)  # 每轮局数


@dataclass
class Entrant:
    id: int
    name: str
    lang: str
    left: bool = False  # he left: a computer player took his seat, he keeps what he scored


@dataclass
class CupTable:
    """One table of a round: its number, its table (once opened), the users seated at its
    seats (None: a computer player) and, once its hands are played, each user's points."""

    no: int
    seats: list[int | None]
    table_id: int | None = None
    points: dict[str, int] | None = None  # by str(user id): JSON keys are strings


@dataclass
class Cup:
    rules: str  # a RuleSet.key
    seats: int  # seats a table has
    rounds: int
    hands: int  # per round
    seed: int
    players: list[Entrant] = field(default_factory=list)
    tables: list[list[CupTable]] = field(default_factory=list)  # by round
    topics: dict[str, int] = field(default_factory=dict)  # forum topic by str(table no)
    # its tables play in the players' private chats (no topics to be had): the group sees
    # only the cup's cards, and every entrant must have opened the bot
    private: bool = False
    # the first round's swaps for /apart (keep_apart): positions in the draw's order
    swaps: list[list[int]] = field(default_factory=list)
    # ended by /cup cancel before its last round: what its tables played counts
    cancelled: bool = False

    def dumps(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> Cup:
        raw = json.loads(text)
        raw["players"] = [Entrant(**p) for p in raw["players"]]
        raw["tables"] = [[CupTable(**t) for t in rnd] for rnd in raw["tables"]]
        return cls(**raw)

    @property
    def round(self) -> int:
        """The round in play (or just played), from 1; 0 before the start."""
        return len(self.tables)

    def entrant(self, user_id: int) -> Entrant | None:
        return next((p for p in self.players if p.id == user_id), None)

    def round_done(self) -> bool:
        return bool(self.tables) and all(t.points is not None for t in self.tables[-1])

    def table_of(self, table_id: int) -> CupTable | None:
        if not self.tables:
            return None
        return next((t for t in self.tables[-1] if t.table_id == table_id), None)


def commitment(seed: int) -> str:
    """What the sign-up card shows: the SHA-256 of the seed written in decimal."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def draw(seed: int, user_ids: list[int]) -> list[int]:
    """The first round's order: the sign-up order shuffled by the seed."""
    order = list(user_ids)
    random.Random(seed).shuffle(order)
    return order


def seat_tables(order: list[int], seats: int) -> list[CupTable]:
    """The players in ``order`` table by table; computer players fill the last one."""
    tables: list[CupTable] = []
    for k in range(0, len(order), seats):
        chunk: list[int | None] = list(order[k:k + seats])
        tables.append(CupTable(len(tables) + 1, chunk + [None] * (seats - len(chunk))))
    return tables


def jie(points: dict[str, int], user_id: int, seats: int) -> int:
    """节分 at one table: 3 for the first place, 2, 1, then 0; equal points share the better
    place (computer players take places too)."""
    mine = points[str(user_id)]
    place = sum(1 for p in points.values() if p > mine)
    return max(0, min(3, seats) - place)


@dataclass(frozen=True)
class Standing:
    player: Entrant
    jie: int
    points: int
    results: tuple[tuple[int, int] | None, ...]  # (节分, points) by round; None: not seated
    # the tie-break (Buchholz): the sum of the 节分 of everyone he sat with, each counted
    # once per round they met (computer players have none)
    opponents: int = 0
    place: int = 0  # from 1; equal 节分, points and opponents' 节分 share a place
    tied: bool = False  # another entrant shares the place


def standings(cup: Cup) -> list[Standing]:
    """Every entrant by 节分, then points, then the 节分 of those he sat with (Buchholz);
    equal in all three share a place, listed in sign-up order."""
    rows = []
    for k, p in enumerate(cup.players):
        results: list[tuple[int, int] | None] = []
        for rnd in cup.tables:
            found = next((t for t in rnd if p.id in t.seats and t.points is not None
                          and str(p.id) in t.points), None)
            results.append(None if found is None or found.points is None else
                           (jie(found.points, p.id, cup.seats), found.points[str(p.id)]))
        done = [r for r in results if r is not None]
        rows.append((k, Standing(p, sum(j for j, _ in done), sum(x for _, x in done),
                                 tuple(results))))
    total = {s.player.id: s.jie for _, s in rows}
    rows = [(k, replace(s, opponents=sum(total.get(u, 0) for u in _met_by(cup, s.player.id))))
            for k, s in rows]
    rows.sort(key=lambda r: (*_rank_key(r[1]), r[0]))
    at = places([_rank_key(s) for _, s in rows])
    return [replace(s, place=p.no, tied=p.tied) for p, (_, s) in zip(at, rows, strict=True)]


def _rank_key(s: Standing) -> tuple[int, int, int]:
    return -s.jie, -s.points, -s.opponents


def _met_by(cup: Cup, user_id: int) -> list[int]:
    """Everyone who sat with ``user_id`` at a counted table, once per round."""
    return [u for rnd in cup.tables for t in rnd if t.points is not None and user_id in t.seats
            for u in t.seats if u is not None and u != user_id]


# --- the Swiss seating of rounds after the first (docs/competitions.md, "Rounds") ----------

ALONE_AGAIN = 1000  # each player alone with computer players once more
MET_AGAIN = 100  # each pair that sat together before, per earlier meeting
FACED_COMPUTERS = 10  # each computer seat beside a player, per computer seat he had before
OFF_RANK = 1  # each table a player sits away from his table by the standings


@dataclass(frozen=True)
class Past:
    """What earlier rounds seated: how often each pair met, how often each player sat as
    the only human among computer players, and how many computer seats each had beside him."""

    met: dict[frozenset[int], int]
    alone: dict[int, int]
    computers: dict[int, int]

    @classmethod
    def of(cls, cup: Cup) -> Past:
        met: dict[frozenset[int], int] = {}
        alone: dict[int, int] = {}
        computers: dict[int, int] = {}
        for rnd in cup.tables:
            for t in rnd:
                humans = [u for u in t.seats if u is not None]
                robots = len(t.seats) - len(humans)
                for i, u in enumerate(humans):
                    computers[u] = computers.get(u, 0) + robots
                    for v in humans[i + 1:]:
                        met[frozenset((u, v))] = met.get(frozenset((u, v)), 0) + 1
                if len(humans) == 1 and robots:
                    alone[humans[0]] = alone.get(humans[0], 0) + 1
        return cls(met, alone, computers)


def table_cost(seats: list[int | None], no: int, rank: dict[int, int], width: int,
               past: Past) -> int:
    """What a table costs the seating (the lower the better): see the weights above. A table
    of computer players alone is never chosen."""
    humans = [u for u in seats if u is not None]
    if not humans:
        return 10**9
    robots = len(seats) - len(humans)
    cost = sum(MET_AGAIN * past.met.get(frozenset((u, v)), 0)
               for i, u in enumerate(humans) for v in humans[i + 1:])
    if len(humans) == 1 and robots:
        cost += ALONE_AGAIN * past.alone.get(humans[0], 0)
    cost += sum(FACED_COMPUTERS * robots * past.computers.get(u, 0) for u in humans)
    return cost + sum(OFF_RANK * abs(rank[u] // width - no) for u in humans)


def swiss_tables(order: list[int], seats: int, past: Past) -> list[CupTable]:
    """A later round's tables: the players in standing ``order`` table by table (computer
    players filling the last), then improved by swapping two seats of two tables (a
    computer player's seat as any other) while one swap lowers the total of
    :func:`table_cost`: the first such swap in position order is made, until none is left.
    Deterministic: the same standings and earlier rounds give the same seating."""
    tables = seat_tables(order, seats)
    flat = [u for t in tables for u in t.seats]
    rank = {u: k for k, u in enumerate(order)}

    def cost(no: int) -> int:
        return table_cost(flat[no * seats:(no + 1) * seats], no, rank, seats, past)

    costs = [cost(no) for no in range(len(tables))]
    improved = True
    while improved:
        improved = False
        for i in range(len(flat)):
            for j in range(i + 1, len(flat)):
                a, b = i // seats, j // seats
                if a == b or flat[i] == flat[j]:  # same table, or two computer seats
                    continue
                flat[i], flat[j] = flat[j], flat[i]
                new_a, new_b = cost(a), cost(b)
                if new_a + new_b < costs[a] + costs[b]:
                    costs[a], costs[b] = new_a, new_b
                    improved = True
                else:
                    flat[i], flat[j] = flat[j], flat[i]
    for t in tables:
        t.seats = flat[(t.no - 1) * seats:t.no * seats]
    return tables


def keep_apart(tables: list[CupTable], apart: Collection[tuple[int, int]]) -> list[list[int]]:
    """Part every pair kept apart (/apart) that ``tables`` seat together, in place. Seat by
    seat in the round's order, one who sits after one he is kept apart from at his table
    changes places with the nearest seat of another table (the next table's first on a
    tie) where neither of the two then sits next to one he is kept apart from; with no such
    seat he sits the round out (a computer player plays it). The swaps made, as pairs of
    positions in the round's order."""
    pairs = {frozenset(p) for p in apart}
    seats = len(tables[0].seats) if tables else 1
    flat = [u for t in tables for u in t.seats]

    def clash(user: int | None, k: int, upto: int) -> bool:
        """Is ``user``, put at position ``k``, kept apart from one of its table's seats
        before ``upto``, ``k`` aside?"""
        first = k - k % seats
        return user is not None and any(
            i != k and frozenset((user, flat[i])) in pairs for i in range(first, upto))

    def table_end(k: int) -> int:
        return k - k % seats + seats

    swaps = []
    for k, user in enumerate(flat):
        if not clash(user, k, k):
            continue
        others = sorted((j for j in range(len(flat)) if j // seats != k // seats),
                        key=lambda j: (abs(j - k), j < k))
        j = next((j for j in others if not clash(user, j, table_end(j))
                  and not clash(flat[j], k, table_end(k))), None)
        if j is None:
            flat[k] = None
            continue
        flat[k], flat[j] = flat[j], user
        swaps.append(sorted((k, j)))
    for t in tables:
        t.seats = flat[(t.no - 1) * seats:t.no * seats]
    return swaps


def next_round(cup: Cup, apart: Collection[tuple[int, int]] = ()
               ) -> tuple[list[CupTable], list[list[int]]]:
    """The next round's tables, the first round's from the draw, later ones Swiss, with
    their swaps for the pairs kept ``apart`` (:func:`keep_apart`)."""
    if not cup.tables:
        tables = seat_tables(draw(cup.seed, [p.id for p in cup.players]), cup.seats)
    else:
        order = [s.player.id for s in standings(cup) if not s.player.left]
        tables = swiss_tables(order, cup.seats, Past.of(cup)) if order else []
    return tables, keep_apart(tables, apart)


def rederive(cup: Cup) -> list[str]:
    """Every round of ``cup`` seated again from what came before it (the seed's draw, then
    the results): a line a round, saying whether the recorded seating is the one that
    follows. A round after a player left, or with pairs kept apart (/apart, not in the
    state), may differ: the line says so."""
    lines = []
    for k, played in enumerate(cup.tables):
        before = replace(cup, tables=cup.tables[:k])
        seated, _ = next_round(before)
        if k == 0 and cup.swaps:
            seated = [replace(t, seats=list(t.seats)) for t in seated]
            flat = [u for t in seated for u in t.seats]
            for a, b in cup.swaps:
                flat[a], flat[b] = flat[b], flat[a]
            for t in seated:
                t.seats = flat[(t.no - 1) * cup.seats:t.no * cup.seats]
        same = [t.seats for t in seated] == [t.seats for t in played]
        lines.append(f"round {k + 1}: " + ("follows from " + ("the seed" if k == 0 else
                                                             "the results before it")
                                           if same else "differs (a leaver or /apart?)"))
    return lines


ROUNDS_WORD, HANDS_WORD = "轮", "局"
DEFAULT_ROUNDS, DEFAULT_HANDS = 3, 1


def split_args(args: list[str]) -> tuple[list[str], int, int]:
    """``/cup`` arguments: (the rule-set words, rounds, hands a round), ``3轮`` and ``2局``;
    ValueError for a count out of range."""
    rest, rounds, hands = [], DEFAULT_ROUNDS, DEFAULT_HANDS
    for word in args:
        for suffix, allowed in ((ROUNDS_WORD, ROUNDS), (HANDS_WORD, HANDS)):
            count = word.removesuffix(suffix)
            if word.endswith(suffix) and count.isdigit():
                if int(count) not in allowed:
                    raise ValueError(word)
                rounds, hands = (int(count), hands) if suffix == ROUNDS_WORD \
                    else (rounds, int(count))
                break
        else:
            rest.append(word)
    return rest, rounds, hands
