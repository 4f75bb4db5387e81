"""The rules of a 群杯 without the bot (bot.table.cups): the draw is the seed's shuffle of the
sign-up order, 节分 by place, the Swiss seating of the next round, a state that survives
its JSON, and /cup's words."""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.table.cups import (
    Cup,
    CupTable,
    Entrant,
    commitment,
    draw,
    jie,
    next_round,
    split_args,
    standings,
)


def _cup(n: int, seed: int = 5) -> Cup:
    return Cup("qq", 3, 2, 1, seed, [Entrant(100 + k, f"P{k}", "zh") for k in range(n)])


def test_the_draw_is_the_seeds_shuffle_and_the_card_shows_its_hash() -> None:
    cup = _cup(7)
    tables = next_round(cup)
    order = [p.id for p in cup.players]
    random.Random(cup.seed).shuffle(order)
    assert [t.seats for t in tables] == [order[:3], order[3:6], [order[6], None, None]]
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
    # equal -5s share the second place (节分 2), the sign-up order breaks their tie
    assert [s.player.id for s in table] == [ids[1], ids[4], ids[3], ids[0], ids[2], ids[5]]
    assert (table[0].jie, table[0].points) == (3, 10)
    cup.players[4].left = True
    assert [t.seats for t in next_round(cup)] == [[ids[1], ids[3], ids[0]],
                                                   [ids[2], ids[5], None]]
    assert any(s.player.id == ids[4] and s.points == 2 for s in standings(cup))


def test_the_state_survives_its_json() -> None:
    cup = _cup(4)
    cup.tables.append(next_round(cup))
    cup.topics["1"] = 12
    assert Cup.loads(cup.dumps()) == cup


def test_the_words_of_cup() -> None:
    assert split_args(["hunan", "3轮", "2局"]) == (["hunan"], 3, 2)
    assert split_args([]) == ([], 3, 1)
    for bad in (["9轮"], ["0局"]):
        with pytest.raises(ValueError):
            split_args(bad)
