"""The pacing policy with plain values: what goes first at the gate, how long a seat's
private picture holds a change, (no bot, no clock)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.present.pacing import (
    Pacing,
    Picture,
    SeatChange,
    Send,
    catch_up_pace,
    goes_first,
    group_wait,
    hand_hold,
    hand_wait,
    next_ping_after,
    seat_picture,
    seat_wait,
    table_picture_wait,
)

PACING = Pacing()


def test_what_people_touch_goes_first_and_the_table_picture_lags() -> None:
    first = {send for send in Send if goes_first(PACING, send)}
    assert first == {Send.ANSWER, Send.PROBE, Send.NEW_LOBBY, Send.LOBBY_EDIT,
                     Send.LIVE_SETTLEMENT, Send.SETTLEMENT, Send.MATCH_SUMMARY,
                     Send.FIRST_PICTURE, Send.DECISION}
    assert not goes_first(PACING, Send.TABLE_PICTURE)
    assert not goes_first(PACING, Send.READY_LIST)  # 再来一局 pressed: merged, lagging
    assert not goes_first(PACING, Send.SEAT_CATCH_UP)


@given(st.lists(st.floats(0.0, 120.0), max_size=40), st.floats(60.0, 180.0))
def test_a_groups_budget_keeps_room_for_what_goes_first(sent: list[float], now: float) -> None:
    sent.sort()
    sent = [at for at in sent if at <= now]
    last = sent[-1] if sent else float("-inf")

    def in_window(at: float) -> int:
        return sum(at - PACING.group_window < s <= at for s in sent)
    for first in (True, False):
        at = now + max(0.0, group_wait(PACING, now=now, sent=sent, last=last, first=first))
        cap = PACING.group_budget - (0 if first else PACING.group_reserve)
        assert in_window(at) < cap  # room left when it goes
        if not first:
            assert at >= last + PACING.group_interval
    quiet = group_wait(PACING, now=now, sent=sent, last=last, first=True)
    assert quiet <= group_wait(PACING, now=now, sent=sent, last=last, first=False)


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


def test_a_seat_alone_with_computers_sees_each_computer_discard_at_once() -> None:
    # another seat discarded since his picture was shown: nothing is held
    for own_change in (False, True):
        assert hand_hold(PACING, own_change=own_change, alone=True, moved=True) == 0.0
    # his own move alone rides with the next computer discard (at most the pressed pace)
    assert hand_hold(PACING, own_change=True, alone=True) == PACING.pressed_pace
    # a computer's take (吃, 碰) or a flip alone waits for the discard that ends its turn,
    # at most one edit's time: his chat's edit is not spent before the discard comes
    assert hand_hold(PACING, own_change=False, alone=True) == PACING.dm_interval
    # at a table with other people, a discard elsewhere waits the catch-up pace as before
    assert hand_hold(PACING, own_change=False, moved=True) == catch_up_pace(PACING)


def test_alone_the_state_between_two_computer_moves_at_once_is_not_shown() -> None:
    """A computer's answer due now (the table goes on at once): the state it comes to rides
    instead, held at most one edit's time (the table's next commit looks again), so that his
    chat's edit is left for his buttons if they come next."""
    for own_change in (False, True):
        assert hand_hold(PACING, own_change=own_change, alone=True, moved=True,
                         moving_on=True) == PACING.dm_interval
    assert hand_wait(PACING, now=100.5, held_since=100.0, own_change=False, alone=True,
                     moved=True, moving_on=True) == PACING.dm_interval - 0.5
    assert hand_hold(PACING, own_change=False, moved=True, moving_on=True) == \
        catch_up_pace(PACING)  # a table of people: as before


def test_a_held_change_goes_once_its_hold_is_over() -> None:
    assert hand_wait(PACING, now=101.0, held_since=100.0, own_change=True) == 2.0
    assert hand_wait(PACING, now=104.0, held_since=100.0, own_change=False) == 1.0
    assert hand_wait(PACING, now=105.0, held_since=100.0, own_change=False) <= 0


def test_a_seat_picture_is_sent_held_or_skipped() -> None:
    """A change of the table alone is held from when it first waits, then sent; new
    buttons, a missing picture, a restart, the hand's end and a flush go at once; nothing
    goes while the live page shows the seat, nor when the picture shows it already."""
    waiting = SeatChange(now=100.0)
    assert seat_picture(PACING, waiting) == Picture.HOLD
    assert seat_wait(PACING, waiting) == catch_up_pace(PACING)  # held from now
    assert seat_picture(PACING, replace(waiting, held_since=96.0)) == Picture.HOLD
    assert seat_picture(PACING, replace(waiting, held_since=95.0)) == Picture.SEND
    for now in ("urgent", "fresh", "flushing"):
        assert seat_picture(PACING, replace(waiting, **{now: True})) == Picture.SEND
    assert seat_picture(PACING, replace(waiting, playing=False)) == Picture.SEND
    assert seat_picture(PACING, replace(waiting, unchanged=True, urgent=True)) == Picture.SKIP
    assert seat_picture(PACING, replace(waiting, posted=False, unchanged=True)) == Picture.SEND
    assert seat_picture(PACING, replace(waiting, live=True, posted=False,
                                        urgent=True)) == Picture.SKIP
    # alone with computers, a computer's discard shows at once, unless the table goes on
    alone = replace(waiting, alone=True, moved=True)
    assert seat_picture(PACING, alone) == Picture.SEND
    assert seat_picture(PACING, replace(alone, moving_on=True)) == Picture.HOLD



def test_the_group_picture_of_a_table_played_on_live_pages_follows_at_the_onlookers_pace() -> None:
    """Only while every player is on his live page is the group's picture held, and then
    to ``onlooker_pace`` after it was last shown; never before it was shown."""
    pacing = Pacing(onlooker_pace=10.0)
    assert table_picture_wait(pacing, now=104.0, shown_at=100.0, onlookers_only=True) == 6.0
    assert table_picture_wait(pacing, now=110.0, shown_at=100.0, onlookers_only=True) <= 0
    assert table_picture_wait(pacing, now=101.0, shown_at=100.0, onlookers_only=False) <= 0
    assert table_picture_wait(pacing, now=101.0, shown_at=None, onlookers_only=True) <= 0


@given(st.floats(1.0, 600.0), st.floats(0.5, 60.0))
def test_a_timed_decision_is_pinged_once_no_sooner_than_half_its_time(
        timeout: float, ping_delay: float) -> None:
    pacing = Pacing(ping_delay=ping_delay)
    first = next_ping_after(pacing, pings=0, slow=False, timeout=timeout)
    assert first is not None and first >= timeout / 2 and first >= ping_delay
    assert next_ping_after(pacing, pings=1, slow=False, timeout=timeout) is None
    # the 30 s timer of a player thinking 12 s: no ping
    assert next_ping_after(Pacing(), pings=0, slow=False, timeout=30.0) == 15.0
