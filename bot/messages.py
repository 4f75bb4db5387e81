"""Layout: turning table state into Bot API calls.

The group gets one panel at a time: the lobby message, one photo per hand (edited as the hand
goes, with a short move log), then a settlement message with 再来一局 / 离开. Every group call
goes through the group's :class:`~bot.outbox.Outbox`, paced to one call per
``group_interval`` seconds. Each seated player has one hand message in the private chat (photo
and a keyboard of exactly his legal actions), paced to one call per ``dm_interval`` seconds
(Telegram allows about one a second in a private chat). Its picture is the whole table as
that seat may see it (托管 and 电脑 marks, its 听); its caption says what the table waits for
without naming who may claim, and the time left on the seat's own decision. It is edited at
once when a new decision is his or his buttons are withdrawn; any other change to it waits a
little and rides on the next edit (see :meth:`Presenter._sync_hand`). A short ping, which
unlike an edit notifies, goes to a player whose decision has waited ``PING_DELAY`` seconds,
and is deleted once he has answered (at a 慢速 table a second one follows before 托管). The
hand's 醒家 (湖南, 4 seats) sits it out: he gets one short line instead of a hand message,
never a picture, a button or a ping. Every call waits its turn at the bot-wide
:class:`~bot.gate.Gate`.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from weakref import WeakKeyDictionary

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaPhoto,
    Message,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from bot import callbacks as cb
from bot import fairness, replays
from bot.gate import Gate
from bot.i18n import rule_set_name, t
from bot.outbox import Job, Outbox
from bot.present import birds
from bot.store import BirdRow, MatchRow, PlayedHand, Store
from bot.table import (
    BASES,
    MATCHES,
    SLOW,
    TIMERS,
    Decision,
    HandRecord,
    Match,
    Table,
    TableService,
    robots,
)
from bot.table import birds as table_birds
from engine import actions as A
from engine import cards as C
from engine.record import seed_commitment
from engine.rules import RULE_SETS, RuleSet, get_rule_set
from engine.state import Hand
from engine.ting import ting as compute_ting
from engine.views import Event, OutcomeKind, PrivateView, PublicView
from render import render_hand, render_settlement, render_table
from render.match import MatchHand, MatchSummary, render_match

log = logging.getLogger(__name__)

LOG_EVENTS = 5  # public events shown under the table photo
QUIET_EVENTS = frozenset({"deal", "pass", "to_row"})
CLAIM_ENDS = frozenset({"chi", "peng", "pao", "hu", "to_row"})  # events that settle a claim
DISCARDS_PER_ROW = 5
PING_DELAY = 10.0  # a decision still open this long gets a ping (seconds)
SLOW_REPING = 90.0  # at a 慢速 table a decision still open this long gets a second ping
PRESSED_PACE = 3.0  # a seat's own change without new buttons is held at most this long
# A table whose forum topic is closed (Telegram refuses the bot's posts there) looks again
# this often (seconds), and posts what is missing once the topic is open again.
TOPIC_RETRY = 60.0
# A waiting seat's picture (the whole table since #14) follows it at most this often
# (seconds): "within a few seconds", merged into one edit. Measured with bench/bench_load.py:
# 5 s keeps the Bot API calls per action within 10 % of the 15 s used before.
TABLE_PACE = 5.0
MAX_CAPTION = 1024  # Telegram's caption limit, in UTF-16 code units


@dataclass
class _Shown:
    """What one hand message shows now."""

    msg_id: int | None = None
    lang: str = "zh"
    image: object = None
    caption: tuple[str, InlineKeyboardMarkup | None] | None = None
    pinged: int | None = None  # decision version the last ping was for
    pings: int = 0  # pings sent for that version (a 慢速 table pings twice)
    offered: tuple[int, float] | None = None  # decision version shown, and since (loop time)
    own: object = None  # the seat's own part of the picture (see _own)
    held_since: float | None = None  # a change held back since (loop time)
    asked: _Asked | None = None  # the last claim decision shown


@dataclass(frozen=True)
class _Asked:
    """A claim decision (吃/碰/胡 on a card) as its message showed it: how far the hand's log
    and history were then, to tell later whether the seat answered and who took the card."""

    version: int
    log_at: int
    history_at: int


@dataclass(frozen=True)
class _HandPlan:
    """An edit of a hand message about to be made (see ``Presenter._hand_plan``)."""

    shown: _Shown
    view: PrivateView
    marks: SeatMarks
    image: tuple[object, ...]
    text: tuple[str, InlineKeyboardMarkup | None]  # caption and keyboard
    own: object
    urgent: bool  # it shows new buttons


@dataclass
class _HandShown:
    """What the messages of one hand show now. Kept in memory only, weakly keyed by the hand
    record (so it goes when the hand does); after a restart every message is refreshed."""

    seats: dict[int, _Shown] = field(default_factory=dict)
    table: tuple[PublicView, str] | None = None  # the group's table photo: view and caption
    settle_caption: str | None = None
    totals: dict[int, int] | None = None  # table totals after this hand, by user
    birds: list[BirdRow] | None = None  # its birds (打鸟), as settled
    trustee: set[int] = field(default_factory=set)  # seats whose 托管 the table may know


@dataclass
class _Held:
    """A job to be queued later (see :meth:`Presenter._put_after`)."""

    task: asyncio.Task[None]
    job: Job
    due: float  # loop time


@dataclass
class _TableShown:
    lobby_text: str | None = None
    lobby_markup: InlineKeyboardMarkup | None = None  # its keyboard (the ⚙ one or the main)
    open_settlement: HandRecord | None = None  # the hand whose settlement has buttons


@dataclass(frozen=True)
class SeatMarks:
    """What a seat's picture marks beside the names: seats in 托管 as that seat may know it,
    and computer players."""

    trustee: frozenset[int] = frozenset()
    robots: frozenset[int] = frozenset()


def draw_table(pub: PublicView, names: Sequence[str], lang: str, marks: SeatMarks) -> bytes:
    """The group's picture (``render_table``), in the renderer's thread."""
    return render_table(pub, names, lang, trustee=marks.trustee, robots=marks.robots)


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
    renderer's thread: the analyzer is not free, so 听 is computed only to draw, from the
    seat's own view only, off the event loop (the policy's threads share its caches too)."""
    ting = compute_ting(rules, view) if view.public.outcome is None else None
    return render_hand(view, names, lang, trustee=marks.trustee, robots=marks.robots, ting=ting)


def _own(view: PrivateView) -> tuple[object, ...]:
    """The part of ``hand_signature`` that is the seat's own; the rest is the table's (the
    highlighted card too: a card drawn or shown is shown to every seat)."""
    return (view.hand, view.kans, view.melds, view.huxi, view.chou)


def keyboard(table: Table, seat: int, lang: str) -> InlineKeyboardMarkup | None:
    """Exactly the seat's legal actions, 提示 and 解散 (proposing to end the hand), or the
    take-back button while in 托管."""
    player, decision = table.players[seat], table.decisions[seat]
    if player.autoplay:
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(t(lang, "btn_takeback"), callback_data=cb.simple("m", table.id))]])
    if not decision.legal:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    discards: list[InlineKeyboardButton] = []
    for i, action in enumerate(decision.legal):
        button = InlineKeyboardButton(A.label(action, lang),
                                      callback_data=cb.action(table.id, decision.version, i))
        if action.startswith("d:"):
            discards.append(button)
        else:
            rows.append([button])
    rows[:0] = [discards[i:i + DISCARDS_PER_ROW] for i in range(0, len(discards), DISCARDS_PER_ROW)]
    rows.append([InlineKeyboardButton(t(lang, "btn_hint"), callback_data=cb.simple("h", table.id)),
                 InlineKeyboardButton(t(lang, "btn_dissolve"),
                                      callback_data=cb.simple("d", table.id))])
    return InlineKeyboardMarkup(rows)


def event_line(event: Event, names: Sequence[str], lang: str) -> str:
    who = names[event.seat] if event.seat is not None else ""
    what = t(lang, f"ev_{event.kind}")
    cards = " ".join(C.format_cards(g) for g in event.groups) if event.groups \
        else C.format_cards(event.cards)
    return " ".join(p for p in (who, what, cards) if p)


def move_log(record: HandRecord, lang: str) -> list[str]:
    """The last few public events: only ``visible_to is None`` ones, with the cards they show."""
    events = [e for e in record.hand.history
              if e.visible_to is None and e.kind not in QUIET_EVENTS]
    return [event_line(e, record.names, lang) for e in events[-LOG_EVENTS:]]


def waiting_line(pub: PublicView, names: Sequence[str], lang: str) -> str | None:
    """What the table waits for, as anyone may know it: the seat that must discard, or only
    that answers are awaited, never who is asked (#10: that would tell what he holds)."""
    if pub.to_act:
        return t(lang, "wait_discard", name=names[pub.to_act[0]])
    if pub.waiting:
        return t(lang, "wait_answers")
    return None


def claim_taker(history: Sequence[Event], since: int) -> Event | None:
    """The public event that settled the claim opened at ``history[since]``: who took the card
    (吃, 碰, 跑 or 胡), or None if it went to the discard row or is still open."""
    for event in history[since:]:
        if event.visible_to is None and event.kind in CLAIM_ENDS:
            return event if event.kind != "to_row" else None
    return None


def last_action(hand: Hand, seat: int) -> str:
    """The seat's last logged action ("" before its first)."""
    return next((action for s, action in reversed(hand.log) if s == seat), "")


def rules_label(rules: RuleSet, lang: str) -> str:
    """The rules in brief, as the pictures label them: ``湖南跑胡子 · 4人``,
    ``湖南跑胡子 · 2人 · 去20张``, ``QQ跑胡子 · 3人``."""
    parts = [rule_set_name(rules.id, lang), t(lang, "rules_seats", n=rules.players)]
    if rules.two_seat:
        parts.append(t(lang, f"two_{rules.two_seat}"))
    return " · ".join(parts)


def timer_label(seconds: int | float | None, lang: str) -> str:
    if seconds == SLOW:
        return t(lang, "timer_slow")
    return t(lang, "timer_seconds", seconds=f"{seconds:g}")


def match_label(hands: int, lang: str) -> str:
    """单局 for single hands, else ``8局``."""
    return t(lang, "match_single") if hands == 1 else t(lang, "match_hands", n=hands)


def signed(points: int) -> str:
    return f"{points:+,}" if points else "0"


def match_scores(names: Sequence[str], totals: Sequence[int], lang: str) -> str:
    """``A +6 · B -3 · C -3``: each player's match score."""
    return " · ".join(t(lang, "match_score", name=n, points=signed(p))
                      for n, p in zip(names, totals, strict=True))


def match_lines(record: HandRecord, match: Match | None, lang: str) -> list[str]:
    """The caption lines of a hand of a match: 第 k/N 局 and, once a hand of it is played,
    each seat's running match score (none for a single hand)."""
    if record.match_place is None:
        return []
    k, n = record.match_place
    lines = [t(lang, "match_hand", k=k, n=n)]
    if match is not None and match.played:
        lines.append(t(lang, "match_scores", scores=match_scores(record.names, match.totals,
                                                                 lang)))
    return lines


def summary_of(row: MatchRow, played: Sequence[PlayedHand]) -> MatchSummary:
    """A match's 总结算 from its finished hands as stored (each replayed for its 胡)."""
    hands = tuple(_match_hand(h) for h in played)
    names = played[0].names if played else ()
    users = played[0].users if played else ()
    leaver = users.index(row.leaver) if row.leaver in users else None
    return MatchSummary(names, row.hands, hands, leaver)


def _match_hand(played: PlayedHand) -> MatchHand:
    hand = Hand.replay(get_rule_set(played.rule_set), seed=played.seed, dealer=played.dealer,
                       base=played.base, log=list(played.log))
    outcome = hand.outcome
    assert outcome is not None, f"hand {played.id} is not over"
    win = outcome.win
    return MatchHand(played.points, outcome.winner, win.huxi if win else 0,
                     tuple(name for name, _ in win.mingtang) if win else (),
                     bool(win and win.zimo), outcome.escaper)


def summary_caption(summary: MatchSummary, row: MatchRow, lang: str) -> str:
    """The 总结算's text caption (for search and accessibility): hands, the winner, scores,
    and why it ended early."""
    totals = summary.totals()
    champions = sorted(summary.champions())
    text = t(lang, "match_caption", k=len(summary.hands), n=summary.planned,
             names=t(lang, "name_sep").join(summary.names[p] for p in champions),
             points=signed(totals[champions[0]]) if champions else "0",
             scores=match_scores(summary.names, totals, lang))
    if summary.leaver is not None:
        key = "match_caption_escaped" if summary.escaped() else "match_caption_left"
        text += "\n" + t(lang, key, name=summary.names[summary.leaver])
    elif row.status == "stopped":
        text += "\n" + t(lang, "match_caption_stopped")
    return text


def settings_keyboard(table: Table, mark: int, lang: str, timer: float) -> InlineKeyboardMarkup:
    """The lobby's ⚙ keyboard: one row per option (rule set, seats, 两人 option, 底分,
    timer: ``timer`` is the one in force, the bot's default until one is chosen), the option
    in force ticked, and 返回. (A hook for more options: a row here and
    a setting in ``TableService.configure``.)"""
    def button(label: str, code: str, on: bool) -> InlineKeyboardButton:
        return InlineKeyboardButton(("✓ " if on else "") + label,
                                    callback_data=cb.option(table.id, mark, code))
    rules = table.rules
    rows = [[button(rule_set_name(rid, lang), f"r{rid}", rid == rules.id) for rid in RULE_SETS]]
    if len(rules.seat_choices) > 1:
        rows.append([button(t(lang, "rules_seats", n=n), f"s{n}", n == rules.players)
                     for n in rules.seat_choices])
    if rules.players == 2 and rules.two_seat_choices:
        rows.append([button(t(lang, f"two_{o}"), f"x{o}", o == rules.two_seat)
                     for o in rules.two_seat_choices])
    rows.append([button(t(lang, "settings_base", base=b), f"b{b}", b == table.base)
                 for b in BASES])
    rows.append([button(timer_label(s, lang), f"t{s}", s == timer) for s in TIMERS])
    rows.append([button(match_label(n, lang), f"h{n}", n == table.match_hands) for n in MATCHES])
    rows.append([InlineKeyboardButton(t(lang, "btn_settings_back"),
                                      callback_data=cb.option(table.id, mark, "k"))])
    return InlineKeyboardMarkup(rows)


class Presenter:
    """The Telegram side of the table observer: schedules every message and edit."""

    def __init__(self, bot: Bot, store: Store, service: TableService, *, group_interval: float,
                 dm_interval: float, send_interval: float, default_lang: str,
                 username: str) -> None:
        self.bot = bot
        self.store = store
        self.service = service
        self.group_interval = group_interval
        self.dm_interval = dm_interval
        self.default_lang = default_lang
        self.username = username
        self._outboxes: dict[Hashable, Outbox] = {}  # by chat; ("tidy", chat) for deletions
        self._unpinging: set[tuple[int, int]] = set()  # pings (chat, message) being deleted
        self._hands: WeakKeyDictionary[HandRecord, _HandShown] = WeakKeyDictionary()
        self._tables: WeakKeyDictionary[Table, _TableShown] = WeakKeyDictionary()
        self._group_lang: dict[int, str] = {}
        self._moved: dict[int, int] = {}  # basic group id -> its supergroup's id
        self._note_ids = itertools.count()
        self._held: dict[tuple[int, Hashable], _Held] = {}
        self._topic_retries: dict[int, asyncio.TimerHandle] = {}  # by table
        self._flushing = False  # idle(): nothing is held back
        self.gate = Gate(send_interval)
        # one thread renders: enough for the gate's pace (a picture takes ~5 ms), and every
        # extra thread would keep its own malloc arena of picture-sized blocks
        self._renderer = ThreadPoolExecutor(1, thread_name_prefix="render")

    # --- plumbing ----------------------------------------------------------------------

    def outbox(self, chat_id: int) -> Outbox:
        box = self._outboxes.get(chat_id)
        if box is None:
            if chat_id < 0:
                box = Outbox(self.group_interval,
                             on_migrated=lambda new: self.migrate(chat_id, new))
            else:
                box = Outbox(self.dm_interval)
            self._outboxes[chat_id] = box
        return box

    def chat_now(self, chat_id: int) -> int:
        """The chat's id now: a basic group's supergroup id once it was upgraded."""
        return self._moved.get(chat_id, chat_id)

    async def migrate(self, old: int, new: int) -> None:
        """The group ``old`` became the supergroup ``new`` (told by a service message or by a
        call refused with ChatMigrated). The service moves its table and records; whatever
        is queued for the old id goes to the new one through the same outbox (one pace,
        one order), and the table's group messages are posted afresh there."""
        self._moved[old] = new
        box = self._outboxes.get(old)
        if box is not None:
            self._outboxes.setdefault(new, box)
        for chat_id in (old, new):
            self._group_lang.pop(chat_id, None)
        for table in await self.service.move_chat(old, new):
            log.info("table %s moved with its group from %s to %s", table.id, old, new)
            self._table_shown(table).lobby_text = None
            if table.current is not None:
                shown = self._hand_shown(table.current)
                shown.table, shown.settle_caption = None, None
            self.changed(table)

    def _put(self, chat_id: int, key: Hashable, job: Job) -> bool:
        return self.outbox(chat_id).put(key, job)

    def _put_after(self, delay: float, chat_id: int, key: Hashable, job: Job) -> None:
        """Queue ``job`` in ``delay`` seconds, or sooner if the key is already held for
        sooner (one held job per key: it reads the state when it runs)."""
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        held = self._held.get((chat_id, key))
        if held is not None:
            if held.due <= due:
                return
            held.task.cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            del self._held[chat_id, key]
            self._put(chat_id, key, job)
        self._held[chat_id, key] = _Held(loop.create_task(later()), job, due)

    async def idle(self) -> None:
        """Send what is held back now, then wait until nothing is queued (tests)."""
        self._flushing = True
        try:
            while self._held or any(b.busy for b in self._outboxes.values()):
                for (chat_id, key), held in list(self._held.items()):
                    del self._held[chat_id, key]
                    held.task.cancel()
                    self._put(chat_id, key, held.job)
                await asyncio.gather(*(b.drain() for b in self._outboxes.values() if b.busy))
        finally:
            self._flushing = False

    async def _render(self, draw: Callable[..., bytes], *args: object) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self._renderer, draw, *args)

    def shutdown(self) -> None:
        self.gate.cancel()
        self._renderer.shutdown(wait=False, cancel_futures=True)
        for held in self._held.values():
            held.task.cancel()
        for retry in self._topic_retries.values():
            retry.cancel()
        for box in self._outboxes.values():
            box.cancel()

    def _hand_shown(self, record: HandRecord) -> _HandShown:
        return self._hands.setdefault(record, _HandShown())

    def _table_shown(self, table: Table) -> _TableShown:
        return self._tables.setdefault(table, _TableShown())

    def deep_link(self, table_id: int) -> str:
        return f"https://t.me/{self.username}?start=j{table_id}"

    async def group_lang(self, chat_id: int) -> str:
        lang = self._group_lang.get(chat_id)
        if lang is None:
            lang = await self.store.chat_lang(chat_id) or self.default_lang
            self._group_lang[chat_id] = lang
        return lang

    def set_group_lang(self, chat_id: int, lang: str) -> None:
        self._group_lang[chat_id] = lang

    # --- observer ----------------------------------------------------------------------

    def changed(self, table: Table) -> None:
        if table.status == "lobby" or table.lobby_msg_id is not None:
            self._put(table.chat_id, ("lobby", table.id), lambda: self._lobby(table))
        old = self._table_shown(table).open_settlement
        if old is not None and (old is not table.current or table.status != "between"):
            self._queue_settlement(table, old)  # play moved on: its buttons go
        record = table.current
        if record is None:
            return
        if table.status == "between":
            self._queue_settlement(table, record)
        elif table.status == "playing":
            self._publish_trustee(table, record)
            self._put(table.chat_id, ("table", record.id), lambda: self._table(table, record))
        for seat, user_id in enumerate(record.users):
            self._sync_hand_later(table, record, seat, user_id)

    def _publish_trustee(self, table: Table, record: HandRecord) -> None:
        """Tell the table which seats are in 托管, each once with a line in the group, as soon
        as that tells nobody more than the play itself: a timeout on a claim would show that
        the seat had been asked (what it holds), so its 托管 waits for its next public turn
        (a discard) or the end of the hand. A seat that took back is unmarked at once."""
        trustee = self._hand_shown(record).trustee
        if not trustee and not any(p.autoplay for p in table.players.values()):
            return
        public_turn = record.hand.public_view().to_act
        for seat, user_id in enumerate(record.users):
            player = table.players.get(seat)
            if player is None or player.user_id != user_id or not player.autoplay:
                trustee.discard(seat)
                continue
            if seat in trustee:
                continue
            if record.hand.is_terminal() or seat in public_turn \
                    or last_action(record.hand, seat).startswith("d:"):
                trustee.add(seat)
                name = record.names[seat]
                self.note(table.chat_id, lambda lang, name=name: t(lang, "trustee_note", name=name),
                          thread_id=table.thread_id)

    def settled(self, table: Table, record: HandRecord) -> None:
        self._publish_trustee(table, record)
        self._put(table.chat_id, ("table", record.id), lambda: self._table(table, record))
        self._queue_settlement(table, record)
        for seat, user_id in enumerate(record.users):
            if table.seat_of(user_id) is None:  # left (逃跑): final picture, no keyboard
                self._sync_hand_later(table, record, seat, user_id)

    def unposted(self, table: Table, record: HandRecord) -> None:
        """After a restart: post the settlement of a hand the group never saw (without
        buttons: its table has moved on)."""
        self._queue_settlement(table, record)

    def match_over(self, table: Table, match_id: int) -> None:
        """Post a match's 总结算 (picture and text caption) in the table's topic, once: after
        the settlement of its last hand, which is queued first."""
        self._put(table.chat_id, ("match", match_id),
                  lambda: self._match_summary(table, match_id))

    async def _match_summary(self, table: Table, match_id: int) -> int:
        row = await self.store.match(match_id)
        if row is None or row.summary_msg_id is not None:
            return 0
        summary = summary_of(row, await self.store.match_played(match_id))
        lang = await self.group_lang(table.chat_id)
        photo = await self._render(render_match, summary, lang)
        caption = summary_caption(summary, row, lang)
        await self.gate.slot()
        msg = await self._post(table, lambda: self.bot.send_photo(
            table.chat_id, photo, caption=caption, message_thread_id=table.thread_id))
        if msg is not None:
            await self.service.remember_match(match_id, msg.message_id)
        return 1

    def _queue_settlement(self, table: Table, record: HandRecord) -> None:
        self._put(table.chat_id, ("settle", record.id), lambda: self._settlement(table, record))

    def closed(self, table: Table) -> None:
        """The table is gone: its lobby (if shown) says so without buttons, else a note."""
        if table.lobby_msg_id is not None:
            self._put(table.chat_id, ("lobby", table.id), lambda: self._lobby(table))
        else:
            self.note(table.chat_id, lambda lang: t(lang, "stopped"), thread_id=table.thread_id)
        old = self._table_shown(table).open_settlement
        if old is not None:  # its 再来一局 / 离开 buttons go
            self._queue_settlement(table, old)
        if table.current is not None:
            record = table.current
            for seat, user_id in enumerate(record.users):
                self._sync_hand_later(table, record, seat, user_id)

    def note(self, chat_id: int, text_of: Callable[[str], str], *, lang: str | None = None,
             buttons_of: Callable[[str], Sequence[tuple[str, str]]] | None = None,
             thread_id: int | None = None) -> None:
        """A one-off text in a chat (in its forum topic ``thread_id``, if any); ``text_of(lang)``
        builds it (dropped if too many wait), in ``lang`` or the chat's language, with one row
        of (label, callback data) buttons from ``buttons_of(lang)`` if given (a question:
        确认 / 取消)."""
        async def job() -> int:
            target = self.chat_now(chat_id)
            chosen = lang or (await self.group_lang(target) if target < 0
                              else self.default_lang)
            markup = None if buttons_of is None else InlineKeyboardMarkup(
                [[InlineKeyboardButton(text, callback_data=data)
                  for text, data in buttons_of(chosen)]])
            await self.gate.slot(key=target)
            await self.bot.send_message(target, text_of(chosen), reply_markup=markup,
                                        message_thread_id=thread_id)
            return 1
        self._put(chat_id, ("note", next(self._note_ids)), job)

    def link_note(self, chat_id: int, text_of: Callable[[str], str],
                  links_of: Callable[[str], Sequence[tuple[str, str]]], *, lang: str | None = None,
                  key: Hashable | None = None) -> None:
        """A one-off text with one row of (label, URL) buttons (a deep link: 添加到群组, or
        入座 at a table), queued like a note; under ``key`` (if given) a later one replaces
        one still waiting. A private chat that refuses it (the user blocked the bot) is
        logged and skipped."""
        async def job() -> int:
            target = self.chat_now(chat_id)
            chosen = lang or (await self.group_lang(target) if target < 0
                              else self.default_lang)
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(text, url=url)
                                            for text, url in links_of(chosen)]])
            await self.gate.slot(key=target)
            try:
                await self.bot.send_message(target, text_of(chosen), reply_markup=markup)
            except Forbidden as e:
                log.info("chat %s refused a note: %s", target, e)
            return 1
        self._put(chat_id, key if key is not None else ("note", next(self._note_ids)), job)

    def document(self, chat_id: int, name: str, data: bytes,
                 caption_of: Callable[[str], str], *, lang: str | None = None,
                 thread_id: int | None = None) -> None:
        """A file in a chat (``/export``, ``/rules``; in its forum topic ``thread_id``, if
        any), queued like a note; its caption in ``lang`` or the chat's language."""
        async def job() -> int:
            target = self.chat_now(chat_id)
            chosen = lang or (await self.group_lang(target) if target < 0
                              else self.default_lang)
            await self.gate.slot(key=target)
            await self.bot.send_document(target, InputFile(data, filename=name),
                                         caption=caption_of(chosen), message_thread_id=thread_id)
            return 1
        self._put(chat_id, ("note", next(self._note_ids)), job)

    def photo(self, chat_id: int, draw: Callable[[str], bytes],
              caption_of: Callable[[str], str], *, lang: str | None = None,
              thread_id: int | None = None) -> None:
        """A picture answering a command (/rank, /me; in its forum topic ``thread_id``, if
        any), queued like a note: ``draw(lang)`` paints it on the render thread, its caption
        (the same in words, for search and screen readers) is ``caption_of(lang)``."""
        async def job() -> int:
            target = self.chat_now(chat_id)
            chosen = lang or (await self.group_lang(target) if target < 0
                              else self.default_lang)
            picture = await self._render(draw, chosen)
            caption = caption_of(chosen)
            fits = _utf16_len(caption) <= MAX_CAPTION
            await self.gate.slot(key=target)
            await self.bot.send_photo(target, picture, caption=caption if fits else None,
                                      message_thread_id=thread_id)
            if fits:
                return 1
            await self.gate.slot(key=target)  # too long for a caption: the text follows
            await self.bot.send_message(target, caption, message_thread_id=thread_id)
            return 2
        self._put(chat_id, ("note", next(self._note_ids)), job)

    def replay(self, chat_id: int, played: PlayedHand, step: int, *, lang: str | None = None,
               thread_id: int | None = None, message_id: int | None = None) -> None:
        """A replay message (``bot.replays``) at ``step``: a new one, or an edit of the one
        ``message_id``. Edits of one message share a key in the chat's outbox, so a press
        while an edit waits its turn replaces it: rapid presses cost few edits, paced like
        any other, and the last one shows the last step asked for."""
        async def job() -> int:
            target = self.chat_now(chat_id)
            chosen = lang or (await self.group_lang(target) if target < 0
                              else self.default_lang)
            picture = await self._render(replays.picture, played, step, chosen)
            caption = replays.caption(played, step, chosen)
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(text, callback_data=data) for text, data in row]
                 for row in replays.buttons(played, step)])
            await self.gate.slot(key=target)
            if message_id is None:
                await self.bot.send_photo(target, picture, caption=caption, reply_markup=markup,
                                          message_thread_id=thread_id)
            else:
                await self._edit_media(target, message_id, picture, caption, markup)
            return 1
        key = ("note", next(self._note_ids)) if message_id is None else ("replay", message_id)
        self._put(chat_id, key, job)

    # --- group panels --------------------------------------------------------------------

    async def _post(self, table: Table, send: Callable[[], Awaitable[Message]]) -> Message | None:
        """Send one of the table's group posts; None when its forum topic refuses it. Nothing
        goes elsewhere instead (not to General: the topic is the table's). A closed topic
        (TOPIC_CLOSED: only admins may post) is looked at again every ``TOPIC_RETRY``
        seconds; a deleted one ("message thread not found") closes the table once no hand
        runs (see ``TableService.abandon``)."""
        try:
            return await send()
        except BadRequest as e:
            refusal = _topic_refusal(e)
            if table.thread_id is None or refusal is None:
                raise
            log.warning("table %s: its topic %s in %s refuses posts: %s", table.id,
                        table.thread_id, table.chat_id, e)
        if refusal == "closed":
            self._retry_topic(table)
        else:
            await self.service.abandon(table.id)
        return None

    def _retry_topic(self, table: Table) -> None:
        """Look at the table again in ``TOPIC_RETRY`` seconds: what it lacks is posted then,
        if its topic is open again (else it waits once more)."""
        if table.id in self._topic_retries:
            return

        def again() -> None:
            del self._topic_retries[table.id]
            if table.status != "closed":
                self.changed(table)
        self._topic_retries[table.id] = asyncio.get_running_loop().call_later(TOPIC_RETRY, again)

    def _lobby_text(self, table: Table, lang: str) -> str:
        seats = "\n".join(
            t(lang, "seat_line", n=s + 1, name=table.players[s].name) if s in table.players
            else t(lang, "seat_empty", n=s + 1) for s in table.seats)
        opener = next((p.name for p in table.players.values() if p.user_id == table.opener_id),
                      "—")
        rules = t(lang, "lobby_rules", rules=rules_label(table.rules, lang), base=table.base,
                  timer=timer_label(self._timer(table), lang))
        rules += "\n" + t(lang, "lobby_match", label=match_label(table.match_hands, lang))
        text = t(lang, "lobby", table=table.id, opener=opener, seats=seats, rules=rules,
                 n=table.rules.players)
        if table.configurable and table.current is not None:  # back after a match
            text += "\n\n" + t(lang, "match_over_next")
        if table.full_since is not None:  # said once: no ticking edits
            text += "\n\n" + t(lang, "lobby_full", seconds=f"{self.service.full_start_delay:g}")
        return text

    def _timer(self, table: Table) -> float:
        """The table's decision timer as chosen (SLOW for 慢速), else the bot's default."""
        return self.service.action_timeout if table.timer is None else table.timer

    def _lobby_keyboard(self, table: Table, lang: str) -> InlineKeyboardMarkup:
        """加入 and 加电脑 while a seat is free; 离开 and 开局 always; ⚙ before the first deal
        (the opener's settings keyboard instead while he has it open)."""
        mark = self.service.button_mark(table)
        if table.settings_open and table.configurable:
            return settings_keyboard(table, mark, lang, self._timer(table))

        def button(key: str, kind: str) -> InlineKeyboardButton:
            return InlineKeyboardButton(t(lang, key), callback_data=cb.group(kind, table.id, mark))
        free = not table.full
        first = [button("btn_join", "j")] if free else []
        first += [button("btn_leave", "l"), button("btn_begin", "b")]
        second = [button("btn_addbot", "r")] if free else []
        second.append(InlineKeyboardButton(t(lang, "btn_deeplink"), url=self.deep_link(table.id)))
        rows = [first, second, *self._bird_row(table, mark, lang)]
        if table.configurable:
            rows.append([InlineKeyboardButton(t(lang, "btn_settings"),
                                              callback_data=cb.option(table.id, mark, "m"))])
        return InlineKeyboardMarkup(rows)

    def _bird_row(self, table: Table, mark: int, lang: str) -> list[list[InlineKeyboardButton]]:
        """The 打鸟 button, as a keyboard row, at a table whose rules have birds."""
        if not table.rules.birds:
            return []
        return [[InlineKeyboardButton(t(lang, "btn_bird"), callback_data=cb.bird(table.id, mark))]]

    async def _lobby(self, table: Table) -> int:
        """Send or edit the lobby; once play starts, edit it a last time without buttons."""
        lang = await self.group_lang(table.chat_id)
        text = self._lobby_text(table, lang)
        bird_line = birds.waiting_line(table.rules, await table_birds.waiting(self.store, table), lang)
        text += f"\n\n{bird_line}" if bird_line and table.status == "lobby" else ""
        shown = self._table_shown(table)
        if table.status != "lobby":
            if table.lobby_msg_id is None:
                return 0
            msg_id = table.lobby_msg_id
            await self.service.remember(table, lobby_msg_id=None)
            if table.status == "closed":  # say so, even if not shown since a restart
                text = t(lang, "lobby_closed", table=table.id)
            elif shown.lobby_text is None:
                return 0  # not shown since a restart: leave it
            shown.lobby_text = None
            await self.gate.slot()
            await self._edit_text(table.chat_id, msg_id, text, None)
            return 1
        markup = self._lobby_keyboard(table, lang)
        if table.lobby_msg_id is not None and table.current is not None and \
                table.lobby_msg_id < max(table.current.group_msg_id or 0,
                                         table.current.settle_msg_id or 0):
            table.lobby_msg_id = None  # back to the lobby after a hand: a new one below it
        if table.lobby_msg_id is None:
            await self.gate.slot(urgent=True)  # its 加入 / 开始 are what the table waits for
            msg = await self._post(table, lambda: self.bot.send_message(
                table.chat_id, text, reply_markup=markup, message_thread_id=table.thread_id))
            if msg is None:
                return 1
            await self.service.remember(table, lobby_msg_id=msg.message_id)
        elif (shown.lobby_text, shown.lobby_markup) == (text, markup):
            return 0
        else:
            await self.gate.slot()
            await self._edit_text(table.chat_id, table.lobby_msg_id, text, markup)
        shown.lobby_text, shown.lobby_markup = text, markup
        return 1

    async def _table(self, table: Table, record: HandRecord) -> int:
        lang = await self.group_lang(table.chat_id)
        if self._table_plan(table, record, lang) is None:
            return 0
        await self.gate.slot()
        plan = self._table_plan(table, record, lang)  # play went on meanwhile
        if plan is None:
            return 0
        pub, caption = plan
        marks = SeatMarks(frozenset(self._hand_shown(record).trustee), _robots(record))
        photo = await self._render(draw_table, pub, record.names, lang, marks)
        if record.group_msg_id is None:
            msg = await self._post(table, lambda: self.bot.send_photo(
                table.chat_id, photo, caption=caption, message_thread_id=table.thread_id))
            if msg is None:
                return 1
            await self.service.remember_hand(record, group_msg_id=msg.message_id)
        else:
            await self._edit_media(table.chat_id, record.group_msg_id, photo, caption, None)
        self._hand_shown(record).table = plan
        return 1

    def _table_plan(self, table: Table, record: HandRecord,
                    lang: str) -> tuple[PublicView, str] | None:
        """The group's table photo as it should be now, or None if it already is."""
        hand = record.hand
        pub = hand.public_view()
        head = t(lang, "table_caption", hand=record.no, dealer=record.names[pub.dealer],
                 stock=pub.stock_count)
        if hand.seed is not None:  # the commitment, from the first picture of the hand on
            head += " · " + t(lang, "table_seal", fp=fairness.fingerprint(hand.seed))
        live_match = table.match if table.current is record else None
        lines = [head, *match_lines(record, live_match, lang), *move_log(record, lang)]
        trustee = self._hand_shown(record).trustee
        if trustee:
            lines.append(t(lang, "trustee_mark", names=t(lang, "name_sep").join(
                record.names[s] for s in sorted(trustee))))
        waiting = waiting_line(pub, record.names, lang)
        if waiting is not None:
            lines.append(waiting)
        plan = (pub, "\n".join(lines))
        return None if self._hand_shown(record).table == plan else plan

    async def _settlement(self, table: Table, record: HandRecord) -> int:
        """Send the settlement, then keep its ready list current; buttons only while it is the
        table's latest hand and the table waits for 再来一局."""
        lang = await self.group_lang(table.chat_id)
        shown, table_shown = self._hand_shown(record), self._table_shown(table)
        if shown.totals is None:
            shown.totals = await self.store.table_totals(table.id)
        totals = shown.totals
        if shown.birds is None:
            shown.birds = await self.store.hand_birds(record.id)
        live = table.current is record and table.status == "between"
        next_birds = await table_birds.waiting(self.store, table) if live else []
        caption = self._settlement_text(table, record, totals, lang, live,
                                        hand_birds=shown.birds, next_birds=next_birds)
        markup = None
        if live:
            table_shown.open_settlement = record
            markup = InlineKeyboardMarkup([[
                InlineKeyboardButton(t(lang, "btn_again"),
                                     callback_data=cb.group("g", table.id, record.id)),
                InlineKeyboardButton(t(lang, "btn_leave"),
                                     callback_data=cb.group("q", table.id, record.id)),
            ], *self._bird_row(table, record.id, lang)])
        elif table_shown.open_settlement is record:
            table_shown.open_settlement = None
        if record.settle_msg_id is None:
            pub = record.hand.public_view()
            per_seat = tuple(totals.get(u, 0) for u in record.users)
            await self.gate.slot(urgent=live)  # its 再来一局 is what the table waits for
            photo = await self._render(
                partial(render_settlement, birds=birds.picture_birds(shown.birds)),
                pub, record.names, per_seat, lang)
            msg = await self._post(table, lambda: self.bot.send_photo(
                table.chat_id, photo, caption=caption, reply_markup=markup,
                parse_mode=ParseMode.HTML, message_thread_id=table.thread_id))
            if msg is None:
                return 1
            await self.service.remember_hand(record, settle_msg_id=msg.message_id)
        elif shown.settle_caption == caption:
            return 0
        else:
            await self.gate.slot()
            try:
                await self.bot.edit_message_caption(table.chat_id, record.settle_msg_id,
                                                    caption=caption, reply_markup=markup,
                                                    parse_mode=ParseMode.HTML)
            except BadRequest as e:
                _unless_not_modified(e)
        shown.settle_caption = caption
        return 1

    def _settlement_text(self, table: Table, record: HandRecord, totals: dict[int, int],
                         lang: str, live: bool, *, hand_birds: Sequence[BirdRow] = (),
                         next_birds: Sequence[BirdRow] = ()) -> str:
        """The settlement caption, in HTML (the 公平性 part is an expandable blockquote);
        the birds (打鸟) after the seats, with what each seat paid them or got from them."""
        outcome = record.hand.outcome
        assert outcome is not None
        names = record.names
        lines: list[str] = []
        if outcome.kind == OutcomeKind.WIN and outcome.win is not None:
            win = outcome.win
            assert outcome.winner is not None
            # 湖南: 囤 times multiplying 名堂 (×n), else 底数 times 番 added up
            times = record.hand.rules.mingtang_multiply
            lines.append(t(lang, "settle_win_tun" if times else "settle_win",
                           winner=names[outcome.winner], huxi=win.huxi, di=win.di, fan=win.fan))
            item = "mingtang_times" if times else "mingtang_item"
            items = " ".join(t(lang, item, name=name, fan=fan)
                             for name, fan in win.mingtang) or t(lang, "settle_plain")
            flags = [t(lang, f) for f, on in (("flag_tianhu", win.tianhu), ("flag_dihu", win.dihu),
                                               ("flag_zimo", win.zimo),
                                               ("flag_haidi", win.haidi)) if on]
            if outcome.fed_by is not None:
                flags.append(t(lang, "flag_fed", name=names[outcome.fed_by]))
            lines.append(" · ".join([t(lang, "settle_mingtang", items=items), *flags]))
        elif outcome.kind == OutcomeKind.DRAW:
            lines.append(t(lang, "settle_draw"))
        elif outcome.kind == OutcomeKind.DISSOLVED:
            lines.append(t(lang, "settle_dissolved"))
        else:
            assert outcome.escaper is not None
            lines.append(t(lang, "settle_escape", name=names[outcome.escaper],
                           points=max(outcome.points)))
        for seat, user_id in enumerate(record.users):
            name = t(lang, "xing_name", name=names[seat]) if seat == outcome.xing else names[seat]
            lines.append(t(lang, "settle_points", name=name, points=outcome.points[seat],
                           total=totals.get(user_id, 0)))
        lines += birds.settled_lines(record, hand_birds, lang)
        lines += match_lines(record, table.match if live else None, lang)
        seed = record.hand.seed
        if seed is not None:  # the hand is over: its seed may be told
            lines.append(t(lang, "settle_seal", fp=fairness.fingerprint(seed)))
        tail: list[str] = []
        if live:
            ready = [p.name for p in table.players.values() if p.ready]
            if ready:
                tail.append(t(lang, "settle_ready", names=t(lang, "name_sep").join(ready)))
            tail.append(t(lang, "settle_next"))
            bird_line = birds.waiting_line(table.rules, next_birds, lang)
            tail += [bird_line] if bird_line else []
        parts = [html.escape("\n".join(lines))]
        if seed is not None:  # the 公平性 part: folded until a curious player opens it
            fair = t(lang, "settle_fairness", seed=seed, sha=seed_commitment(seed))
            parts.append(f"<blockquote expandable>{html.escape(fair)}</blockquote>")
        parts += [html.escape(line) for line in tail]
        return "\n".join(parts)

    # --- private hand messages -------------------------------------------------------------

    def _sync_hand_later(self, table: Table, record: HandRecord, seat: int, user_id: int,
                         delay: float = 0.0) -> None:
        if robots.is_robot(user_id):  # a computer player has no private chat
            return

        def job() -> Awaitable[int]:
            return self._sync_hand(table, record, seat, user_id)
        if delay > 0:
            self._put_after(delay, user_id, ("hand", record.id), job)
            return
        self._put(user_id, ("hand", record.id), job)
        if self._unoffered(table, record, seat) or self._withdrawn(table, record, seat):
            self.gate.promote(user_id)  # new buttons, or dead ones: not behind a catch-up

    async def _sync_hand(self, table: Table, record: HandRecord, seat: int, user_id: int) -> int:
        """Bring one hand message up to date; returns the calls made. Only the user dealt into
        ``seat`` of this hand ever sees its cards.

        A new decision (new buttons) is shown at once, ahead of other traffic (see
        :mod:`bot.gate`), with the table as it is then; so are buttons withdrawn unanswered.
        Any other change while the hand is played is held back and rides on the next edit: the
        seat's own (a pressed keyboard going, the cards after his move) up to ``PRESSED_PACE``
        seconds, the table's alone (a card drawn elsewhere) up to ``TABLE_PACE``: a picture
        with buttons is always current, a waiting one lags a few seconds. A button pressed in that
        time is answered as outdated; the press itself was confirmed by its answer. Else
        nearly every move costs an edit in each of three DMs, where the floor is one edit per
        decision."""
        if record.users[seat] != user_id:
            return 0
        player = table.players.get(seat)
        if player is None or player.user_id != user_id or table.current is not record:
            return await self._retire_hand(record, seat, user_id)
        if seat == record.hand.rules.xing_seat(record.hand.dealer):
            return await self._tell_xing(table, seat, user_id)
        first = self._hand_plan(table, record, seat, user_id)
        if first is None:
            return 0
        await self.gate.slot(urgent=first.urgent, key=user_id)
        plan = self._hand_plan(table, record, seat, user_id)  # play went on meanwhile
        if plan is None:
            return 0
        shown, msg_id, lang = plan.shown, player.hand_msg_id, player.lang
        calls, (caption, markup) = 0, plan.text
        caption = "\n".join(self._with_clock(table, seat, [caption], lang))
        if msg_id is not None:
            try:
                if plan.image != shown.image:
                    photo = await self._render(draw_hand, plan.view, record.names, lang,
                                               plan.marks, record.hand.rules)
                    await self._edit_media(user_id, msg_id, photo, caption, markup)
                else:
                    await self._edit_caption(user_id, msg_id, caption, markup)
                calls += 1
            except BadRequest as e:
                if not _gone(e):
                    raise
                msg_id = None  # the user deleted it: send it again
        if msg_id is None:
            photo = await self._render(draw_hand, plan.view, record.names, lang, plan.marks,
                                       record.hand.rules)
            msg = await self.bot.send_photo(user_id, photo, caption=caption, reply_markup=markup)
            msg_id = msg.message_id
            await self.service.remember_seat(table, seat, user_id, hand_msg_id=msg_id)
            calls += 1
        shown.msg_id, shown.lang, shown.own, shown.held_since = msg_id, lang, plan.own, None
        shown.image, shown.caption = plan.image, plan.text
        if self._unoffered(table, record, seat):
            self._offered(record, seat, shown, table.decisions[seat])
            self._ping_later(table, record, seat, user_id, PING_DELAY)
        ping = player.ping_msg_id
        if ping is not None and (user_id, ping) not in self._unpinging \
                and shown.pinged != self._open_version(table, seat):
            self._unping_later(table, seat, user_id, ping)
        return calls

    async def _tell_xing(self, table: Table, seat: int, user_id: int) -> int:
        """The hand's 醒家 sits it out: one short line, never a picture or buttons (its id
        stands for the hand message, so that a restart does not say it again)."""
        player = table.players[seat]
        if player.hand_msg_id is not None:
            return 0
        await self.gate.slot(key=user_id)
        msg = await self.bot.send_message(user_id, t(player.lang, "xing_dm"))
        await self.service.remember_seat(table, seat, user_id, hand_msg_id=msg.message_id)
        return 1

    def _offered(self, record: HandRecord, seat: int, shown: _Shown, decision: Decision) -> None:
        """Note a decision as shown: since when (for the ping) and, for a claim, where the
        hand stood (to tell later whether it was withdrawn, and who took the card)."""
        shown.offered = (decision.version, asyncio.get_running_loop().time())
        claim = not any(a.startswith("d:") for a in decision.legal)
        hand = record.hand
        shown.asked = _Asked(decision.version, len(hand.log), len(hand.history)) if claim \
            else None

    @staticmethod
    def _open_version(table: Table, seat: int) -> int | None:
        """The version of the seat's open decision, None if it has none to answer itself."""
        decision, player = table.decisions.get(seat), table.players.get(seat)
        if decision is None or not decision.legal or player is None or player.autoplay \
                or table.status != "playing":
            return None
        return decision.version

    def _unping_later(self, table: Table, seat: int, user_id: int, ping_msg_id: int) -> None:
        """The seat answered what it was pinged for: the ping goes (the DM stays tidy).

        In a queue of the chat's own beside its outbox, with the gate's last priority: a
        deletion waiting there for its turn must not hold back the chat's next decision
        (in bench_load it doubled the p99 from a move to the next buttons)."""
        async def job() -> int:
            try:
                await self.gate.slot()
                await self._delete(user_id, ping_msg_id)
                player = table.players.get(seat)
                if player is not None and player.ping_msg_id == ping_msg_id:  # none sent since
                    await self.service.remember_seat(table, seat, user_id, ping_msg_id=None)
            finally:
                self._unpinging.discard((user_id, ping_msg_id))
            return 0  # no message: nothing to pace
        self._unpinging.add((user_id, ping_msg_id))
        box = self._outboxes.setdefault(("tidy", user_id), Outbox(0.0))
        box.put(("unping", ping_msg_id), job)

    def _withdrawn(self, table: Table, record: HandRecord, seat: int) -> bool:
        """The seat's message still shows the buttons of a claim that is gone unanswered by
        it (a higher claim took the card, or the hand ended): they must go at once."""
        shown = self._hand_shown(record).seats.get(seat)
        if shown is None or shown.asked is None or shown.caption is None \
                or shown.caption[1] is None:
            return False
        if self._open_version(table, seat) == shown.asked.version:
            return False
        return all(s != seat for s, _ in record.hand.log[shown.asked.log_at:])

    def _with_clock(self, table: Table, seat: int, parts: list[str], lang: str) -> list[str]:
        """``parts`` and the time left on the seat's open decision, read now: a caption shows
        it as of the edits made anyway, never with an edit of its own."""
        left = self._seconds_left(table, seat)
        return parts if left is None else [*parts, t(lang, "time_left", seconds=left)]

    def _seconds_left(self, table: Table, seat: int) -> int | None:
        if self._open_version(table, seat) is None:
            return None
        return max(0, round(self.service.deadline(table, seat) - self.service.clock()))

    def _unoffered(self, table: Table, record: HandRecord, seat: int) -> bool:
        """The seat has a decision of its own (not played by 托管) that its hand message has
        not shown yet."""
        version = self._open_version(table, seat)
        shown = self._hand_shown(record).seats.get(seat)
        return version is not None \
            and (shown is None or shown.offered is None or shown.offered[0] != version)

    def _hand_plan(self, table: Table, record: HandRecord, seat: int,
                   user_id: int) -> _HandPlan | None:
        """What the seat's hand message should show now, or None when nothing is to be sent
        now (unchanged, or held back: then a later sync is scheduled)."""
        player = table.players[seat]
        lang = player.lang
        view = record.hand.private_view(seat)
        shown = self._hand_shown(record).seats.setdefault(seat, _Shown())
        marks = self._marks_for(table, record, seat)
        image = hand_signature(view, record.names, lang, marks)
        markup = keyboard(table, seat, lang) if table.status == "playing" else None
        text = (self._hand_caption(table, record, seat, view, lang), markup)
        own = _own(view)
        # new buttons (a decision, or 托管's take-back) go first, and so does the end of
        # buttons withdrawn unanswered; other changes may wait
        new_markup = shown.caption is None or markup != shown.caption[1]
        urgent = new_markup and (markup is not None or self._withdrawn(table, record, seat))
        if player.hand_msg_id is None:
            return _HandPlan(shown, view, marks, image, text, own, urgent)
        if (image, text) == (shown.image, shown.caption):
            return None
        fresh = shown.image is None  # not shown since a restart: refreshed now
        if not urgent and not fresh and table.status == "playing" and not self._flushing:
            now = asyncio.get_running_loop().time()
            # the seat's own change (its cards, its keyboard going) or the table's alone
            # (a move elsewhere, in the picture and in the caption's 等待 line)?
            pace = max(TABLE_PACE, self.group_interval) \
                if own == shown.own and not new_markup else PRESSED_PACE
            shown.held_since = shown.held_since if shown.held_since is not None else now
            wait = shown.held_since + pace - now
            if wait > 0:
                self._sync_hand_later(table, record, seat, user_id, delay=wait)
                return None
        return _HandPlan(shown, view, marks, image, text, own, urgent)

    def _marks_for(self, table: Table, record: HandRecord, seat: int) -> SeatMarks:
        """The seat's own 托管 (it knows it), the others' once public, and the computers."""
        trustee = set(self._hand_shown(record).trustee)
        player = table.players.get(seat)
        if player is not None and player.user_id == record.users[seat] and player.autoplay:
            trustee.add(seat)
        return SeatMarks(frozenset(trustee), _robots(record))

    def _ping_later(self, table: Table, record: HandRecord, seat: int, user_id: int,
                    delay: float) -> None:
        def job() -> Awaitable[int]:
            return self._ping(table, record, seat, user_id)
        self._put_after(delay, user_id, ("ping", record.id), job)

    async def _ping(self, table: Table, record: HandRecord, seat: int, user_id: int) -> int:
        """Ping a player whose shown decision has waited ``PING_DELAY`` seconds (an edit does
        not notify him; a player who is looking has pressed by then). The previous ping goes."""
        player, decision = table.players.get(seat), table.decisions.get(seat)
        shown = self._hand_shown(record).seats.get(seat)
        if player is None or player.user_id != user_id or player.autoplay \
                or table.current is not record or table.status != "playing" \
                or decision is None or not decision.legal \
                or shown is None or shown.offered is None \
                or shown.offered[0] != decision.version:
            return 0
        after = self._next_ping_after(table, shown, decision)
        if after is None:
            return 0
        wait = shown.offered[1] + after - asyncio.get_running_loop().time()
        if wait > 0 and not self._flushing:
            self._ping_later(table, record, seat, user_id, wait)
            return 0
        await self.gate.slot(key=user_id)
        if player.ping_msg_id is not None and (user_id, player.ping_msg_id) not in self._unpinging:
            await self._delete(user_id, player.ping_msg_id)
        text = " · ".join(self._with_clock(table, seat, [t(player.lang, "ping", table=table.id)],
                                           player.lang))
        msg = await self.bot.send_message(user_id, text)
        await self.service.remember_seat(table, seat, user_id, ping_msg_id=msg.message_id)
        shown.pings = shown.pings + 1 if shown.pinged == decision.version else 1
        shown.pinged = decision.version
        again = self._next_ping_after(table, shown, decision)
        if again is not None:  # 慢速: a second ping later
            left = shown.offered[1] + again - asyncio.get_running_loop().time()
            self._ping_later(table, record, seat, user_id, max(0.0, left))
        return 1

    @staticmethod
    def _next_ping_after(table: Table, shown: _Shown, decision: Decision) -> float | None:
        """Seconds after the decision was shown that its next ping is due, None when it has
        had its pings: one, or at a 慢速 table two (托管 only comes after the second)."""
        pings = shown.pings if shown.pinged == decision.version else 0
        if pings == 0:
            return PING_DELAY
        if pings == 1 and table.timer == SLOW:
            return SLOW_REPING
        return None

    def _hand_caption(self, table: Table, record: HandRecord, seat: int, view: PrivateView,
                      lang: str) -> str:
        head = t(lang, "dm_caption", table=table.id, hand=record.no, huxi=view.huxi)
        taken = self._taken_line(record, seat, lang) if not view.legal else None
        if record.hand.is_terminal() or table.status == "closed":
            status = _over_line(record, lang)
        elif table.players[seat].autoplay:
            status = t(lang, "dm_autoplay")
        elif not view.legal:
            status = waiting_line(view.public, record.names, lang) or t(lang, "dm_wait")
        elif any(a.startswith("d:") for a in view.legal):
            status = t(lang, "dm_turn_discard")
        else:
            status = t(lang, "dm_turn_claim")
        return "\n".join(line for line in (head, taken, status) if line)

    def _taken_line(self, record: HandRecord, seat: int, lang: str) -> str | None:
        """Who took the card the seat was last asked about ("Bob 碰了这张牌"): it tells a seat
        whose buttons went, or whose 吃 was overtaken, what happened."""
        shown = self._hand_shown(record).seats.get(seat)
        if shown is None or shown.asked is None:
            return None
        event = claim_taker(record.hand.history, shown.asked.history_at)
        if event is None or event.seat is None or event.seat == seat:
            return None
        return t(lang, f"taken_{event.kind}", name=record.names[event.seat])

    async def _retire_hand(self, record: HandRecord, seat: int, user_id: int) -> int:
        """A player gone from the table (逃跑): his hand message says it is over, no buttons."""
        shown = self._hand_shown(record).seats.pop(seat, None)
        if shown is None or shown.msg_id is None or shown.caption is None:
            return 0
        head = shown.caption[0].split("\n")[0]
        caption = f"{head}\n{t(shown.lang, 'dm_over')}"
        if shown.caption == (caption, None):
            return 0
        await self.gate.slot(key=user_id)
        await self._edit_caption(user_id, shown.msg_id, caption, None)
        return 1

    # --- Bot API helpers ----------------------------------------------------------------------

    async def _edit_text(self, chat_id: int, message_id: int, text: str,
                         markup: InlineKeyboardMarkup | None) -> None:
        try:
            await self.bot.edit_message_text(text, chat_id, message_id, reply_markup=markup)
        except BadRequest as e:
            _unless_not_modified(e)

    async def _edit_caption(self, chat_id: int, message_id: int, caption: str,
                            markup: InlineKeyboardMarkup | None) -> None:
        try:
            await self.bot.edit_message_caption(chat_id, message_id, caption=caption,
                                                reply_markup=markup)
        except BadRequest as e:
            _unless_not_modified(e)

    async def _edit_media(self, chat_id: int, message_id: int, photo: bytes, caption: str,
                          markup: InlineKeyboardMarkup | None) -> None:
        try:
            await self.bot.edit_message_media(InputMediaPhoto(photo, caption=caption), chat_id,
                                              message_id, reply_markup=markup)
        except BadRequest as e:
            _unless_not_modified(e)

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.delete_message(chat_id, message_id)
        except (BadRequest, Forbidden) as e:
            log.info("could not delete message %s in %s: %s", message_id, chat_id, e)

    async def probe_dm(self, user_id: int, text: str) -> bool:
        """Send a private message; False when the user has not opened the bot (403)."""
        try:
            await self.bot.send_message(user_id, text)
        except Forbidden:
            return False
        return True


def _robots(record: HandRecord) -> frozenset[int]:
    return frozenset(s for s, user_id in enumerate(record.users) if robots.is_robot(user_id))


def _over_line(record: HandRecord, lang: str) -> str:
    """Why the hand ended, for a seat's caption: who left (逃跑), else just that it is over
    (the group's settlement tells the rest)."""
    outcome = record.hand.outcome
    if outcome is not None and outcome.kind == OutcomeKind.ESCAPE and outcome.escaper is not None:
        return t(lang, "dm_over_escape", name=record.names[outcome.escaper])
    if outcome is not None and outcome.kind == OutcomeKind.DISSOLVED:
        return t(lang, "dm_over_dissolved")
    return t(lang, "dm_over")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _topic_refusal(e: BadRequest) -> str | None:
    """Why a forum topic refused a post: "closed" (TOPIC_CLOSED: only its admins may post),
    "gone" (deleted: "message thread not found"), or None: not for its topic."""
    text = str(e).lower()
    if "topic_closed" in text:
        return "closed"
    return "gone" if "thread not found" in text else None


def _gone(e: BadRequest) -> bool:
    """The message to edit no longer exists (the user deleted it)."""
    return "not found" in str(e).lower()


def _unless_not_modified(e: BadRequest) -> None:
    if "not modified" not in str(e).lower():
        raise e
