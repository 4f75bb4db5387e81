"""The screens of a 复式挑战 (:mod:`bot.table.challenges`): the group's card with its
standings and 参加, the final card (🏆, every player's points, the seeds, a 🔍 line per
player), and a participant's private picture's caption and buttons.

The picture itself is the usual seat picture (``render_hand``), with the same names for
every participant (你 and the computers): two participants at the same position get the
very same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callbacks as cb
from bot.i18n import t
from bot.present import fairness
from bot.present.screens.seat import DISCARDS_PER_ROW, SeatMarks
from bot.present.screens.words import hand_outcome_lines, rules_house_label, signed
from bot.present.zones import local_time
from bot.store.challenges import ChallengeRow
from bot.table import ChallengeStatus, EntrantStatus, robots
from bot.table.challenges import HUMAN, Deal, Difference, Run, Standing
from engine import actions as A
from engine.duplicate import seeds_commitment
from engine.rules import RuleSet, get_rule_set

MAX_DIFF_BUTTONS = 40  # of Telegram's 100 buttons a message
MARKS_OF = {n: SeatMarks(robots=frozenset(s for s in range(n) if s != HUMAN)) for n in (2, 3, 4)}


def seat_names(rules: RuleSet, lang: str) -> list[str]:
    """你 at the participant's seat, the computers' names at the others."""
    others = robots.names(lang)
    return [t(lang, "challenge_you") if s == HUMAN else others[s - 1]
            for s in range(rules.players)]


def deadline_text(deadline: float, zone: str | None) -> str:
    """The deadline in the group's time zone (:mod:`bot.present.zones`)."""
    return local_time(deadline, zone)


def _head(row: ChallengeRow, lang: str) -> list[str]:
    rules = get_rule_set(row.rules)
    return [t(lang, "challenge_card_head", id=row.id, rules=rules_house_label(rules, lang),
              hands=len(row.seeds)),
            t(lang, "challenge_card_rules"),
            t(lang, "challenge_card_seal", sha=seeds_commitment(row.seeds))]


def _standing_line(s: Standing, hands: int, lang: str, over: bool) -> str:
    """``over``: the challenge ended, so one still playing did not finish. A place shared
    (equal points and decisions off) says so."""
    playing = "challenge_row_unfinished" if over else "challenge_row_playing"
    keys: dict[str, str] = {EntrantStatus.PLAYING: playing,
                            EntrantStatus.LEFT: "challenge_row_left"}
    key = keys.get(s.player.status, "challenge_row")
    return t(lang, key, place=s.place, name=s.player.name, points=signed(s.points),
             played=s.played, hands=hands, offs=s.offs) + (t(lang, "place_tied") if s.tied else "")


def card_text(row: ChallengeRow, table: Sequence[Standing], lang: str,
              zone: str | None = None) -> str:
    """The group's card while the challenge is open (and once it ended: its last state);
    ``zone``: the group's time zone, None for the default one."""
    lines = _head(row, lang)
    lines.append(t(lang, "challenge_card_deadline" if row.status == ChallengeStatus.OPEN
                   else "challenge_card_ended", at=deadline_text(row.deadline, zone)))
    if table:
        lines.append(t(lang, "challenge_standings"))
        lines += [_standing_line(s, len(row.seeds), lang, row.status != ChallengeStatus.OPEN)
                  for s in table]
    else:
        lines.append(t(lang, "challenge_nobody"))
    return "\n".join(lines)


def card_keyboard(row: ChallengeRow, lang: str) -> InlineKeyboardMarkup | None:
    if row.status != ChallengeStatus.OPEN:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        t(lang, "btn_challenge_join"), callback_data=cb.ChallengeJoin(row.id).pack())]])


def _action(action: str | None, lang: str) -> str:
    return t(lang, "challenge_stopped") if action is None else A.label(action, lang)


def final_text(row: ChallengeRow, table: Sequence[Standing],
               diffs: dict[int, Difference | None], lang: str) -> str:
    """The final card: 🏆 and the winner first, every player's points, the seeds revealed
    (their SHA-256 is the card's), and where each player first left the best one's choices."""
    hands = len(row.seeds)
    if table:
        best = table[0]
        winners = t(lang, "name_sep").join(s.player.name for s in table if s.place == 1)
        lines = [t(lang, "challenge_final_head", id=row.id, name=winners,
                   points=signed(best.points))]
    else:
        lines = [t(lang, "challenge_final_nobody", id=row.id)]
    lines += [_standing_line(s, hands, lang, True) for s in table]
    lines.append(t(lang, "challenge_final_seeds", seeds=",".join(map(str, row.seeds)),
                   sha=seeds_commitment(row.seeds)))
    for s in table[1:]:
        diff = diffs.get(s.player.user_id)
        if diff is None:
            lines.append(t(lang, "challenge_same", name=s.player.name, best=table[0].player.name))
        else:
            lines.append(t(lang, "challenge_diff", name=s.player.name,
                           best=table[0].player.name, deal=diff.deal + 1, n=diff.seq + 1,
                           his=_action(diff.his, lang), theirs=_action(diff.best, lang)))
    return "\n".join(lines)


def final_keyboard(row: ChallengeRow, table: Sequence[Standing],
                   diffs: dict[int, Difference | None], lang: str) -> InlineKeyboardMarkup | None:
    """A 🔍 per player (but the winner) whose choices differ from the winner's: the picture
    of that position, sent privately to whoever presses it."""
    rows = [[InlineKeyboardButton(t(lang, "btn_challenge_diff", name=s.player.name),
                                  callback_data=cb.ChallengeDiff(row.id, i).pack())]
            for i, s in enumerate(table) if i and diffs.get(s.player.user_id) is not None]
    return InlineKeyboardMarkup(rows[:MAX_DIFF_BUTTONS]) if rows else None


def diff_caption(row: ChallengeRow, his: Standing, best: Standing, diff: Difference,
                 lang: str) -> str:
    return t(lang, "challenge_diff_caption", id=row.id, name=his.player.name,
             best=best.player.name, deal=diff.deal + 1, n=diff.seq + 1,
             his=_action(diff.his, lang), theirs=_action(diff.best, lang))


def deal_caption(row: ChallengeRow, run: Run, k: int, lang: str) -> str:
    """The caption of his picture of deal ``k``: the challenge, the deal and its 🔒, his
    胡息, and what he is to do (or how the deal ended, with his running total)."""
    deal: Deal = run.deals[k]
    view = deal.view()
    lines = [t(lang, "challenge_dm_head", id=row.id, k=k + 1, n=len(row.seeds),
               fp=fairness.fingerprint(deal.seed), huxi=view.huxi)]
    if deal.over:
        names = seat_names(run.rules, lang)
        lines += hand_outcome_lines(deal.hand, names, lang)
        lines.append(t(lang, "challenge_dm_points", points=signed(deal.points()),
                       total=signed(sum(d.points() for d in run.deals[:k + 1]))))
    elif not deal.legal():
        lines.append(t(lang, "dm_wait"))
    elif any(a.startswith("d:") for a in deal.legal()):
        lines.append(t(lang, "dm_turn_discard"))
    else:
        lines.append(t(lang, "dm_turn_claim"))
    return "\n".join(lines)


def deal_keyboard(row: ChallengeRow, run: Run, version: int,
                  lang: str) -> InlineKeyboardMarkup | None:
    """His legal actions in the current deal and 离开 (what he finished counts)."""
    legal = run.current.legal()
    if not legal:
        return None
    discards: list[InlineKeyboardButton] = []
    rows: list[list[InlineKeyboardButton]] = []
    for i, action in enumerate(legal):
        button = InlineKeyboardButton(A.label(action, lang),
                                      callback_data=cb.ChallengeMove(row.id, version, i).pack())
        if action.startswith("d:"):
            discards.append(button)
        else:
            rows.append([button])
    rows[:0] = [discards[i:i + DISCARDS_PER_ROW] for i in range(0, len(discards), DISCARDS_PER_ROW)]
    rows.append([InlineKeyboardButton(t(lang, "btn_challenge_leave"),
                                      callback_data=cb.ChallengeLeave(row.id).pack())])
    return InlineKeyboardMarkup(rows)


def done_text(row: ChallengeRow, run: Run, left: bool, lang: str) -> str:
    """His last private word: what he scored over the deals he finished."""
    return t(lang, "challenge_left" if left else "challenge_done", id=row.id,
             points=signed(run.points()), played=run.played(), hands=len(row.seeds))
