"""A seat's screen: its private hand message — the whole table as that seat may see it
(托管 and 电脑 marks, its 听), a caption saying what the table waits for without naming who
may claim, and a keyboard of exactly its legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import t
from bot.present import fairness
from bot.present.screens.words import (
    QUIET_EVENTS,
    claim_taker,
    cup_prefix,
    event_line,
    table_no,
    waiting_line,
)
from bot.table import HandRecord, Table, TableStatus, robots
from engine import actions as A
from engine.rules import RuleSet
from engine.ting import ting as compute_ting
from engine.views import OutcomeKind, PrivateView
from render import render_hand

DISCARDS_PER_ROW = 5
MOVES_LISTED = 12  # the latest moves a lone player's caption lists since his last move
OWN_MOVES = frozenset({"discard", "chi", "peng", "pass"})  # events of a seat's own choosing
# not listed: the quiet ones, and the cards flipped from the wall, which the picture shows
# (the card on offer, then in its seat's row)
UNLISTED = QUIET_EVENTS | {"draw"}


@dataclass(frozen=True)
class SeatMarks:
    """What a seat's picture marks beside the names: seats in 托管 as that seat may know it,
    and computer players."""

    trustee: frozenset[int] = frozenset()
    robots: frozenset[int] = frozenset()


def hand_signature(view: PrivateView, names: Sequence[str], lang: str,
                   marks: SeatMarks = SeatMarks()) -> tuple[object, ...]:
    """Everything ``render_hand`` draws, the whole table as the seat sees it: equal
    signatures mean an identical picture. The seat's 听 is a function of the view's parts
    here (its legal discards and 臭胡 kinds included), so it is computed only to draw."""
    pub = view.public
    return (view.seat, view.hand, view.kans, view.melds, view.huxi, view.chou, view.highlight,
            view.legal, view.no_win, pub.dealer, pub.seats, pub.stock_count, pub.offer,
            pub.to_act, pub.waiting, pub.outcome is not None, pub.last_event, tuple(names), lang,
            marks)


def draw_hand(view: PrivateView, names: Sequence[str], lang: str, marks: SeatMarks,
              rules: RuleSet) -> bytes:
    """The seat's picture (``render_hand``) with its 听 while the hand is played, in the
    painter's thread or process: the analyzer is not free, so 听 is computed only to draw, from the
    seat's own view only, off the event loop (the policy's threads share its caches too)."""
    ting = compute_ting(rules, view) if view.public.outcome is None else None
    return render_hand(view, names, lang, trustee=marks.trustee, robots=marks.robots, ting=ting)


def own_part(view: PrivateView) -> tuple[object, ...]:
    """The part of ``hand_signature`` that is the seat's own; the rest is the table's (the
    highlighted card too: a card drawn or shown is shown to every seat)."""
    return (view.hand, view.kans, view.melds, view.huxi, view.chou)


def keyboard(table: Table, seat: int, lang: str) -> InlineKeyboardMarkup | None:
    """Exactly the seat's legal actions, 提示 and 解散 (proposing to end the hand), or the
    take-back button while in 托管."""
    player, decision = table.players[seat], table.decisions[seat]
    if player.autoplay:
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(t(lang, "btn_takeback"), callback_data=cb.TakeBack(table.id).pack())]])
    if not decision.legal:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    discards: list[InlineKeyboardButton] = []
    for i, action in enumerate(decision.legal):
        button = InlineKeyboardButton(A.label(action, lang),
                                      callback_data=cb.Act(table.id, decision.version, i).pack())
        if action.startswith("d:"):
            discards.append(button)
        else:
            rows.append([button])
    rows[:0] = [discards[i:i + DISCARDS_PER_ROW] for i in range(0, len(discards), DISCARDS_PER_ROW)]
    rows.append([InlineKeyboardButton(t(lang, "btn_hint"), callback_data=cb.Hint(table.id).pack()),
                 InlineKeyboardButton(t(lang, "btn_dissolve"),
                                      callback_data=cb.Dissolve(table.id).pack())])
    return InlineKeyboardMarkup(rows)


def alone_with_robots(record: HandRecord, seat: int) -> bool:
    """Whether every other seat that plays the hand (the 醒家 sits it out) is a computer
    player: then nobody but the seat's own player is waited for, or watching."""
    xing = record.hand.rules.xing_seat(record.hand.dealer)
    return all(robots.is_robot(u) for s, u in enumerate(record.users) if s not in (seat, xing))


def hand_caption(table: Table, record: HandRecord, seat: int, view: PrivateView, lang: str, *,
                 asked_at: int | None) -> str:
    """The hand message's caption: table and hand, the seat's 胡息, who took the card it was
    last asked about (``asked_at``: where the hand's history stood then), alone with computer
    players the moves since his last (:func:`moves_line`), and its status."""
    head = cup_prefix(table, lang) + t(lang, "dm_caption", table=table_no(table),
                                       hand=record.table_no, huxi=view.huxi)
    if table.private and record.hand.seed is not None:  # no group picture to show the 🔒
        head += " · " + fairness.seal(record.hand.seed, lang)
    taken = taken_line(record, seat, asked_at, lang) if not view.legal else None
    over = record.hand.is_terminal() or table.status == TableStatus.CLOSED
    moves = moves_line(record, seat, lang) \
        if not over and alone_with_robots(record, seat) else None
    if over:
        status = over_line(record, lang)
    elif table.players[seat].autoplay:
        status = t(lang, "dm_autoplay")
    elif not view.legal:
        status = waiting_line(view.public, record.names, lang) or t(lang, "dm_wait")
    elif any(a.startswith("d:") for a in view.legal):
        status = t(lang, "dm_turn_discard")
    else:
        status = t(lang, "dm_turn_claim")
    return "\n".join(line for line in (head, taken, moves, status) if line)


def moves_line(record: HandRecord, seat: int, lang: str) -> str | None:
    """The public moves since the seat's last move of its own choosing (since the deal
    before it has one), the latest :data:`MOVES_LISTED`: a player alone with computer players
    reads in it each of their moves, also those that came faster than his chat's one edit a
    second (bot.table.clock.Pace.alone_paced), and, with his buttons, all he missed."""
    history = record.hand.history
    since = next((i + 1 for i in range(len(history) - 1, -1, -1)
                  if history[i].seat == seat and history[i].kind in OWN_MOVES), 0)
    events = [e for e in history[since:] if e.visible_to is None and e.kind not in UNLISTED]
    if not events:
        return None
    moves = t(lang, "part_sep").join(event_line(e, record.names, lang)
                                     for e in events[-MOVES_LISTED:])
    return t(lang, "dm_moves", moves=("… " if len(events) > MOVES_LISTED else "") + moves)


def taken_line(record: HandRecord, seat: int, asked_at: int | None, lang: str) -> str | None:
    """Who took the card the seat was last asked about ("Bob 碰了这张牌"): it tells a seat
    whose buttons went, or whose 吃 was overtaken, what happened."""
    if asked_at is None:
        return None
    event = claim_taker(record.hand.history, asked_at)
    if event is None or event.seat is None or event.seat == seat:
        return None
    return t(lang, f"taken_{event.kind}", name=record.names[event.seat])


def with_clock(parts: list[str], seconds_left: int | None, lang: str) -> list[str]:
    """``parts`` and the time left on the seat's open decision, if it has one."""
    return parts if seconds_left is None else [*parts, t(lang, "time_left", seconds=seconds_left)]


def robots_of(record: HandRecord) -> frozenset[int]:
    """The hand's seats played by the computer."""
    return frozenset(s for s, user_id in enumerate(record.users) if robots.is_robot(user_id))


def over_line(record: HandRecord, lang: str) -> str:
    """Why the hand ended, for a seat's caption: who left (逃跑), 解散, voided by /stop (no
    outcome), else just that it is over (the result message under it tells the rest)."""
    outcome = record.hand.outcome
    if outcome is None:
        return t(lang, "dm_over_voided")
    if outcome is not None and outcome.kind == OutcomeKind.ESCAPE and outcome.escaper is not None:
        return t(lang, "dm_over_escape", name=record.names[outcome.escaper])
    if outcome is not None and outcome.kind == OutcomeKind.DISSOLVED:
        return t(lang, "dm_over_dissolved")
    return t(lang, "dm_over")
