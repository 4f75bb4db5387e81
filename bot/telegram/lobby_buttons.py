"""The group's buttons: the lobby's (join, leave, 开局, a computer player, ⚙ settings), the
settlement's (再来一局, leave) and 打鸟 on either. Each carries the mark of the lobby or
settlement it was shown with (:mod:`bot.callbacks`)."""

from __future__ import annotations

from bot import callbacks as cb
from bot.i18n import rule_set_name, t
from bot.present.screens.seat_presses import Move, Press, answer
from bot.present.screens.words import level_label, match_label, timer_label
from bot.table import Refusal, Table, TableStatus, house
from bot.telegram.press import Pressed, Reply, on

# a ⚙ option code's letter: the setting it changes (see bot.callbacks)
OPTION_SETTINGS = {"r": "rules", "s": "seats", "x": "two_seat", "b": "base", "t": "timer",
                   "h": "match", "l": "level", house.CODE: "house"}


@on(cb.Join, live=TableStatus.LOBBY)
async def join(p: Pressed[cb.Join]) -> Reply:
    person = await p.env.person(p.user)
    if not await p.env.can_dm(person):
        return Reply(None, url=p.env.presenter.deep_link(p.press.table))
    await p.env.service.join(p.press.table, person)
    return Reply(t(p.lang, "ok"))


async def _leave(p: Pressed[cb.Marked]) -> Reply:
    """Never a 逃跑: no hand runs under a live group button."""
    await p.env.service.leave(p.press.table, p.user.id)
    return Reply(t(p.lang, "ok"))


on(cb.Leave, live=TableStatus.LOBBY)(_leave)
on(cb.Quit, live=TableStatus.BETWEEN)(_leave)


@on(cb.Begin, live=TableStatus.LOBBY)
async def begin(p: Pressed[cb.Begin]) -> Reply:
    await p.env.service.begin(p.press.table, p.user.id)
    return Reply(None)


@on(cb.AddComputer, live=TableStatus.LOBBY)
async def add_robot(p: Pressed[cb.AddComputer]) -> Reply:
    table = p.env.service.get(p.press.table)
    await p.env.service.add_robot(table.id, p.user.id,
                                  await p.env.presenter.group_lang(table.chat_id))
    return Reply(t(p.lang, "ok"))


@on(cb.Again, live=TableStatus.BETWEEN)
async def again(p: Pressed[cb.Again]) -> Reply:
    """再来一局, as a seat's presses check and answer it on its live page too."""
    return Reply(await answer(p.env.service, p.press.table, p.user.id, p.lang,
                              Press(Move.AGAIN, mark=p.press.mark)))


@on(cb.Setting, live=TableStatus.LOBBY)
async def option(p: Pressed[cb.Setting]) -> Reply:
    """A ⚙ button: open or close the settings keyboard, or set one option; its toast says
    what it did at once ("底分 → 2"), the keyboard follows at the group's pace."""
    code = p.press.code
    if code in ("m", "k", "p"):
        await p.env.service.show_settings(p.press.table, p.user.id, code != "k",
                                          house=code == "p")
        return Reply(t(p.lang, {"m": "settings_shown", "k": "settings_hidden",
                                "p": "house_shown"}[code]))
    setting = OPTION_SETTINGS.get(code[0])
    if setting is None:
        raise Refusal("bad_option")
    table = await p.env.service.configure(p.press.table, p.user.id, setting, code[1:])
    if setting == "house":  # the word pressed, as the button said it
        return Reply(t(p.lang, "option_set", setting=t(p.lang, "option_house"),
                       value=house.word_of(table.rules, code[1:])))
    return Reply(t(p.lang, "option_set", setting=t(p.lang, f"option_{setting}"),
                   value=_option_value(table, setting, p.lang,
                                       p.env.service.action_timeout)))


def _option_value(table: Table, setting: str, lang: str, default_timer: float) -> str:
    """The option ``setting`` of the table as now set, in words (``default_timer``: the
    bot's, until one is chosen)."""
    rules = table.rules
    values = {"rules": lambda: rule_set_name(rules.id, lang),
              "seats": lambda: t(lang, "rules_seats", n=rules.players),
              "two_seat": lambda: t(lang, f"two_{rules.two_seat}"),
              "base": lambda: str(table.base),
              "timer": lambda: timer_label(
                  default_timer if table.timer is None else table.timer, lang),
              "match": lambda: match_label(table.match_hands, lang),
              "level": lambda: level_label(table.robot_level, lang)}
    return values[setting]()


@on(cb.Bird)
async def bird(p: Pressed[cb.Bird]) -> Reply:
    """打鸟: the lobby lists the bird by the presser's name."""
    await p.env.person(p.user)
    placed = await p.env.service.toggle_bird(p.press.table, p.press.mark, p.user.id)
    return Reply(t(p.lang, "bird_placed" if placed else "bird_withdrawn"))
