"""The screens of a 群杯 (:mod:`bot.table.cups`): the group's card (the sign-up list with
报名, then the standings after each round), and the final card (🏆, the podium, every
player's place, every round's tables, the draw's proof)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import t
from bot.present.screens.words import rules_house_label, signed
from bot.store.cups import CupRow
from bot.table import CupStatus
from bot.table.cups import MAX_PLAYERS, Cup, Standing, commitment, draw, jie
from engine.rules import get_rule_set

MEDALS = ("🥇", "🥈", "🥉")


def _head(row: CupRow, cup: Cup, lang: str) -> str:
    return t(lang, "cup_head", id=row.id, rules=rules_house_label(get_rule_set(cup.rules), lang),
             rounds=cup.rounds, hands=cup.hands)


def _rows(table: list[Standing], lang: str) -> list[str]:
    """A line a player, at his place; a place shared (equal 节分, points and opponents'
    节分) says so."""
    return [t(lang, "cup_row", place=s.place, name=s.player.name, jie=s.jie,
              points=signed(s.points)) + (t(lang, "place_tied") if s.tied else "")
            + (t(lang, "cup_left") if s.player.left else "") for s in table]


def card_text(row: CupRow, cup: Cup, table: list[Standing], lang: str) -> str:
    lines = [_head(row, cup, lang)]
    if row.status == CupStatus.SIGNUP:
        names = t(lang, "name_sep").join(p.name for p in cup.players)
        lines += [t(lang, "cup_signup", n=len(cup.players), max=MAX_PLAYERS, names=names),
                  t(lang, "cup_seal", sha=commitment(cup.seed)),
                  t(lang, "cup_how", seats=cup.seats)]
        return "\n".join(lines)
    done = sum(1 for rnd in cup.tables if all(x.points is not None for x in rnd))
    if cup.cancelled:
        lines.append(_cancelled(cup, lang))
    lines.append(t(lang, "cup_done") if row.status == CupStatus.DONE else
                 t(lang, "cup_round", k=cup.round, n=cup.rounds, played=done))
    return "\n".join(lines + _rows(table, lang))


def card_keyboard(row: CupRow, lang: str) -> InlineKeyboardMarkup | None:
    if row.status != CupStatus.SIGNUP:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        t(lang, "btn_cup_join"), callback_data=cb.CupJoin(row.id).pack())]])


def final_text(row: CupRow, cup: Cup, table: list[Standing], lang: str) -> str:
    names = {p.id: p.name for p in cup.players}
    champions = [s.player.name for s in table if s.place == 1]
    if cup.cancelled:  # no champion, no medals: the standings as they were
        lines = [t(lang, "cup_cancelled_head", id=row.id), _cancelled(cup, lang)]
        if not cup.tables:
            return "\n".join(lines)
    else:
        lines = [t(lang, "cup_final_head", id=row.id,
                   name=t(lang, "name_sep").join(champions) or "—")]
        lines.append("  ".join(f"{MEDALS[s.place - 1]} {s.player.name}" for s in table
                               if s.place <= len(MEDALS)))
    lines += _rows(table, lang)
    lines.append(t(lang, "cup_final_rounds"))  # what the figures of the tables' lines are
    for k, rnd in enumerate(cup.tables, 1):
        lines.append(t(lang, "cup_final_round", k=k))
        for ct in rnd:
            points = ct.points or {}
            seated = [f"{names.get(u, '—')} {signed(points.get(str(u), 0))}"
                      f"({jie(points, u, cup.seats) if str(u) in points else 0})"
                      for u in ct.seats if u is not None]
            robots = sum(1 for u in ct.seats if u is None)
            extra = t(lang, "cup_final_robots", n=robots) if robots else ""
            lines.append(t(lang, "cup_final_table", no=ct.no, seats=", ".join(seated)) + extra)
    lines.append(t(lang, "cup_final_proof", seed=cup.seed, sha=commitment(cup.seed),
                   order=",".join(str(p.id) for p in cup.players)))
    if cup.swaps:
        lines.append(t(lang, "cup_final_swaps", swaps=", ".join(
            _swap(cup, names, a, b, lang) for a, b in cup.swaps)))
    return "\n".join(lines)


def _cancelled(cup: Cup, lang: str) -> str:
    """What /cup cancel left: nothing played (in sign-up), or the rounds as far as played."""
    if not cup.tables:
        return t(lang, "cup_cancelled_signup")
    return t(lang, "cup_cancelled", k=cup.round, n=cup.rounds)


def _swap(cup: Cup, names: dict[int, str], a: int, b: int, lang: str) -> str:
    """One swap of the first round for /apart (``Cup.swaps``): positions in the draw's order
    (from 1), a computer player in a seat past its end."""
    order = draw(cup.seed, [p.id for p in cup.players])
    computer = t(lang, "webapp_robot")
    x, y = (names[order[k]] if k < len(order) else computer for k in (a, b))
    return t(lang, "cup_final_swap", a=a + 1, b=b + 1, x=x, y=y)


def waiting_text(row: CupRow, cup: Cup, mine: Standing, table_no: int, lang: str) -> str:
    """A player's private note while the round goes on at other tables: the cup and round,
    his table done, his place (shared or not) with his 节分 and points, and what comes next:
    the next round once the other tables are done, or, after the last, the final card."""
    left = sum(1 for ct in cup.tables[-1] if ct.points is None)
    place = t(lang, "cup_wait_place", place=mine.place, jie=mine.jie,
              points=signed(mine.points)) + (t(lang, "place_tied") if mine.tied else "")
    later = t(lang, "cup_wait_next", k=cup.round + 1, left=left) if cup.round < cup.rounds \
        else t(lang, "cup_wait_last", left=left)
    return "\n".join((t(lang, "cup_wait_head", id=row.id, k=cup.round, n=cup.rounds,
                         no=table_no), place, later))
