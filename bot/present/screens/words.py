"""Words shared by the screens: the move log, what the table waits for, how a hand ended,
the rules, timer and match in brief, and a match's running score."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import rule_set_name, t
from bot.table import SLOW, HandRecord, Match, Refusal, Table
from engine import actions as A
from engine import cards as C
from engine.points import SeatPoints, signed
from engine.rules import RuleSet
from engine.state import Hand
from engine.views import Event, OutcomeKind, PublicView

LOG_EVENTS = 5  # public events shown under the table photo
QUIET_EVENTS = frozenset({"deal", "pass", "to_row"})
CLAIM_ENDS = frozenset({"chi", "peng", "pao", "hu", "to_row"})  # events that settle a claim


def table_no(table: Table) -> int:
    """The table's number as its players read it: a 群杯's table's number in its cup (the
    cup's topics and cards number its tables), any other table's in its group."""
    return table.cup.no if table.cup is not None else table.no


def cup_prefix(table: Table, lang: str) -> str:
    """``群杯 #1 · 第 2 轮 · `` before a 群杯's table's private captions; else nothing."""
    if table.cup is None:
        return ""
    return t(lang, "cup_prefix", id=table.cup.cup_id, round=table.cup.round) + " · "


def refusal_text(refusal: Refusal, lang: str) -> str:
    """A refusal in words; a ``move`` field (an action string) is labelled in ``lang``."""
    fields = {k: A.label(v, lang) if k == "move" else v for k, v in refusal.fields.items()}
    return t(lang, refusal.code, **fields)


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
    that answers are awaited, never who is asked (that would tell what he holds)."""
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


def house_line(rules: RuleSet, lang: str) -> str:
    """The house rules (房规) in force, in a short line (``房规:起胡10 · 封顶100 · 无名堂``);
    the rule set's own rules: ``房规:无``."""
    return t(lang, "house_line", label=rules.house_label or t(lang, "house_none"))


def rules_house_label(rules: RuleSet, lang: str) -> str:
    """:func:`rules_label` and the house rules after it, as cards and lists name a table's
    rules: ``湖南跑胡子 · 3人 · 起胡10 · 封顶100``."""
    return " · ".join(p for p in (rules_label(rules, lang), rules.house_label) if p)


def timer_label(seconds: int | float | None, lang: str) -> str:
    if seconds == SLOW:
        return t(lang, "timer_slow")
    return t(lang, "timer_seconds", seconds=f"{seconds:g}")


def match_label(hands: int, lang: str) -> str:
    """单局 for single hands, else ``8局``."""
    return t(lang, "match_single") if hands == 1 else t(lang, "match_hands", n=hands)


def level_label(level: str, lang: str) -> str:
    """A computer level's name: 弱, 中 or 强 (``bot.table.LEVELS``)."""
    return t(lang, f"level_{level}")


def points_text(points: SeatPoints, total: int, lang: str, *, xing: bool) -> str:
    """A seat's points for the hand as the group's settlement and his private result both
    write them (:mod:`engine.points`): the hand's, its named parts (the 醒筹 he paid, unless
    he is the 醒家, whose points are 醒筹 anyway; the birds'), and his running total."""
    parts = [t(lang, key, points=signed(p)) for key, p, shown in (
        ("part_xing", points.xing, not xing), ("part_birds", points.birds, True)) if p and shown]
    if not parts:
        return t(lang, "points_total", points=signed(points.total), total=signed(total))
    return t(lang, "points_parts_total", points=signed(points.total), total=signed(total),
             parts=t(lang, "part_sep").join(parts))


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


def outcome_lines(record: HandRecord, lang: str) -> list[str]:
    """How a finished hand ended: who won with what (胡息, then the 名堂 and flags on a line
    of their own), or 荒庄, 解散, 逃跑 — the settlement's first lines."""
    return hand_outcome_lines(record.hand, record.names, lang)


def hand_outcome_lines(hand: Hand, names: Sequence[str], lang: str) -> list[str]:
    """:func:`outcome_lines` of a finished engine hand whose seats are called ``names``."""
    outcome = hand.outcome
    assert outcome is not None
    if outcome.kind == OutcomeKind.DRAW:
        chips = outcome.points[outcome.xing] if outcome.xing is not None else 0
        if chips:  # the dealer pays the 醒家 (docs/rules/hunan.md)
            assert outcome.xing is not None
            return [t(lang, "settle_draw_xing", dealer=names[hand.dealer],
                      xing=names[outcome.xing], points=chips)]
        return [t(lang, "settle_draw")]
    if outcome.kind == OutcomeKind.DISSOLVED:
        return [t(lang, "settle_dissolved")]
    if outcome.kind != OutcomeKind.WIN or outcome.win is None:
        assert outcome.escaper is not None
        return [t(lang, "settle_escape", name=names[outcome.escaper],
                  points=max(outcome.points))]
    win = outcome.win
    assert outcome.winner is not None
    # 湖南: 囤 times multiplying 名堂 (×n), else 底数 times 番 added up
    times = hand.rules.mingtang_multiply
    head = t(lang, "settle_win_tun" if times else "settle_win",
             winner=names[outcome.winner], huxi=win.huxi, di=win.di, fan=win.fan)
    item = "mingtang_times" if times else "mingtang_item"
    items = " ".join(t(lang, item, name=name, fan=fan)
                     for name, fan in win.mingtang) or t(lang, "settle_plain")
    flags = [t(lang, f) for f, on in (("flag_tianhu", win.tianhu), ("flag_dihu", win.dihu),
                                       ("flag_zimo", win.zimo), ("flag_haidi", win.haidi)) if on]
    if outcome.fed_by is not None:
        flags.append(t(lang, "flag_fed", name=names[outcome.fed_by]))
    lines = [head, " · ".join([t(lang, "settle_mingtang", items=items), *flags])]
    if outcome.uncapped_points is not None:  # 封顶 cut what the losers paid
        lines.append(capped_line(hand, names, lang))
    return lines


def capped_line(hand: Hand, names: Sequence[str], lang: str) -> str:
    """封顶 applied: the cap and, of each seat it changed, his points without it."""
    outcome = hand.outcome
    assert outcome is not None and outcome.uncapped_points is not None
    was = [f"{names[s]} {signed(p)}" for s, p in enumerate(outcome.uncapped_points)
           if p != outcome.points[s]]
    return t(lang, "settle_capped", cap=hand.rules.cap, was=t(lang, "name_sep").join(was))
