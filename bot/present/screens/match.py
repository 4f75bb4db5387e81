"""A match's 总结算 screen: its summary from the stored hands, and its text caption."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.present.screens.words import match_scores, signed
from bot.store import MatchRow, PlayedHand
from bot.table import MatchStatus
from engine.rules import get_rule_set
from engine.state import Hand
from render.match import MatchHand, MatchSummary


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
    elif row.status == MatchStatus.STOPPED:
        text += "\n" + t(lang, "match_caption_stopped")
    return text

