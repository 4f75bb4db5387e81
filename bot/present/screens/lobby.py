"""The lobby screen: its text (seats, rules, match, computer level), its main keyboard and the opener's ⚙
keyboard, and the 打鸟 row the lobby and the settlement share."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import rule_set_name, t
from bot.present.screens.words import (
    house_line,
    level_label,
    match_label,
    rules_label,
    timer_label,
)
from bot.table import BASES, LEVELS, MATCHES, TIMERS, Table, house
from bot.table.lobby import awaits_ready
from engine.rules import RULE_SETS, house_options


def lobby_text(table: Table, lang: str, *, timer: float, full_start_delay: float,
               ready_timeout: float = 0.0) -> str:
    """Who sits where, the rules (``timer``: the decision timer in force), the match and the
    computer players' level; a full table says once that it deals in ``full_start_delay``
    seconds (no ticking edits; nothing when it deals at once). A standing table back after
    a match marks who pressed 准备 and says the others leave after ``ready_timeout``."""
    waiting = awaits_ready(table)

    def seat_line(s: int) -> str:
        player = table.players[s]
        key = "seat_ready" if waiting and (player.ready or player.robot) else "seat_line"
        return t(lang, key, n=s + 1, name=player.name)
    seats = "\n".join(seat_line(s) if s in table.players else t(lang, "seat_empty", n=s + 1)
                      for s in table.seats)
    opener = next((p.name for p in table.players.values() if p.user_id == table.opener_id),
                  t(lang, "lobby_admin") if table.standing else "—")
    rules = t(lang, "lobby_rules", rules=rules_label(table.rules, lang), base=table.base,
              timer=timer_label(timer, lang))
    if table.rules.house:
        rules += "\n" + house_line(table.rules, lang)
    rules += "\n" + t(lang, "lobby_match", label=match_label(table.match_hands, lang))
    rules += " · " + t(lang, "lobby_level", level=level_label(table.robot_level, lang))
    text = t(lang, "lobby", table=table.no, opener=opener, seats=seats, rules=rules,
             n=table.rules.players)
    if waiting:
        text += "\n\n" + t(lang, "lobby_await_ready", seconds=f"{ready_timeout:g}")
    elif table.configurable and table.current is not None and not table.standing:
        text += "\n\n" + t(lang, "match_over_next")  # back after a match
    if table.standing:
        text += "\n\n" + t(lang, "lobby_standing")
    if table.full_since is not None and full_start_delay > 0:
        text += "\n\n" + t(lang, "lobby_full", seconds=f"{full_start_delay:g}")
    return text


def lobby_keyboard(table: Table, lang: str, *, mark: int, timer: float,
                   deep_link: str) -> InlineKeyboardMarkup:
    """加入 and 加电脑 while a seat is free; 离开 and 开局 always; ⚙ before the first deal
    (the opener's settings keyboard instead while he has it open). ``mark`` is the table's
    button mark, ``deep_link`` the 入座 link to the bot's private chat."""
    if table.settings_open and table.configurable:
        if table.house_open:
            return house_keyboard(table, mark, lang)
        return settings_keyboard(table, mark, lang, timer)

    def button(key: str, kind: type[cb.Marked]) -> InlineKeyboardButton:
        return InlineKeyboardButton(t(lang, key), callback_data=kind(table.id, mark).pack())
    free = not table.full
    first = [button("btn_join", cb.Join)] if free else []
    first += [button("btn_leave", cb.Leave),
              button("btn_ready" if awaits_ready(table) else "btn_begin", cb.Begin)]
    second = [button("btn_addbot", cb.AddComputer)] if free else []
    second.append(InlineKeyboardButton(t(lang, "btn_deeplink"), url=deep_link))
    rows = [first, second, *bird_row(table, mark, lang)]
    if table.configurable:
        rows.append([InlineKeyboardButton(t(lang, "btn_settings"),
                                          callback_data=cb.Setting(table.id, mark, "m").pack())])
    return InlineKeyboardMarkup(rows)


def bird_row(table: Table, mark: int, lang: str) -> list[list[InlineKeyboardButton]]:
    """The 打鸟 button, as a keyboard row, at a table whose rules have birds."""
    if not table.rules.birds:
        return []
    return [[InlineKeyboardButton(t(lang, "btn_bird"), callback_data=cb.Bird(table.id, mark).pack())]]


def settings_keyboard(table: Table, mark: int, lang: str, timer: float) -> InlineKeyboardMarkup:
    """The lobby's ⚙ keyboard: one row per option (rule set, seats, 两人 option, 底分,
    timer: ``timer`` is the one in force, the bot's default until one is chosen; 局数; the
    computer players' level), the option in force ticked, and 返回. (A hook for more options: a row here and
    a setting in ``TableService.configure``.)"""
    def button(label: str, code: str, on: bool) -> InlineKeyboardButton:
        return InlineKeyboardButton(("✓ " if on else "") + label,
                                    callback_data=cb.Setting(table.id, mark, code).pack())
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
    rows.append([button(t(lang, "settings_level", level=level_label(level, lang)), f"l{level}",
                        level == table.robot_level) for level in LEVELS])
    rows.append([InlineKeyboardButton(t(lang, "btn_house", label=table.rules.house_label
                                        or t(lang, "house_none")),
                                      callback_data=cb.Setting(table.id, mark, "p").pack())])
    rows.append([InlineKeyboardButton(t(lang, "btn_settings_back"),
                                      callback_data=cb.Setting(table.id, mark, "k").pack())])
    return InlineKeyboardMarkup(rows)


HOUSE_ROW = 3  # choices a row of the 房规 page holds: 封顶100 and its tick stay readable


def house_keyboard(table: Table, mark: int, lang: str) -> InlineKeyboardMarkup:
    """The ⚙ keyboard's house rules (房规) page: each option's choices (game terms, the same
    in every language), the one in force ticked, a row or two an option; ↩ back to ⚙."""
    rows: list[list[InlineKeyboardButton]] = []
    for option in house_options(table.rules):
        buttons = [InlineKeyboardButton(
            ("✓ " if word == option.current else "") + word,
            callback_data=cb.Setting(table.id, mark,
                                     house.CODE + house.option_code(option, word)).pack())
            for word in option.choices]
        rows += [buttons[i:i + HOUSE_ROW] for i in range(0, len(buttons), HOUSE_ROW)]
    rows.append([InlineKeyboardButton(t(lang, "btn_settings_back"),
                                      callback_data=cb.Setting(table.id, mark, "m").pack())])
    return InlineKeyboardMarkup(rows)
