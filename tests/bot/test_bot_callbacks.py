"""Callback data: at most 64 bytes, strict parsing, nothing else accepted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import callbacks as cb

BIG = 2**63 - 1  # the largest SQLite row id


@given(st.integers(0, BIG), st.integers(0, 10**12), st.integers(0, 99))
def test_action_data_fits_and_round_trips(table_id: int, version: int, index: int) -> None:
    data = cb.action(table_id, version, index)
    assert len(data.encode()) <= cb.MAX_BYTES
    assert cb.parse(data) == cb.Press("a", table_id, version, index)


@pytest.mark.parametrize("kind", sorted(cb.SIMPLE_KINDS))
def test_simple_data(kind: str) -> None:
    data = cb.simple(kind, BIG)
    assert len(data.encode()) <= cb.MAX_BYTES
    assert cb.parse(data) == cb.Press(kind, BIG)


@pytest.mark.parametrize("data", [
    None, "", "a:1:2", "a:1:2:3:4", "a:-1:2:3", "a:1:2:x", "z:1", "j:1", "m:1:2", "a:1:2:3 ",
    "a:1:2:3\n", "a:" + "9" * 70 + ":1:1", "j:１",
])
def test_malformed_data_is_refused(data: str | None) -> None:
    assert cb.parse(data) is None


def test_oversized_data_is_a_bug() -> None:
    with pytest.raises(AssertionError):
        cb.action(10**70, 1, 1)
    with pytest.raises(ValueError):
        cb.simple("x", 1)


@pytest.mark.parametrize("kind", sorted(cb.CONFIRM_KINDS))
def test_confirmations_carry_their_hand(kind: str) -> None:
    data = cb.confirm(kind, BIG, BIG)
    assert len(data.encode()) <= cb.MAX_BYTES
    assert cb.parse(data) == cb.Press(kind, BIG, BIG)
    assert cb.parse(f"{kind}:1") is None  # a confirmation without its hand is refused
    with pytest.raises(ValueError):
        cb.confirm("a", 1, 1)


@pytest.mark.parametrize("kind", sorted(cb.GROUP_KINDS))
def test_group_buttons_carry_their_mark(kind: str) -> None:
    data = cb.group(kind, BIG, BIG)
    assert len(data.encode()) <= cb.MAX_BYTES
    assert cb.parse(data) == cb.Press(kind, BIG, BIG)
    assert cb.parse(f"{kind}:1") is None  # as sent before they carried it: outdated
    with pytest.raises(ValueError):
        cb.group("m", 1, 1)
