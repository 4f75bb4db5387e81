"""Play: dealing a hand, applying a move, the seats' decisions, and what a move press is
answered with. Each change writes in the unit of work's transaction (:mod:`bot.table.work`)
and mirrors itself on the table in memory; nothing here tells anyone.

The order of claims on an offered card (胡 > 跑 > 碰 > 吃) is the engine's
(:mod:`engine.state`; docs/rules/qq.md, 行牌 · Play): a claim pressed while a higher one is undecided
waits, and the press that lets a higher claim take the card is answered with who took it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from bot.store import Store, Tx
from bot.table import birds, house, lobby, matches
from bot.table.model import (
    Decision,
    HandRecord,
    Match,
    PressAnswer,
    Refusal,
    Table,
    TableStatus,
)
from engine import actions as A
from engine.rules import RuleSet
from engine.state import Hand, IllegalAction
from engine.views import Event

# Public events that settle an offered card (or the hand): who took it, or that nobody did.
_TAKING = frozenset({"hu", "pao", "peng", "chi", "to_row", "escape", "huangzhuang", "dissolve"})
_MOVE_EVENT = {"chi": "chi", A.PENG: "peng", A.HU: "hu"}  # an action kind's event kind
_TAKEN = frozenset({"hu", "pao", "peng", "chi", "escape"})  # each has its "taken_<kind>" answer


def _progress(hand: Hand) -> int:
    """Counts every event but passes: two decisions with equal legal lists differ by it."""
    return sum(1 for e in hand.history if e.kind != "pass")


def replay(rules: RuleSet, *, seed: int, dealer: int, base: int | None,
           log: Sequence[tuple[int, str]], times: Sequence[float] = (),
           started: float | None = None) -> tuple[Hand, float | None]:
    """A stored hand replayed from its log, and when the decisions it now awaits were first
    awaited: when the last move that changed them was stored (``times``, by move; the deal,
    ``started``, if none did), as :func:`refresh_decisions` gives a decision anew only when
    its legal moves or :func:`_progress` change, which a pass alone does not. None when the
    store kept no times."""
    hand = Hand.new(rules, seed=seed, dealer=dealer, base=base)
    awaited = started
    for i, (seat, action) in enumerate(log):
        before = len(hand.history)
        hand.apply_logged(seat, action)
        if any(e.kind != "pass" for e in hand.history[before:]):
            awaited = times[i] if i < len(times) else None
    return hand, awaited


def refresh_decisions(table: Table, now: float) -> None:
    """Give every seat whose legal actions (or the decision they answer) changed a new
    :class:`Decision`, first awaited ``now``."""
    hand = table.hand
    progress = _progress(hand) if hand is not None else 0
    for seat in table.seats:
        legal = hand.legal_actions(seat) if hand is not None else ()
        key: tuple[object, ...] = (legal, progress) if legal else ()
        old = table.decisions.get(seat)
        if old is None or old.key != key:
            events = len(hand.history) if hand is not None else 0
            decision = Decision(table.version, legal, key, now, events)
            table.decisions[seat] = decision
            if legal:
                table.offered[seat, decision.version] = decision


def mark_between(table: Table, now: float) -> None:
    """Start (or forget) the wait for 再来一局 after a change of status, or for 准备 in a
    standing table's lobby after a match (kept while someone there has not pressed it)."""
    if table.status == TableStatus.BETWEEN or lobby.awaits_ready(table):
        if table.between_since is None or table.status == TableStatus.BETWEEN:
            table.between_since = now
    else:
        table.between_since = None


async def deal(tx: Tx, store: Store, table: Table, rng: random.Random, seed: int | None,
               now: float) -> HandRecord:
    """Deal the table's next hand (a match's first deal starts the match); a hand that ends
    at once (a forced 天胡) is settled in the same change. ``seed``: deals follow (seed,
    table, hand number) only, restart-proof; else they are drawn from ``rng``."""
    version = table.version + 1
    rules = table.rules
    # a write first: the transaction (and the store's write lock) begins here; the group's
    # number is read in it under the group's lock, so that two tables of one group (two
    # forum topics, maybe two bots') dealing at once never draw the same number
    await tx.reset_seats(table.id)
    no = await tx.next_hand_no(table.chat_id)
    table_no = await store.next_table_hand_no(table.id)
    if seed is not None:
        rng = random.Random(f"{seed}:{table.id}:{no}")
    dealer = table.dealer if table.dealer is not None \
        else house.first_dealer(table, rng.randrange(rules.players))
    hand_seed = rng.getrandbits(64)
    hand = Hand.new(rules, seed=hand_seed, dealer=dealer, base=table.base)
    hand_id = await tx.create_hand(table.id, no, table_no, rules.key, hand_seed, dealer)
    match = table.match
    if match is None and table.match_hands > 1:  # a match's first deal
        match = Match(await tx.create_match(table.id, table.match_hands), table.match_hands)
    place = None
    if match is not None:
        await tx.update_hand(hand_id, match_id=match.id)
        place = (match.hand_no, match.hands)
    await birds.deal(tx, table, hand_id)
    await tx.update_table(table.id, status=TableStatus.PLAYING, dealer=dealer, version=version)
    record = HandRecord(hand_id, no, hand, tuple(table.players[s].user_id for s in table.seats),
                        table.names(), match_place=place, table_no=table_no)
    cols = await matches.settle(tx, table, record, match) if hand.is_terminal() else {}
    table.current, table.match = record, match
    table.version = version
    table.status, table.dealer = TableStatus.PLAYING, dealer
    for p in table.players.values():
        p.ready = p.autoplay = False
    table.offered.clear()
    table.pressed.clear()
    table.full_since = None
    matches.set_columns(table, cols)
    refresh_decisions(table, now)
    mark_between(table, now)
    return record


async def apply(tx: Tx, table: Table, seat: int, action: str, *, auto: bool, now: float,
                leaving: bool = False) -> None:
    """Apply a move (``auto``: the bot's, for a computer player or a seat it puts in 托管)
    and write it; a hand it ends is settled. ``leaving``: the seat's 逃跑, which unseats it.
    Refused as outdated when the hand no longer allows it."""
    record = table.current
    assert record is not None
    hand = record.hand
    try:
        hand.apply_logged(seat, action)
    except IllegalAction:
        raise Refusal("stale") from None
    version = table.version + 1
    tuoguan = auto and not table.players[seat].robot  # a computer player is not in 托管
    if await tx.append_action(record.id, seat, action, auto) != len(hand.log) - 1:
        raise Refusal("stale")  # memory is not what the store holds: read again, retried
    if tuoguan and not table.players[seat].autoplay:
        await tx.update_seat(table.id, seat, autoplay=1)
    cols: dict[str, object] = {}
    if hand.is_terminal():
        cols = await matches.settle(tx, table, record, table.match,
                                    leaver=record.users[seat] if leaving else None)
    if leaving:
        await lobby.unseat(tx, table, seat)
    await tx.update_table(table.id, version=version)
    table.version = version
    if tuoguan:
        table.players[seat].autoplay = True
    matches.set_columns(table, cols)
    if leaving:
        lobby.drop(table, seat)
    refresh_decisions(table, now)
    mark_between(table, now)


def take_back(table: Table, seat: int, now: float) -> None:
    """Memory side of switching a seat's 托管 off: its clock starts afresh."""
    table.players[seat].autoplay = False
    decision = table.decisions.get(seat)
    if decision is not None:
        table.decisions[seat] = dataclasses.replace(decision, since=now)


def pressed_move(table: Table, seat: int, version: int, index: int) -> str | None:
    """The action a press names when it is of the seat's current decision (None: an older
    keyboard, see :func:`old_press`); refused as outdated for a button it does not have."""
    decision = table.decisions.get(seat)
    if table.hand is None or decision is None or not decision.legal \
            or decision.version != version:
        return None
    if not 0 <= index < len(decision.legal):
        raise Refusal("stale")
    return decision.legal[index]


def old_press(table: Table, seat: int, version: int, index: int) -> PressAnswer:
    """A press that is not of the seat's current decision: the move it just made pressed
    again (answered as the first time), a keyboard withdrawn because another seat took the
    card (answered with who took it), an outdated button, or not his decision."""
    old = table.offered.get((seat, version))
    if old is None or not 0 <= index < len(old.legal):
        decision = table.decisions.get(seat)
        mine = decision is not None and bool(decision.legal) and table.hand is not None
        raise Refusal("stale" if mine or table.hand is None else "not_your_turn")
    if table.pressed.get(seat) == (version, index):
        return press_answer(table, seat, old, old.legal[index])
    if table.pressed.get(seat, (None,))[0] == version:  # another button of a used keyboard
        raise Refusal("stale")
    taken = _taken_since(table, seat, old)
    if taken is not None:
        raise taken
    raise Refusal("stale")


def _settling_events(table: Table, decision: Decision) -> list[Event]:
    """Public events since ``decision`` was offered that settled the card (or the hand)."""
    assert table.current is not None
    history = table.current.hand.history[decision.events:]
    return [e for e in history if e.visible_to is None and e.kind in _TAKING]


def _taken_since(table: Table, seat: int, decision: Decision,
                 events: list[Event] | None = None) -> Refusal | None:
    """"Bob 碰 了这张牌" when another seat took the card (or won, or left) first; ``events``:
    the settling events, when the caller has them already."""
    if events is None:
        events = _settling_events(table, decision)
    if not events or events[0].seat in (None, seat) or events[0].kind not in _TAKEN:
        return None
    assert table.current is not None
    return Refusal(f"taken_{events[0].kind}", name=table.current.names[events[0].seat])


def press_answer(table: Table, seat: int, decision: Decision, action: str) -> PressAnswer:
    """``played`` once the move is applied (a discard or 过 at once); ``claim_pending`` while
    a claim waits for higher ones; a refusal saying who took the card instead."""
    kind = A.parse(action).kind
    if kind in ("discard", A.PASS):
        return PressAnswer("played", action)
    events = _settling_events(table, decision)
    if not events:
        return PressAnswer("claim_pending", action)
    if events[0].seat == seat and events[0].kind == _MOVE_EVENT.get(kind):
        return PressAnswer("played", action)
    taken = _taken_since(table, seat, decision, events)
    raise taken if taken is not None else Refusal("stale")
