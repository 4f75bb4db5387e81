"""The group's screens of a hand: its table picture with a caption (the 公平性 fingerprint,
the match, the move log, 托管, what the table waits for), and its settlement's caption and
keyboard (再来一局 / 离开, 打鸟, 验证)."""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import t
from bot.present import birds, fairness
from bot.present.screens.lobby import bird_row
from bot.present.screens.seat import SeatMarks
from bot.present.screens.words import (
    house_line,
    match_lines,
    move_log,
    outcome_lines,
    points_text,
    table_no,
    waiting_line,
)
from bot.store import BirdRow
from bot.table import HandRecord, Table
from bot.table.birds import seat_points
from engine.record import seed_commitment
from engine.views import PublicView
from render import render_table


def draw_table(pub: PublicView, names: Sequence[str], lang: str, marks: SeatMarks) -> bytes:
    """The group's picture (``render_table``), painted off the loop (bot.present.painter)."""
    return render_table(pub, names, lang, trustee=marks.trustee, robots=marks.robots)


def table_screen(table: Table, record: HandRecord, trustee: Collection[int],
                 lang: str) -> tuple[PublicView, str]:
    """The group's table photo of the hand: the public view it draws and its caption
    (``trustee``: the seats whose 托管 the table may know)."""
    hand = record.hand
    pub = hand.public_view()
    head = t(lang, "table_caption", table=table_no(table), hand=record.table_no,
             dealer=record.names[pub.dealer],
             stock=pub.stock_count)
    if hand.seed is not None:  # the commitment, from the first picture of the hand on
        head += " · " + fairness.seal(hand.seed, lang)
    live_match = table.match if table.current is record else None
    lines = [head, *match_lines(record, live_match, lang), *move_log(record, lang)]
    if hand.rules.house:
        lines.insert(1, house_line(hand.rules, lang))
    if trustee:
        lines.append(t(lang, "trustee_mark", names=t(lang, "name_sep").join(
            record.names[s] for s in sorted(trustee))))
    waiting = waiting_line(pub, record.names, lang)
    if waiting is not None:
        lines.append(waiting)
    return pub, "\n".join(lines)


def settlement_keyboard(table: Table, record: HandRecord, lang: str, live: bool, *,
                        again: bool = True) -> InlineKeyboardMarkup | None:
    """The buttons under a settlement: while it is the table's latest and waits, 再来一局 and
    离开 when ``again`` (some seat has no private result to press them on) and 打鸟 where
    birds are; 验证 under every settlement of a dealt hand, for good."""
    rows = bird_row(table, record.id, lang) if live else []
    if live and again:
        rows.insert(0, [
            InlineKeyboardButton(t(lang, "btn_again"),
                                 callback_data=cb.Again(table.id, record.id).pack()),
            InlineKeyboardButton(t(lang, "btn_leave"),
                                 callback_data=cb.Quit(table.id, record.id).pack())])
    if record.hand.seed is not None:
        rows.append([verify_button(record.id, lang)])
    return InlineKeyboardMarkup(rows) if rows else None


def verify_button(hand_id: int, lang: str) -> InlineKeyboardButton:
    """🔒 验证: the hand's fairness check, sent privately (``bot.telegram.verify``)."""
    return InlineKeyboardButton(t(lang, "btn_verify"), callback_data=cb.Verify(hand_id).pack())


def settlement_text(table: Table, record: HandRecord, totals: dict[int, int], lang: str,
                    live: bool, *, hand_birds: Sequence[BirdRow] = (),
                    next_birds: Sequence[BirdRow] = (), again: bool = True) -> str:
    """The settlement caption, in HTML (the 公平性 part is an expandable blockquote): each
    seat's points as his private result says them (:func:`points_text`), then the birds
    (打鸟); while live, who is ready and where 再来一局 is (here when ``again``, else in
    private)."""
    outcome = record.hand.outcome
    assert outcome is not None
    names = record.names
    lines: list[str] = outcome_lines(record, lang)
    if record.hand.rules.house:
        lines.append(house_line(record.hand.rules, lang))
    points = seat_points(record, hand_birds)
    for seat, user_id in enumerate(record.users):
        xing = seat == outcome.xing
        name = t(lang, "xing_name", name=names[seat]) if xing else names[seat]
        lines.append(t(lang, "settle_points", name=name, points=points_text(
            points[seat], totals.get(user_id, 0), lang, xing=xing)))
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
        tail.append(t(lang, "settle_next" if again else "settle_next_private"))
        bird_line = birds.waiting_line(table.rules, next_birds, lang)
        tail += [bird_line] if bird_line else []
    parts = [html.escape("\n".join(lines))]
    if seed is not None:  # the 公平性 part: folded until a curious player opens it
        fair = t(lang, "settle_fairness", seed=seed, sha=seed_commitment(seed))
        parts.append(f"<blockquote expandable>{html.escape(fair)}</blockquote>")
    parts += [html.escape(line) for line in tail]
    return "\n".join(parts)
