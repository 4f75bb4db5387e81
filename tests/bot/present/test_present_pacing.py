"""The pacing policy with plain values: what goes first at the gate, how a group spends its
20 calls a minute (its bucket, the ranks of its calls, their spacing), how long a seat's
private picture holds a change (no bot, no clock: a group's outbox is played out here on
plain numbers by :func:`simulate`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.present.pacing import (
    Pacing,
    Picture,
    Rank,
    SeatChange,
    Send,
    Waiting,
    catch_up_pace,
    goes_first,
    group_rank,
    group_rate,
    group_tokens,
    group_wait,
    hand_hold,
    hand_wait,
    next_ping_after,
    pick,
    seat_picture,
    seat_wait,
    table_picture_wait,
)

PACING = Pacing()


def test_what_people_touch_goes_first_and_the_table_picture_lags() -> None:
    first = {send for send in Send if goes_first(PACING, send)}
    assert first == {Send.ANSWER, Send.PROBE, Send.NEW_LOBBY, Send.LOBBY_EDIT,
                     Send.LIVE_SETTLEMENT, Send.SETTLEMENT, Send.MATCH_SUMMARY,
                     Send.FIRST_PICTURE, Send.DECISION, Send.CARD}
    assert not goes_first(PACING, Send.TABLE_PICTURE)
    assert not goes_first(PACING, Send.READY_LIST)  # 再来一局 pressed: merged, lagging
    assert not goes_first(PACING, Send.SEAT_CATCH_UP)


@dataclass(frozen=True)
class Call:
    key: Hashable
    start: float  # it went out
    end: float  # its answer came (Telegram counted it in between)


def simulate(pacing: Pacing, asks: Sequence[tuple[float, Hashable, Send]],
             trip: float = 0.15) -> list[Call]:
    """A group's outbox under the policy on a clock of plain numbers: each ask ``(time,
    key, kind)`` queues its key (merged into the one waiting: the most pressing rank, the
    earliest due), the call :func:`pick` chooses goes when its bucket, its reserve and its
    key's spacing let it, one at a time, each taking ``trip`` seconds; the calls made."""
    asks = sorted(asks, key=lambda a: a[0])
    queue: dict[Hashable, tuple[Rank, float, int]] = {}
    order = itertools.count()
    sent: list[float] = []
    spaced: dict[Hashable, float] = {}
    calls: list[Call] = []
    now, i = 0.0, 0
    while i < len(asks) or queue:
        while i < len(asks) and asks[i][0] <= now:
            _, key, send = asks[i]
            rank = group_rank(pacing, send)
            if key in queue:
                old, due, first = queue[key]
                queue[key] = old.merge(rank), min(due, now + rank.lag), first
            else:
                queue[key] = rank, now + rank.lag, next(order)
            i += 1
        if not queue:
            now = asks[i][0]
            continue
        key, wait = pick([Waiting(k, due, first, max(
            now + group_wait(pacing, now=now, sent=sent, rank=rank, due=due),
            spaced.get(k, -math.inf) + rank.spacing)) for k, (rank, due, first) in queue.items()],
            now)
        if key is None:
            now = min(now + wait, asks[i][0] if i < len(asks) else math.inf)
            continue
        rank, _, _ = queue.pop(key)
        calls.append(Call(key, now, now + trip))
        now += trip
        sent.append(now)
        if rank.spacing:
            spaced[key] = now
    return calls


KINDS = (Send.FIRST_PICTURE, Send.SETTLEMENT, Send.ANSWER, Send.NEW_LOBBY, Send.CARD,
         Send.LOBBY_EDIT, Send.TABLE_PICTURE, Send.READY_LIST)
ASKS = st.lists(st.tuples(st.floats(0.0, 150.0), st.integers(0, 6), st.sampled_from(KINDS)),
                max_size=120)


@settings(deadline=None)
@given(ASKS, st.floats(0.0, 2.0))
def test_a_group_never_makes_more_than_20_calls_in_a_minute(
        asks: list[tuple[float, int, Send]], trip: float) -> None:
    """However its calls are asked for, and whenever Telegram counts each (any time between
    its going out and its answer), no 60 s holds more than 20 of a group's calls; every ask
    is met by a call of its key that went out after it (the newest state), and a key's calls
    are its spacing apart."""
    keyed = [(at, (kind, n), kind) for at, n, kind in asks]
    calls = simulate(PACING, keyed, trip)
    budget, window = PACING.group_budget, PACING.group_window
    for early, late in zip(calls, calls[budget:], strict=False):
        assert late.start - early.end >= window - 1e-9
    for at, key, _ in keyed:
        assert any(c.key == key and c.start >= at for c in calls)
    for key in {c.key for c in calls}:
        spacing = group_rank(PACING, key[0]).spacing
        mine = [c for c in calls if c.key == key]
        assert all(b.start - a.end >= spacing - 1e-9 for a, b in zip(mine, mine[1:],
                                                                      strict=False))


def test_a_group_bucket_holds_a_small_burst_and_refills_evenly() -> None:
    """Eight calls at once, then one every 60 / (20 - 8) = 5 s: never twenty and a silence."""
    burst = PACING.group_burst
    assert burst == 8 and group_rate(PACING) == 12 / 60
    assert group_tokens(PACING, now=0.0, sent=[]) == burst
    spent = [0.1 * k for k in range(burst)]  # the bucket gained 0.16 meanwhile
    now = 0.1 * burst
    assert group_wait(PACING, now=now, sent=spent) == pytest.approx((1 - now * 0.2) * 5.0)
    assert group_wait(PACING, now=5.0, sent=spent) <= 1e-9
    picture = group_rank(PACING, Send.TABLE_PICTURE)  # leaves the reserve to the others
    assert group_wait(PACING, now=5.0, sent=spent, rank=picture) > 0
    # a silence of group_idle: the reserve is not kept
    assert group_wait(PACING, now=spent[-1] + PACING.group_idle, sent=spent, rank=picture) <= 0


def test_a_busy_group_is_never_silent_long_while_something_waits() -> None:
    """A card changing every second, a table picture every second, an answer asked every
    3 s, for three minutes: a call every 5 s (or ``group_idle``) at most, not twenty in a
    burst then a silence of half a minute (the pacing before spent the budget so, first
    come first served)."""
    asks = [(t * 1.0, ("card",), Send.CARD) for t in range(180)] \
        + [(t * 1.0, ("table",), Send.TABLE_PICTURE) for t in range(180)] \
        + [(t * 3.0, ("note", t), Send.ANSWER) for t in range(60)]
    calls = simulate(PACING, asks)
    gaps = [b.start - a.end for a, b in zip(calls, calls[1:], strict=False)]
    steady = PACING.group_window / (PACING.group_budget - PACING.group_burst)
    assert max(gaps) <= max(steady, PACING.group_idle) + 1e-9
    assert max(PACING.group_budget, *(sum(c.start - 60 < d.start <= c.start for d in calls)
                                      for c in calls)) <= PACING.group_budget


def test_a_groups_calls_go_by_rank_then_by_age() -> None:
    """Asked together: a hand's first picture, then an answer, then a card, then the table
    picture's edit. A card asked ``card_lag - answer_lag`` or more before an answer goes
    before it: what waits longest is not left behind for good."""
    now = 10.0

    def due(send: Send, asked: float) -> float:
        return asked + group_rank(PACING, send).lag
    together = [Waiting(send, due(send, now), n, now) for n, send in enumerate(
        (Send.TABLE_PICTURE, Send.CARD, Send.ANSWER, Send.FIRST_PICTURE))]
    chosen = []
    while together:
        key, wait = pick(together, now)
        assert wait == 0
        chosen.append(key)
        together = [w for w in together if w.key != key]
    assert chosen == [Send.FIRST_PICTURE, Send.ANSWER, Send.CARD, Send.TABLE_PICTURE]
    aged = PACING.card_lag - PACING.answer_lag
    for before, first in ((aged + 0.5, Send.CARD), (aged - 0.5, Send.ANSWER)):
        waiting = [Waiting(Send.CARD, due(Send.CARD, now - before), 0, now),
                   Waiting(Send.ANSWER, due(Send.ANSWER, now), 1, now)]
        assert pick(waiting, now)[0] == first
    # one the group may not take yet is passed over; none ready: the time until one is
    held = [Waiting("card", 0.0, 0, now + 2), Waiting("note", 5.0, 1, now)]
    assert pick(held, now) == ("note", 0.0)
    assert pick(held[:1], now) == (None, 2.0)
    assert pick(held, now, strict=True) == (None, 2.0)  # a private chat: in order


def test_a_card_changing_fast_is_edited_once_an_interval_to_its_newest_state() -> None:
    """Twenty changes to a card in ten seconds (the challenge card edited 19 times in 13.7 s
    before): an edit at most every ``card_interval``, the last after the last change."""
    asks = [(0.5 * k, ("challenge", 1), Send.CARD) for k in range(20)]
    calls = simulate(PACING, asks)
    assert len(calls) <= math.ceil(10 / PACING.card_interval) + 1
    assert all(b.start - a.end >= PACING.card_interval for a, b in zip(calls, calls[1:],
                                                                        strict=False))
    assert calls[-1].start >= asks[-1][0]


def test_the_table_picture_leaves_the_reserve_to_answers() -> None:
    """A table picture wanting an edit every second for a minute keeps ``group_reserve`` of
    the bucket: then an admin's four commands at once are all answered within a round trip
    each; the bucket spent, the picture's next edit waits no more than ``group_idle``."""
    pictures = [(t * 1.0, ("table", 1), Send.TABLE_PICTURE) for t in range(90)]
    answers = [(60.0, ("note", k), Send.ANSWER) for k in range(PACING.group_reserve + 1)]
    calls = simulate(PACING, pictures + answers, trip=0.15)
    answered = [c.end for c in calls if c.key[0] == "note"]
    assert answered[-1] - 60.0 <= 0.15 * len(answered) + 1e-9
    # the bucket spent, the picture waits for the reserve no longer than group_idle
    after = [c.start for c in calls if c.key[0] == "table" and c.start > 60.0]
    assert after[0] - answered[-1] <= PACING.group_idle + 1e-9


def test_ranks_of_a_groups_calls() -> None:
    assert group_rank(PACING, Send.SETTLEMENT) == Rank()
    assert group_rank(PACING, Send.CARD).spacing == PACING.card_interval
    assert group_rank(PACING, Send.LOBBY_EDIT).spacing == PACING.lobby_interval
    picture = group_rank(PACING, Send.TABLE_PICTURE)
    assert picture.reserve == PACING.group_reserve and picture.spacing == PACING.group_interval
    # asked again before its call: the most pressing of the two
    assert picture.merge(Rank()) == Rank()


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
