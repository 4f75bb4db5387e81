"""The table's clock with plain values (bot.table.clock): how long a computer player's move
waits, at a table of people and at one where a human plays alone with computer players."""

from __future__ import annotations

from types import SimpleNamespace

from bot.table.clock import Pace, deadline
from bot.table.model import Decision, HandRecord, Player, Table, TableStatus
from bot.table.service import TableService

PACE = Pace(action_timeout=60.0, autoplay_delay=1.5)
DISCARD = Decision(1, ("d:x1", "d:x2"), (), since=100.0)
CLAIM = Decision(2, ("c:x1x2x3", "peng", "pass"), (), since=100.0)


def table(*user_ids: int) -> Table:
    players = {s: Player(u, f"P{s}", "zh") for s, u in enumerate(user_ids)}
    return Table(1, -100, user_ids[0], 3, TableStatus.PLAYING, 0, 0, 1, players=players)


def playing(t: Table, log: list[tuple[int, str]]) -> Table:
    """``t`` playing a hand whose log so far is ``log`` (all the clock reads of it)."""
    t.current = HandRecord(1, 1, SimpleNamespace(log=log), (), ())  # type: ignore[arg-type]
    return t


def test_a_computer_players_answer_to_an_offered_card_takes_no_pause() -> None:
    for t in (table(1, 2, -1), table(1, -1, -2)):
        t.decisions[2] = CLAIM
        assert deadline(t, 2, PACE) == CLAIM.since  # 过, 吃, 碰: the table goes on at once


def test_a_computer_players_discard_waits_for_people_to_see_it() -> None:
    people = table(1, 2, -1)
    people.decisions[2] = DISCARD
    assert deadline(people, 2, PACE) == DISCARD.since + PACE.autoplay_delay
    alone = table(1, -1, -2)  # one human alone: at his private picture's pace
    alone.decisions[2] = DISCARD
    assert deadline(alone, 2, PACE) == DISCARD.since + PACE.alone_first_delay < \
        DISCARD.since + PACE.autoplay_delay


def test_alone_a_computers_discard_after_anothers_waits_for_his_chats_next_edit() -> None:
    """After his own move (or his answer to a card) his chat is free: no pause; right
    after another computer's discard, one edit's time, so that each discard has its own."""
    alone = playing(table(1, -1, -2), [(0, "d:x1"), (1, "c:x1x2x3"), (2, "pass")])
    alone.decisions[1] = DISCARD
    assert deadline(alone, 1, PACE) == DISCARD.since + PACE.alone_first_delay
    alone = playing(table(1, -1, -2), [(0, "d:x1"), (1, "peng"), (1, "d:x4"), (2, "pass")])
    alone.decisions[2] = DISCARD
    assert deadline(alone, 2, PACE) == DISCARD.since + PACE.alone_delay
    fast = Pace(action_timeout=60.0, autoplay_delay=0.1)  # never longer than autoplay_delay
    assert deadline(alone, 2, fast) == DISCARD.since + 0.1
    alone.current.hand.log.append((0, "pass"))  # type: ignore[union-attr]  # he answered
    assert deadline(alone, 2, PACE) == DISCARD.since + PACE.alone_first_delay
    assert PACE.alone_first_delay < PACE.alone_delay == 1.0  # his chat: one edit a second


def test_alone_a_long_chain_of_computer_discards_keeps_him_waiting_at_most_alone_paced_pauses(
        ) -> None:
    """Between two of his moves, the computers' discards after the first wait one edit's
    time each, ``alone_paced`` of them; any later one goes at once (his next edit lists it):
    a chain of any length keeps him at most ``alone_paced`` pauses from his next buttons."""
    log: list[tuple[int, str]] = [(0, "d:x1")]
    alone = playing(table(1, -1, -2), log)
    waits = []
    for n in range(6):  # the computers discard in turn, nobody takes a card
        seat = 1 + n % 2
        alone.decisions[seat] = DISCARD
        waits.append(deadline(alone, seat, PACE) - DISCARD.since)
        log += [(seat, f"d:x{n + 2}"), (2 - n % 2, "pass")]
    assert waits == [PACE.alone_first_delay] + [PACE.alone_delay] * PACE.alone_paced \
        + [0.0] * (5 - PACE.alone_paced)
    assert PACE.alone_paced == 2  # at most two seconds of pauses at his chat's pace
    log.append((0, "pass"))  # he answered a card: the count starts again
    alone.decisions[1] = DISCARD
    assert deadline(alone, 1, PACE) == DISCARD.since + PACE.alone_first_delay
    alone.current.hand.log[:] = [(2, "d:x1"), (1, "d:x2")]  # type: ignore[union-attr]
    assert deadline(alone, 2, PACE) == DISCARD.since + PACE.alone_delay  # from the deal


def test_a_seat_in_tuoguan_and_a_human_keep_their_times() -> None:
    t = table(1, 2, -1)
    t.decisions[0], t.decisions[1] = CLAIM, DISCARD
    t.players[1].autoplay = True
    assert deadline(t, 0, PACE) == CLAIM.since + PACE.action_timeout
    assert deadline(t, 1, PACE) == DISCARD.since + PACE.autoplay_delay


def test_the_services_pace_keeps_each_time_in_its_place() -> None:
    """The service's times reach the clock by name: a lone human's computers discard after
    ``alone_delay``, not after the full lobby's wait put in its place."""
    service = TableService(None, None, action_timeout=60.0, autoplay_delay=1.5,  # type: ignore[arg-type]
                           ready_timeout=30.0, full_start_delay=4.0)
    assert service.pace == Pace(action_timeout=60.0, autoplay_delay=1.5, ready_timeout=30.0,
                                full_start_delay=4.0)
    alone = playing(table(1, -1, -2), [(1, "d:x4")])
    alone.decisions[2] = DISCARD
    assert service.deadline(alone, 2) == DISCARD.since + Pace.alone_delay
