"""The pacing policy: what is sent now, what is held and until when, when a player is pinged.

Pure: plain values in, plain values out, no bot and no clock of its own (callers pass the
loop time). Its knobs are one :class:`Pacing` settings object, given to the presenter.

The rules, each a function here:

- What people touch goes first, the table picture lags (:data:`TOUCHED_FIRST`, the default
  ``Pacing.first``): answers to commands, lobby changes, settlements, a hand's first table
  picture, a seat's new buttons and the private check a /join waits for go ahead of the
  others (:func:`goes_first`) in a private chat's outbox, in the order asked, and at the
  bot-wide gate (:class:`~bot.present.gate.Gate`, one call per ``send_interval``).
- A group spends Telegram's 20 messages-or-edits a minute evenly: a bucket of
  ``group_burst`` calls refilled at ``group_budget - group_burst`` a ``group_window``
  (:func:`group_tokens`), so that no ``group_window`` ever holds more than ``group_budget``
  and a busy group gets one call every few seconds instead of twenty at once and then
  silence; ``group_budget`` in any ``group_window`` is checked as well (:func:`group_wait`).
  Each kind of call has its :class:`Rank` (:func:`group_rank`): a hand's first picture and
  its settlement go first, then answers to a person, then cards (a 复式挑战's, a 群杯's) and
  lobbies, then the table picture's edits and a settlement's ready list; each may wait its
  ``lag`` behind what was asked after it, and the call whose time is up first goes first
  (:func:`pick`), so that a card still waiting is shown within seconds however many answers
  come. The table picture's edits and the ready list leave ``group_reserve`` of the bucket
  for the others, so that an admin's commands, or the next hand's first picture, find it
  there, and a card leaves ``card_reserve`` until it has waited its lag; no reserve is
  kept once the group has been silent ``group_idle`` seconds. A card, a lobby, a table picture or a ready list is edited at most once per its
  ``spacing`` (``card_interval``, ``lobby_interval``, ``group_interval``), the changes
  meanwhile merged into one call made from the newest state.
  A private chat: one per ``dm_interval``, and a seat's new buttons may go sooner, on the
  chat's ``dm_burst`` (:class:`~bot.present.outbox.Outbox`): never behind the edit just made of
  an older state.
- A seat's private picture is sent now, held, or not sent at all (:func:`seat_picture`): not
  while his live page shows the seat, nor when it shows the change already; at once when it
  shows new buttons (or takes dead ones away), is not there yet or not shown since a restart,
  or the hand is over. Any other change is held and rides on the next edit
  (:func:`hand_hold`): the seat's own change (its cards, its keyboard going) at most
  ``pressed_pace`` seconds, the table's alone at the catch-up pace. A seat alone with
  computer players spends his chat's one edit a ``dm_interval`` on showing each computer move
  as it comes (his own, and a computer's take or flip, ride with the next discard; the
  computers discard at that pace, a few of them between two of his moves, the rest at once,
  :mod:`bot.table.clock`), his caption's 刚才 line naming every move since his last
  (:func:`bot.present.screens.seat.moves_line`); his buttons go on the chat's burst.
- While every player of a table plays on his live page, the group's table picture is for
  onlookers alone: it is edited at most every ``onlooker_pace`` seconds
  (:func:`table_picture_wait`), its caption's move log naming what happened meanwhile; each
  edit sends a fresh photo to every member of the group, and the bot's budget goes to the
  tables played by their pictures. A hand's first picture and its end go as they always do.
- The catch-up pace of a private chat follows the group's (:func:`catch_up_pace`): a waiting
  seat's picture changes no more often than ``table_pace``, nor more often than the group's
  own picture can (``group_interval``).
- A decision left open gets one ping, no sooner than half its time nor than ``ping_delay``
  seconds (a player thinking a while is not nagged); at a 慢速 table one at ``ping_delay`` and
  a second at ``slow_reping``, before 托管 (:func:`next_ping_after`). A player who said
  /quiet gets none (the 托管 warning still comes).
- A forum topic that refuses posts is looked at again every ``topic_retry`` seconds.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum


class Send(Enum):
    """What a Bot API call sends, as the policy tells them apart."""

    ANSWER = "answer"  # a reply to a command: a note, a picture, a file, a replay step
    PROBE = "probe"  # the private check a /join waits for
    NEW_LOBBY = "new_lobby"  # a lobby posted: its 加入 / 开局 are what the table waits for
    LOBBY_EDIT = "lobby_edit"  # a lobby's seats or settings changed
    LIVE_SETTLEMENT = "live_settlement"  # a settlement posted with its 再来一局
    SETTLEMENT = "settlement"  # a settlement without buttons, or its ready list changed
    MATCH_SUMMARY = "match_summary"  # a match's 总结算
    FIRST_PICTURE = "first_picture"  # a hand's first table picture in the group
    TABLE_PICTURE = "table_picture"  # the group's picture of a hand being played, edited
    READY_LIST = "ready_list"  # a settlement's ready list changed, or its buttons go
    DECISION = "decision"  # a seat's new buttons, or buttons withdrawn unanswered
    SEAT_CATCH_UP = "seat_catch_up"  # a seat's picture following the table
    PING = "ping"  # the nudge of a decision left open
    TIDY = "tidy"  # a ping deleted once answered
    CARD = "card"  # a competition's card in its group (a 复式挑战's, a 群杯's, a vote's)


# Seconds before a picture is looked at again that was due while its table was being changed:
# memory then may hold a move not stored yet (bot.table.model.Table.changing), shown only once
# its transaction has committed.
CHANGING_WAIT = 0.2

# The named policy: what people touch (an answer, a lobby, a settlement, a hand's first
# picture, a seat's new buttons) goes first; the table picture's edits, a settlement's ready
# list, a seat's catch-up, pings and tidying may lag (and merge meanwhile).
TOUCHED_FIRST = frozenset({Send.ANSWER, Send.PROBE, Send.NEW_LOBBY, Send.LOBBY_EDIT,
                           Send.LIVE_SETTLEMENT, Send.SETTLEMENT, Send.MATCH_SUMMARY,
                           Send.FIRST_PICTURE, Send.DECISION, Send.CARD})


@dataclass(frozen=True)
class Pacing:
    """The pacing policy's settings (seconds)."""

    group_interval: float = 3.5  # min seconds between two edits of a group's table picture
    group_budget: int = 20  # a group's messages-or-edits in any group_window seconds
    group_window: float = 60.0
    # a group's bucket: this many calls at once, refilled at (budget - burst) a window (one
    # every 5 s), so that no window holds more than the budget (bench/bench_busy_group.py)
    group_burst: int = 8
    group_reserve: int = 6  # of the bucket, left by the table picture for what goes first
    group_idle: float = 6.0  # ... but not once the group has been silent this long
    card_reserve: int = 4  # of the bucket, left by a card for what goes first, for card_lag
    # answers that may wait at once in a group (more are dropped, a flood's guard): an
    # admin's 8 commands 1.5 s apart wait for the bucket, not one of them is dropped
    group_notes: int = 8
    answer_lag: float = 1.0  # seconds an answer may wait behind what was asked after it
    card_lag: float = 4.0  # the same for a card or a lobby
    picture_lag: float = 20.0  # the same for the table picture's edits, the ready list
    card_interval: float = 8.0  # min seconds between two edits of a card
    lobby_interval: float = 2.0  # min seconds between two edits of a lobby
    dm_interval: float = 1.0  # the same in one private chat
    # calls a private chat may take ahead of that pace (Telegram lets a chat go over its one
    # a second in short bursts), spent only on a seat's new buttons (bot.present.seats)
    dm_burst: int = 1
    send_interval: float = 0.04  # the same over all chats (25 a second)
    ping_delay: float = 10.0  # a decision still open this long gets a ping
    slow_reping: float = 90.0  # at a 慢速 table, a second ping this long after it was shown
    pressed_pace: float = 3.0  # a seat's own change without new buttons is held at most this
    # A waiting seat's picture (the whole table) follows it at most this often: "within a
    # few seconds", merged into one edit. Measured with bench/bench_load.py: 5 s keeps the Bot
    # API calls per action within 10 % of the 15 s used before.
    table_pace: float = 5.0
    topic_retry: float = 60.0  # a forum topic refusing posts is looked at again this often
    # The group's table picture, while every player of the table is on his live page, is
    # edited at most this often (bench/bench_load.py --webapp-seats 3 --think 3: 0.73 Bot
    # API calls a move at the group_interval with 100 tables; at 200, 0.24 at 10 s, so
    # 294-353 tables a token at 25-30 messages a second, short of 300 at the bot's 25)
    onlooker_pace: float = 12.0
    first: frozenset[Send] = TOUCHED_FIRST  # served ahead of the rest (outboxes, gate)


def goes_first(pacing: Pacing, send: Send) -> bool:
    """Whether a call of this kind goes ahead of the others at the bot-wide gate."""
    return send in pacing.first


# what goes first in a group: a hand's first picture, its settlement, a match's end, buttons
PLAY = frozenset({Send.FIRST_PICTURE, Send.LIVE_SETTLEMENT, Send.SETTLEMENT,
                  Send.MATCH_SUMMARY, Send.DECISION, Send.PROBE})
ANSWERS = frozenset({Send.ANSWER, Send.NEW_LOBBY})  # a person's command answered


@dataclass(frozen=True)
class Rank:
    """How a group's outbox weighs a call of one kind: it may wait ``lag`` seconds behind
    what was asked after it; it leaves ``reserve`` of the group's bucket for the others
    until its lag is over (a ``patient`` one for as long as the group is not silent); its
    key's calls come at least ``spacing`` seconds apart (what is asked meanwhile merges into
    the one waiting)."""

    lag: float = 0.0
    reserve: int = 0
    spacing: float = 0.0
    patient: bool = False

    def merge(self, other: Rank) -> Rank:
        """A key asked again before its call: what the most pressing of the two asks needs."""
        return Rank(min(self.lag, other.lag), min(self.reserve, other.reserve),
                    min(self.spacing, other.spacing), self.patient and other.patient)


FIRST = Rank()  # a private chat's: in the order asked, ahead of the others
LATER = Rank(lag=math.inf)  # a private chat's: when nothing goes first


def group_rank(pacing: Pacing, send: Send) -> Rank:
    """The :class:`Rank` of a call of this kind in a group (see the module's doc)."""
    if send in PLAY:
        return Rank()
    if send in ANSWERS:
        return Rank(lag=pacing.answer_lag)
    if send == Send.CARD:
        return Rank(lag=pacing.card_lag, reserve=pacing.card_reserve,
                    spacing=pacing.card_interval)
    if send == Send.LOBBY_EDIT:  # a person's press changed it: no reserve left
        return Rank(lag=pacing.card_lag, spacing=pacing.lobby_interval)
    return Rank(lag=pacing.picture_lag, reserve=pacing.group_reserve,
                spacing=pacing.group_interval, patient=True)


def group_rate(pacing: Pacing) -> float:
    """Calls a second a group's bucket gains: what the budget leaves beyond its burst."""
    return max(1, pacing.group_budget - pacing.group_burst) / pacing.group_window


def group_tokens(pacing: Pacing, *, now: float, sent: Sequence[float]) -> float:
    """The calls a group's bucket holds at ``now``, after its calls at ``sent`` (oldest
    first; each took one, and the bucket was full before the first)."""
    rate, full = group_rate(pacing), float(pacing.group_burst)
    tokens, last = full, -math.inf
    for at in sent:
        tokens, last = min(full, tokens + (at - last) * rate) - 1, at
    return min(full, tokens + (now - last) * rate)


def group_wait(pacing: Pacing, *, now: float, sent: Sequence[float], rank: Rank = FIRST,
               due: float = math.inf) -> float:
    """Seconds until a group may make its next call (0 or less: now), given the times of
    its calls ``sent`` (oldest first): once its bucket holds the call, and while no
    ``group_window`` holds more than ``group_budget``. A call of a ``rank`` that leaves a
    reserve of the bucket to the others waits for that too, until its ``due`` time (a
    patient one: past it), and never once the group has had no call for ``group_idle``
    seconds: a reserve makes no silence."""
    reserve = min(rank.reserve, pacing.group_burst - 1)
    tokens = group_tokens(pacing, now=now, sent=sent)
    wait = max(0.0, 1 - tokens) / group_rate(pacing)
    if reserve > 0:
        last = sent[-1] if sent else -math.inf
        release = last + pacing.group_idle if rank.patient else min(due, last + pacing.group_idle)
        wait = max(wait, min(max(0.0, 1 + reserve - tokens) / group_rate(pacing),
                             release - now))
    recent = [at for at in sent if at > now - pacing.group_window]
    if len(recent) >= pacing.group_budget:
        wait = max(wait, recent[len(recent) - pacing.group_budget] + pacing.group_window - now)
    return wait


@dataclass(frozen=True)
class Waiting:
    """A call waiting in a chat's outbox, as :func:`pick` weighs it."""

    key: Hashable
    due: float  # when its lag is over (counted from the first ask it merged)
    order: int  # the order it was first asked in
    ready_at: float  # when the chat may take it: its pace, its bucket, its key's spacing


def pick(waiting: Sequence[Waiting], now: float, *,
         strict: bool = False) -> tuple[Hashable | None, float]:
    """The call to make now (its key and 0), or none and the seconds until one may go: the
    one whose lag is over first (then the first asked) among those the chat may take now.
    ``strict`` (a private chat, whose calls go in their order): that one of them all, or
    none until it may."""
    if not waiting:
        return None, math.inf
    ranked = sorted(waiting, key=lambda w: (w.due, w.order))
    if strict:
        head = ranked[0]
        return (head.key, 0.0) if head.ready_at <= now else (None, head.ready_at - now)
    ready = next((w for w in ranked if w.ready_at <= now), None)
    if ready is not None:
        return ready.key, 0.0
    return None, min(w.ready_at for w in waiting) - now


def catch_up_pace(pacing: Pacing) -> float:
    """How often a waiting seat's private picture follows the table: at most every
    ``table_pace`` seconds, and never more often than the group's picture can change."""
    return max(pacing.table_pace, pacing.group_interval)


def table_picture_wait(pacing: Pacing, *, now: float, shown_at: float | None,
                       onlookers_only: bool) -> float:
    """Seconds until the group's table picture, last shown at ``shown_at``, may be edited
    (0 or less: now, as far as this rule goes; the group's budget is the outbox's). Only
    when it is ``onlookers_only`` (every player of the table on his live page) is it held,
    to ``onlooker_pace``."""
    if not onlookers_only or shown_at is None:
        return 0.0
    return shown_at + pacing.onlooker_pace - now


def hand_hold(pacing: Pacing, *, own_change: bool, alone: bool = False,
              moved: bool = False, moving_on: bool = False) -> float:
    """The longest a change to a seat's private picture without new buttons may be held:
    the seat's own (``own_change``: its cards, its keyboard going) or the table's alone.
    A seat ``alone`` with computer players holds nothing once another seat ``moved`` (a
    discard) since his picture was shown: each computer move shows as it comes; his own
    move (at most ``pressed_pace``), and what a computer took or flipped before its discard
    (at most ``dm_interval``), ride with the next: his chat's one edit a second is spent on
    the moves that end a turn, and is free when his buttons come. While the table is
    ``moving_on`` at once (a computer's answer is due now), the state it comes to rides
    instead (at most ``dm_interval``): an edit of the state between would spend the edit his
    buttons, coming next, may need."""
    if alone:
        if moved:
            return pacing.dm_interval if moving_on else 0.0
        return pacing.pressed_pace if own_change else pacing.dm_interval
    return pacing.pressed_pace if own_change else catch_up_pace(pacing)


def hand_wait(pacing: Pacing, *, now: float, held_since: float, own_change: bool,
              alone: bool = False, moved: bool = False, moving_on: bool = False) -> float:
    """Seconds left to hold a change to a seat's picture that has waited since
    ``held_since`` (0 or less: send it now)."""
    return held_since + hand_hold(pacing, own_change=own_change, alone=alone,
                                  moved=moved, moving_on=moving_on) - now


class Picture(Enum):
    """What becomes of a change to a seat's private picture now."""

    SEND = "send"  # sent or edited now
    HOLD = "hold"  # held: it rides on a later edit (:func:`seat_wait` says when to look again)
    SKIP = "skip"  # nothing to send: the picture shows it already, or his live page does


@dataclass(frozen=True)
class SeatChange:
    """A change to a seat's private picture as the policy weighs it (times: loop time)."""

    live: bool = False  # his live page is open (bot.present.live): it shows the change
    posted: bool = True  # the picture is there (it is not: sent whatever changed)
    unchanged: bool = False  # the picture shows it already
    urgent: bool = False  # new buttons, or buttons withdrawn unanswered
    fresh: bool = False  # not shown since a restart: refreshed at once
    playing: bool = True  # the hand is played (its end is shown at once)
    flushing: bool = False  # everything held is being sent now (Chats.idle)
    now: float = 0.0
    held_since: float | None = None  # held since (None: not yet)
    own_change: bool = False  # the seat's own (its cards, its keyboard going): hand_hold
    alone: bool = False  # the seat plays alone with computer players: hand_hold
    moved: bool = False  # another seat discarded since the picture was shown: hand_hold
    moving_on: bool = False  # a move of a computer (or 托管) is due at once: hand_hold


def seat_picture(pacing: Pacing, change: SeatChange) -> Picture:
    """Whether a change to a seat's picture is sent now, held, or not sent (see the module's
    doc); a held one is looked at again in :func:`seat_wait` seconds."""
    if change.live:
        return Picture.SKIP
    if not change.posted:
        return Picture.SEND
    if change.unchanged:
        return Picture.SKIP
    if change.urgent or change.fresh or not change.playing or change.flushing:
        return Picture.SEND
    return Picture.HOLD if seat_wait(pacing, change) > 0 else Picture.SEND


def seat_wait(pacing: Pacing, change: SeatChange) -> float:
    """Seconds left to hold the change (0 or less: none); one not held yet is held from now."""
    held_since = change.now if change.held_since is None else change.held_since
    return hand_wait(pacing, now=change.now, held_since=held_since,
                     own_change=change.own_change, alone=change.alone, moved=change.moved,
                     moving_on=change.moving_on)


def next_ping_after(pacing: Pacing, *, pings: int, slow: bool,
                    timeout: float) -> float | None:
    """Seconds after a decision was shown that its next ping is due, given the ``pings``
    already sent for it and the decision's ``timeout``; None when it has had them: one, or
    at a 慢速 table two (托管 only comes after the second)."""
    if pings == 0:
        return pacing.ping_delay if slow else max(pacing.ping_delay, timeout / 2)
    if pings == 1 and slow:
        return pacing.slow_reping
    return None
