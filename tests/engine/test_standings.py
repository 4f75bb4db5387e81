"""Places on a board (engine/standings.py): competition ranking, ties shared."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.standings import Place, places

scores = st.lists(st.integers(-5, 5), max_size=30).map(lambda xs: sorted(xs, reverse=True))
pairs = st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 2)), max_size=30).map(
    lambda xs: sorted(xs, key=lambda k: (-k[0], -k[1])))


def test_two_tied_for_second_leave_no_third() -> None:
    assert [p.no for p in places([900, 800, 800, 700])] == [1, 2, 2, 4]
    assert [str(p) for p in places([900, 800, 800, 700])] == ["1", "2=", "2=", "4"]
    assert places([]) == []
    assert places([3]) == [Place(1)]


@given(scores)
def test_places_are_competition_ranking(keys: list[int]) -> None:
    found = places(keys)
    assert len(found) == len(keys)
    nos = [p.no for p in found]
    assert nos == sorted(nos)  # non-decreasing
    for i, key in enumerate(keys):
        assert nos[i] == 1 + sum(other > key for other in keys)  # 1 + those strictly ahead
        for j, other in enumerate(keys):
            assert (nos[i] == nos[j]) == (key == other)
        assert found[i].tied == (keys.count(key) > 1)
        assert str(found[i]) == (f"{nos[i]}=" if found[i].tied else str(nos[i]))


@given(pairs)
def test_a_tie_break_in_the_key_parts_rows(keys: list[tuple[int, int]]) -> None:
    """A key of a score and a tie-break: rows share a place only when both are equal."""
    found = places(keys)
    for i, key in enumerate(keys):
        ahead = sum((-o[0], -o[1]) < (-key[0], -key[1]) for o in keys)
        assert found[i].no == 1 + ahead
        assert found[i].tied == (keys.count(key) > 1)
