"""The rules of a 群杯 without the bot (bot.table.cups): the draw is the seed's shuffle of the
sign-up order, 节分 by place, the Swiss seating of the next round, a state that survives
its JSON, and /cup's words."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys

import pytest

from bot.i18n import t as words
from bot.present.screens import cup as screens
from bot.store.cups import CupRow
from bot.table.cups import (
    Cup,
    CupTable,
    Entrant,
    commitment,
    draw,
    jie,
    keep_apart,
    next_round,
    rederive,
    split_args,
    standings,
)


def _cup(n: int, seed: int = 5) -> Cup:
    return Cup("qq", 3, 2, 1, seed, [Entrant(100 + k, f"P{k}", "zh") for k in range(n)])


def test_the_draw_is_the_seeds_shuffle_and_the_card_shows_its_hash() -> None:
    cup = _cup(7)
    tables, swaps = next_round(cup)
    order = [p.id for p in cup.players]
    random.Random(cup.seed).shuffle(order)
    assert [t.seats for t in tables] == [order[:3], order[3:6], [order[6], None, None]]
    assert swaps == []
    assert draw(cup.seed, [p.id for p in cup.players]) == order
    assert commitment(cup.seed) == hashlib.sha256(str(cup.seed).encode()).hexdigest()


def test_jie_is_three_two_one_by_place_and_equal_points_share_the_better() -> None:
    points = {"1": 30, "2": -10, "3": -20}
    assert [jie(points, u, 3) for u in (1, 2, 3)] == [3, 2, 1]
    tied = {"1": 5, "2": 5, "3": -10}
    assert [jie(tied, u, 3) for u in (1, 2, 3)] == [3, 3, 1]
    assert jie({"1": 1, "2": 2, "3": 3, "4": 4}, 1, 4) == 0


def test_the_next_round_seats_the_standings_and_a_leaver_keeps_his_score() -> None:
    cup = _cup(6)
    ids = [p.id for p in cup.players]
    cup.tables.append([CupTable(1, ids[:3], 1, {str(ids[0]): -5, str(ids[1]): 10,
                                                str(ids[2]): -5}),
                       CupTable(2, ids[3:], 2, {str(ids[3]): 1, str(ids[4]): 2,
                                                str(ids[5]): -3})])
    table = standings(cup)
    # equal -5s take the second place's 节分 (2); equal in 节分, points and opponents' 节分
    # (3 + 2 each), they share the fourth place, listed in sign-up order
    assert [s.player.id for s in table] == [ids[1], ids[4], ids[3], ids[0], ids[2], ids[5]]
    assert [s.place for s in table] == [1, 2, 3, 4, 4, 6]
    assert (table[0].jie, table[0].points) == (3, 10)
    cup.players[4].left = True
    assert [t.seats for t in next_round(cup)[0]] == [[ids[1], ids[3], ids[0]],
                                                      [ids[2], ids[5], None]]
    assert any(s.player.id == ids[4] and s.points == 2 for s in standings(cup))


def test_a_tie_in_jie_and_points_is_broken_by_the_opponents_jie_or_shared() -> None:
    cup = _cup(6)
    a, b, c, d, e, f = (p.id for p in cup.players)
    # a and d both win their table with 5; a's table-mates then do better than d's
    cup.tables.append([CupTable(1, [a, b, c], 1, {str(a): 5, str(b): 0, str(c): -5}),
                       CupTable(2, [d, e, f], 2, {str(d): 5, str(e): -2, str(f): -3})])
    cup.tables.append([CupTable(1, [a, e, None], 3, {str(a): 0, str(e): 1, "0": -1}),
                       CupTable(2, [d, f, b], 4, {str(d): 0, str(f): -1, str(b): 1})])
    table = {s.player.id: s for s in standings(cup)}
    assert (table[a].jie, table[a].points) == (table[d].jie, table[d].points) == (5, 5)
    assert table[a].opponents == table[b].jie + table[c].jie + table[e].jie
    assert table[d].opponents == table[e].jie + table[f].jie + table[f].jie + table[b].jie
    assert table[d].opponents > table[a].opponents and table[d].place < table[a].place


def test_a_shared_place_and_only_it_is_marked_tied() -> None:
    """a and d equal in 节分, points and opponents' 节分 share 1st (nobody is 2nd); b, alone
    at 3rd, is not told his place is shared, in his waiting note nor on the card."""
    cup = _cup(6)
    a, b, c, d, e, f = (p.id for p in cup.players)
    cup.tables.append([CupTable(1, [a, b, c], 1, {str(a): 5, str(b): 0, str(c): -5}),
                       CupTable(2, [d, e, f], 2, {str(d): 5, str(e): -1, str(f): -4})])
    table = standings(cup)
    assert [(s.player.id, s.place, s.tied) for s in table] == [
        (a, 1, True), (d, 1, True), (b, 3, False), (e, 4, False), (f, 5, False),
        (c, 6, False)]
    row = CupRow(1, -100, None, a, "playing", "{}")
    tied = words("zh", "place_tied")
    assert tied in screens.waiting_text(row, cup, table[0], 1, "zh")
    assert tied not in screens.waiting_text(row, cup, table[2], 1, "zh")
    assert screens.card_text(row, cup, table, "zh").count(tied) == 2


def _play_rounds(n: int, rounds: int, rng: random.Random) -> Cup:
    """A cup of ``n`` humans at 3 seats whose every round ends with random points."""
    cup = _cup(n, seed=rng.randrange(10**6))
    cup.rounds = rounds
    for _ in range(rounds):
        tables, _ = next_round(cup)
        assert tables == next_round(cup)[0]  # the seating follows from the record alone
        for t in tables:
            t.points = {str(u): rng.randrange(-20, 21) for u in t.seats if u is not None}
        cup.tables.append(tables)
    return cup


@pytest.mark.parametrize("seed", range(40))
def test_seven_players_three_rounds_never_sit_a_table_again_nor_alone_twice(seed: int) -> None:
    """A later round seats no table of players that sat together before, and nobody is the
    only human among computer players twice, whatever the results."""
    cup = _play_rounds(7, 3, random.Random(seed))
    seen: set[frozenset[int]] = set()
    alone: list[int] = []
    for rnd in cup.tables:
        for t in rnd:
            humans = frozenset(u for u in t.seats if u is not None)
            assert len(humans) < 2 or humans not in seen, (rnd, seen)
            seen.add(humans)
            if len(humans) == 1:
                alone += humans
        assert sorted(u for t in rnd for u in t.seats if u is not None) == \
            [p.id for p in cup.players]
    assert len(alone) == len(set(alone))


@pytest.mark.parametrize(("n", "rounds"), [(9, 4), (8, 3), (12, 5), (5, 4)])
def test_repeats_only_where_no_seating_avoids_them(n: int, rounds: int) -> None:
    """Nobody is alone with computer players twice while someone has never been, and the
    pairs that meet again are few (a round repeats none when it can)."""
    cup = _play_rounds(n, rounds, random.Random(n))
    alone: dict[int, int] = {}
    for rnd in cup.tables:
        for t in rnd:
            humans = [u for u in t.seats if u is not None]
            if len(humans) == 1 and None in t.seats:
                alone[humans[0]] = alone.get(humans[0], 0) + 1
    if alone:
        assert max(alone.values()) - min(alone.get(p.id, 0) for p in cup.players) <= 1


def test_the_state_survives_its_json() -> None:
    cup = _cup(4)
    cup.tables.append(next_round(cup)[0])
    cup.topics["1"] = 12
    cup.swaps = [[1, 4]]
    assert Cup.loads(cup.dumps()) == cup


def test_the_words_of_cup() -> None:
    assert split_args(["hunan", "3轮", "2局"]) == (["hunan"], 3, 2)
    assert split_args([]) == ([], 3, 1)
    for bad in (["9轮"], ["0局"]):
        with pytest.raises(ValueError):
            split_args(bad)


def _seats(tables: list[CupTable]) -> list[list[int | None]]:
    return [t.seats for t in tables]


def test_the_draw_parts_a_pair_kept_apart_by_one_swap_the_seed_fixes() -> None:
    """Six players, the draw's first two kept apart: the second changes places with the
    next table's first, and nothing else moves."""
    cup = _cup(6)
    order = draw(cup.seed, [p.id for p in cup.players])
    a, b = order[0], order[1]
    tables, swaps = next_round(cup, [(b, a)])
    assert _seats(tables) == [[a, order[3], order[2]], [b, order[4], order[5]]]
    assert swaps == [[1, 3]]
    assert next_round(cup, [(a, b)]) == (tables, swaps)  # the same seats every time


def test_a_swap_never_seats_anyone_next_to_one_he_is_kept_apart_from() -> None:
    """The nearest seat would put the mover next to another he is kept apart from, or the
    one he displaces next to one, so a farther one is taken; a computer player's seat is a
    seat like any other; with none, the mover sits the round out."""
    tables = [CupTable(1, [1, 2, 3]), CupTable(2, [4, 5, 6]), CupTable(3, [7, None, None])]
    swaps = keep_apart(tables, [(1, 2), (2, 5), (3, 5)])
    # not 2 ⇄ 4 nor 2 ⇄ 6 (2 next to 5), nor 2 ⇄ 5 (5 next to 3)
    assert _seats(tables) == [[1, 7, 3], [4, 5, 6], [2, None, None]]
    assert swaps == [[1, 6]]
    spare = [CupTable(1, [1, 2, 3]), CupTable(2, [4, 5, None])]
    assert keep_apart(spare, [(2, 3), (1, 4), (1, 5)]) == [[2, 5]]
    assert _seats(spare) == [[1, 2, None], [4, 5, 3]]
    nowhere = [CupTable(1, [1, 2, 3]), CupTable(2, [4, 5, None])]
    assert keep_apart(nowhere, [(2, 3), (3, 4), (3, 5)]) == []
    assert _seats(nowhere) == [[1, 2, None], [4, 5, None]]  # 3 sits this round out


def test_swiss_rounds_keep_a_pair_apart_and_one_table_leaves_one_out() -> None:
    """The standings' top two are kept apart: the second meets the next table; with one
    table only, the later of the pair sits the round out (a computer plays his seat)."""
    cup = _cup(6)
    ids = [p.id for p in cup.players]
    cup.tables.append([CupTable(1, ids[:3], 1, {str(ids[0]): 9, str(ids[1]): 1,
                                                str(ids[2]): -10}),
                       CupTable(2, ids[3:], 2, {str(ids[3]): 8, str(ids[4]): 1,
                                                str(ids[5]): -9})])
    ranked = [s.player.id for s in standings(cup)]
    assert ranked[:2] == [ids[0], ids[3]]
    tables, _ = next_round(cup, [(ids[0], ids[3])])
    assert _seats(tables) == [[ids[0], ranked[3], ranked[2]], [ids[3]] + ranked[4:]]
    three = _cup(3)
    tables, _ = next_round(three, [(101, 102)])
    assert sorted(u for u in tables[0].seats if u is not None) in ([100, 101], [100, 102])


def test_every_round_is_re_derived_from_the_seed_and_the_results(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cup = _play_rounds(8, 3, random.Random(2))
    assert rederive(cup) == ["round 1: follows from the seed",
                             "round 2: follows from the results before it",
                             "round 3: follows from the results before it"]
    state = tmp_path / "cup.json"
    state.write_text(cup.dumps())
    ok = subprocess.run([sys.executable, "-m", "bot", "cup-check", str(state)],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "round 3: follows" in ok.stdout
    a, b = cup.tables[1][0].seats[0], cup.tables[1][1].seats[0]  # two players swapped
    cup.tables[1][0].seats[0], cup.tables[1][1].seats[0] = b, a
    assert rederive(cup)[1].startswith("round 2: differs")
    state.write_text(cup.dumps())
    bad = subprocess.run([sys.executable, "-m", "bot", "cup-check", str(state)],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "round 2: differs" in bad.stdout
