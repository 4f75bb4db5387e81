"""The /tables screen: open tables, a line each (table, topic by its name when the bot saw it,
else its number, rules, seats taken of all, waiting or playing, standing), and a seat button
for each with a free seat in its lobby."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import isolate, t
from bot.present.screens.words import rules_house_label
from bot.table import Table, TableStatus


@dataclass(frozen=True)
class Listed:
    """A table as /tables lists it: under its group's ``group`` title (a private listing),
    with a seat button of callback data ``seat`` (None: no free seat in its lobby), in its
    forum topic named ``topic`` (None: a name the bot never saw)."""

    table: Table
    group: str | None = None
    seat: str | None = None
    topic: str | None = None


def has_seat(table: Table) -> bool:
    """Can one sit down now: a lobby with a free seat."""
    return table.status == TableStatus.LOBBY and not table.full


def _where(entry: Listed, lang: str) -> str:
    """The table's topic: its name, else its number; nothing outside a topic."""
    thread = entry.table.thread_id
    if thread is None:
        return ""
    if entry.topic:
        return t(lang, "tables_topic_named", name=isolate(entry.topic))
    return t(lang, "tables_topic", topic=thread)


def _line(entry: Listed, lang: str) -> str:
    table, where = entry.table, _where(entry, lang)
    state = "tables_waiting" if table.status == TableStatus.LOBBY else "tables_running"
    line = t(lang, "tables_line", table=table.no, where=where, rules=rules_house_label(table.rules, lang),
             taken=len(table.players), n=table.rules.players, state=t(lang, state))
    return line + (t(lang, "tables_standing") if table.standing else "")


def tables_text(listed: Sequence[Listed], lang: str, private: bool) -> str:
    """The listing; in a private chat each group's tables under its title."""
    if not listed:
        return t(lang, "tables_none_private" if private else "tables_none")
    lines = [t(lang, "tables_head_private" if private else "tables_head")]
    group = None
    for entry in listed:
        if private and entry.group != group:
            group = entry.group
            lines.append(t(lang, "tables_group", chat=group))
        lines.append(_line(entry, lang))
    return "\n".join(lines)


def tables_keyboard(listed: Sequence[Listed], lang: str) -> InlineKeyboardMarkup | None:
    """A seat button per table one can sit at, one a row."""
    rows = []
    for entry in listed:
        label = t(lang, "btn_tables_seat", table=entry.table.no)
        if entry.seat is not None:
            rows.append([InlineKeyboardButton(label, callback_data=entry.seat)])
    return InlineKeyboardMarkup(rows) if rows else None
