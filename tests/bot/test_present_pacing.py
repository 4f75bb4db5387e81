"""The pacing policy with plain values: what goes first at the gate, how long a seat's
private picture holds a change, (no bot, no clock)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.present.pacing import (
    Pacing,
    Send,
    catch_up_pace,
    goes_first,
    hand_hold,
    hand_wait,
    next_ping_after,
)

PACING = Pacing()


def test_what_a_table_waits_for_goes_first_and_the_rest_waits() -> None:
    first = {send for send in Send if goes_first(PACING, send)}
    assert first == {Send.PROBE, Send.NEW_LOBBY, Send.LIVE_SETTLEMENT, Send.DECISION}


def test_a_policy_may_put_answers_and_lobby_changes_ahead_of_the_table_picture() -> None:
    answers_first = replace(PACING, first=PACING.first | {Send.ANSWER, Send.LOBBY_EDIT})
    assert goes_first(answers_first, Send.ANSWER) and goes_first(answers_first, Send.LOBBY_EDIT)
    assert not goes_first(answers_first, Send.TABLE_PICTURE)
    assert not goes_first(answers_first, Send.SEAT_CATCH_UP)


@given(st.floats(0.0, 60.0), st.floats(0.0, 60.0))
def test_a_private_chat_catches_up_no_faster_than_the_group(table_pace: float,
                                                            group_interval: float) -> None:
    pacing = replace(PACING, table_pace=table_pace, group_interval=group_interval)
    assert catch_up_pace(pacing) == max(table_pace, group_interval)
    assert hand_hold(pacing, own_change=False) == catch_up_pace(pacing)


def test_a_seats_own_change_is_held_at_most_the_pressed_pace() -> None:
    assert hand_hold(PACING, own_change=True) == PACING.pressed_pace == 3.0
    assert hand_hold(PACING, own_change=False) == PACING.table_pace == 5.0
    slow_group = replace(PACING, group_interval=8.0)
    assert hand_hold(slow_group, own_change=False) == 8.0  # the group's pace wins


def test_a_held_change_goes_once_its_hold_is_over() -> None:
    assert hand_wait(PACING, now=101.0, held_since=100.0, own_change=True) == 2.0
    assert hand_wait(PACING, now=104.0, held_since=100.0, own_change=False) == 1.0
    assert hand_wait(PACING, now=105.0, held_since=100.0, own_change=False) <= 0



@given(st.floats(1.0, 600.0), st.floats(0.5, 60.0))
def test_a_timed_decision_is_pinged_once_no_sooner_than_half_its_time(
        timeout: float, ping_delay: float) -> None:
    pacing = Pacing(ping_delay=ping_delay)
    first = next_ping_after(pacing, pings=0, slow=False, timeout=timeout)
    assert first is not None and first >= timeout / 2 and first >= ping_delay
    assert next_ping_after(pacing, pings=1, slow=False, timeout=timeout) is None
    # the 30 s timer of a player thinking 12 s: no ping
    assert next_ping_after(Pacing(), pings=0, slow=False, timeout=30.0) == 15.0
