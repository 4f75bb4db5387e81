"""/season and /stats: a group's standings by season and its members' figures over a day, a
week or the season, read from the hands (:mod:`bot.store.club_scores`), words from the catalogs.

As /rank, each shows one rule set (the group's table's by default; a rule set id names
another) and answers with a picture whose caption is its text. A season's board is /rank's
without 等级: a title is the all-time record's. A day is China's (UTC+8, where the game is
played); a week is today and the six days before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.commands.stats import READ, RECENT, TOP, asked_board, board_places, rules_name, tied
from bot.i18n import t
from bot.numbers import positive
from bot.store import ClubRow, RankRow, Reads, Season, Span
from bot.store.club import day_start
from engine.rules import RULE_SETS
from render.club_stats import render_club_stats
from render.leaderboard import BoardRow, render_leaderboard

NAME_MAX = 32  # characters of a season's name
TODAY, WEEK, SEASON = "today", "week", "season"
PERIOD_WORDS = {"today": TODAY, "今天": TODAY, "今日": TODAY, "week": WEEK, "本周": WEEK,
                "周": WEEK, "season": SEASON, "赛季": SEASON, "本赛季": SEASON}
NEW_WORDS = frozenset({"new", "新"})


@dataclass(frozen=True)
class SeasonQuery:
    """What /season asks: a season (None: the current one) of a rule set, or to close the
    current one (``new``, with the next one's ``name``)."""

    rule_set: str
    no: int | None = None
    new: bool = False
    name: str | None = None


def season_query(args: Sequence[str], table_rule_set: str) -> SeasonQuery | None:
    """/season [N] [rule set] [房规…], or /season new [name]; None for anything else."""
    if args and args[0].lower() in NEW_WORDS:
        name = " ".join(args[1:]).strip() or None
        if name is not None and len(name) > NAME_MAX:
            return None
        return SeasonQuery(table_rule_set, new=True, name=name)
    no, words = None, []
    for word in args:
        if positive(word) is not None and no is None:
            no = positive(word)
        else:
            words.append(word)
    rule_set = asked_board(words, table_rule_set)
    return None if rule_set is None else SeasonQuery(rule_set, no)


def season_label(season: Season, lang: str) -> str:
    name = t(lang, "season_name", name=season.name) if season.name else ""
    return t(lang, "season_label", no=season.no, name=name)


def season_span_text(season: Season, lang: str) -> str:
    if season.last_no is None:
        return t(lang, "season_span_open", first=season.first_no)
    return t(lang, "season_span_closed", first=season.first_no, last=season.last_no,
             at=season.closed_at or "")


def season_title(season: Season, rule_set: str, lang: str) -> str:
    return t(lang, "season_title", season=season_label(season, lang),
             rules=rules_name(rule_set, lang), n=TOP)


def season_text(season: Season, rows: Sequence[RankRow], rule_set: str, lang: str) -> str:
    lines = [season_title(season, rule_set, lang), season_span_text(season, lang)]
    if not rows:
        lines.append(t(lang, "season_empty"))
    lines += [t(lang, "season_line", pos=p.no, name=r.name, points=r.points, hands=r.hands,
                wins=r.wins) + (t(lang, "rank_birds", birds=r.birds) if r.birds else "")
              + tied(p, lang)
              for p, r in zip(board_places([r.points for r in rows]), rows[:TOP], strict=False)]
    return "\n".join(lines)


async def season_board(store: Reads, chat_id: int, season: Season,
                       rule_set: str) -> tuple[list[RankRow], list[BoardRow]]:
    """The season's top players of the rule set (one past the board too, see
    :func:`bot.commands.stats.rank_text`) and the picture's rows (with sparklines of their last
    hands in the season)."""
    span = Span.of(season)
    rows = await store.season_ranking(chat_id, span, rule_set, READ)
    recent = await store.season_recent(chat_id, span, rule_set, [r.user_id for r in rows],
                                       RECENT)
    return rows, [BoardRow(r.name, r.points, r.hands, r.wins, tuple(recent[r.user_id]))
                  for r in rows]


def draw_season(board: Sequence[BoardRow], season: Season, rule_set: str, lang: str) -> bytes:
    return render_leaderboard(board, lang, title=season_title(season, rule_set, lang),
                              places=board_places([r.points for r in board]), levels=False)


def closed_text(closed: Season, nxt: str | None, rows: Sequence[RankRow], rule_set: str,
                lang: str) -> str:
    """/season new's answer: the season closed (its board's text) and the one begun."""
    head = t(lang, "season_closed", season=season_label(closed, lang),
             next=season_label(Season(closed.no + 1, nxt, (closed.last_no or 0) + 1, None),
                               lang))
    return "\n".join((head, season_text(closed, rows, rule_set, lang)))


# --- /stats ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StatsQuery:
    period: str  # TODAY | WEEK | SEASON
    rule_set: str


def stats_query(args: Sequence[str], table_rule_set: str) -> StatsQuery | None:
    """/stats [today|week|season] [rule set] [房规…], in any order; None for another word."""
    period, words = TODAY, []
    for word in args:
        if word.lower() in PERIOD_WORDS:
            period = PERIOD_WORDS[word.lower()]
        else:
            words.append(word)
    rule_set = asked_board(words, table_rule_set)
    return None if rule_set is None else StatsQuery(period, rule_set)


async def stats_span(store: Reads, chat_id: int, period: str,
                     now: datetime | None = None) -> tuple[Span, Season | None]:
    """The hands a /stats period covers (and the season, for ``season``)."""
    if period == SEASON:
        season = await store.season(chat_id)
        assert season is not None  # the current season always is
        return Span.of(season), season
    when = now or datetime.now(UTC)
    return Span(since=day_start(when, 6 if period == WEEK else 0)), None


def stats_title(query: StatsQuery, season: Season | None, lang: str) -> str:
    period = season_label(season, lang) if season is not None else t(
        lang, f"stats_{query.period}")
    return t(lang, "stats_title", period=period, rules=rules_name(query.rule_set, lang))


def stats_text(rows: Sequence[ClubRow], query: StatsQuery, season: Season | None,
               lang: str) -> str:
    """Every member who played in the span, a line each (the picture shows the first
    ``render.club_stats.TOP``): the caption while it fits, else the text sent after it."""
    lines = [stats_title(query, season, lang)]
    if not rows:
        lines.append(t(lang, "stats_empty"))
    lines += [t(lang, "stats_line", pos=p.no, name=r.name, hands=r.hands,
                points=f"{r.points:+d}" if r.points else "0", top=r.top,
                huxi="—" if r.huxi is None else r.huxi, zimo=r.zimo) + tied(p, lang)
              for p, r in zip(board_places([r.points for r in rows]), rows, strict=True)]
    return "\n".join(lines)


def draw_stats(rows: Sequence[ClubRow], query: StatsQuery, season: Season | None,
               lang: str) -> bytes:
    return render_club_stats(rows, lang, title=stats_title(query, season, lang),
                             places=board_places([r.points for r in rows]))


def season_usage(lang: str) -> str:
    return t(lang, "season_usage", choices="|".join(RULE_SETS), n=NAME_MAX)


def stats_usage(lang: str) -> str:
    return t(lang, "stats_usage", choices="|".join(RULE_SETS))
