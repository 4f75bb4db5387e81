"""The two skill measures as players read them (docs/club_scores.md): the skill rating
(技术评级, :mod:`bot.table.skill`) on /me and on /rank 技术, and a season's 技术分 (from the
复盘 of every reviewed seat: :mod:`bot.table.reviewer`) on /season 技术. Neither is points,
money or anything one can trade: they say how one plays.

技术分 is the 复盘's own rating over the season: ``100 / (1 + mean loss / RATING_SCALE)``
where the mean loss is the points lost per decision against the strong player
(``engine.review``), over every reviewed seat of the season together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.commands import stats
from bot.commands.stats import MeRules, rules_name, tied
from bot.i18n import t
from bot.store import PlayedHand, Reads
from bot.store.club_scores import Season, Span
from bot.store.skill import ReviewedRow, StoredRating
from bot.table.skill import ANCHOR_SIGMA, anchor, shown
from engine.review import RATING_ANCHORS, RATING_SCALE
from engine.standings import Place, places
from render.skill_board import Marker, SkillRow, render_skill_board

SKILL_WORDS = frozenset({"技术", "skill"})
TOP = 10
READ = TOP + 1  # rows read for the rating board: the one past the last shown tells a tie
BELOW_WEAK = 300  # the rating board's scale starts this far below the weak computer's mark
BOARD_LEVELS = ("weak", "medium", "strong")  # the computer levels marked on the boards


def skill_asked(args: Sequence[str]) -> tuple[bool, list[str]]:
    """Whether the arguments ask for the skill board (``技术`` or ``skill``), and the rest."""
    rest = [a for a in args if a.lower() not in SKILL_WORDS]
    return len(rest) < len(args), rest


def level_word(level: str) -> str:
    """A computer level's name as the boards mark it: 弱, 中, 强 (a game term, in Chinese in
    either language)."""
    return t("zh", f"level_{level}")


def markers(rule_set: str) -> list[Marker]:
    """The computer levels' ratings, marked on the rating board."""
    return [Marker(level_word(level), anchor(rule_set, level).shown) for level in BOARD_LEVELS]


def computers_text(rule_set: str) -> str:
    return " · ".join(f"{m.label} {m.value:,.0f}" for m in markers(rule_set))


# --- the skill rating: /me and /rank 技术 ---------------------------------------------


def me_skill_line(rule_set: str, rating: StoredRating | None, lang: str) -> str:
    """/me's line of one rule set's rating, with the computers' beside it."""
    rules, computers = rules_name(rule_set, lang), computers_text(rule_set)
    if rating is None:
        return t(lang, "me_skill_none", rules=rules, computers=computers)
    return t(lang, "me_skill", rules=rules, rating=f"{shown(rating.mu, rating.sigma):,}",
             n=rating.matches, computers=computers)


async def me_skills(store: Reads, user_id: int, rule_sets: Sequence[str]
                    ) -> dict[str, StoredRating | None]:
    """His rating in each of ``rule_sets`` (None: none yet)."""
    found: dict[str, StoredRating | None] = {}
    for rule_set in rule_sets:
        mine = await store.skill_ratings(rule_set, [user_id])
        found[rule_set] = mine[0] if mine else None
    return found


def draw_card(name: str, user_id: int, part: MeRules, played: Sequence[PlayedHand],
              rating: StoredRating | None, lang: str) -> bytes:
    """/me's player card with its rule set's rating."""
    return stats.draw_card(name, user_id, part, played, lang,
                           card_skill(part.rule_set, rating, lang))


def card_skill(rule_set: str, rating: StoredRating | None, lang: str) -> tuple[str, str]:
    """The player card's skill tile: its words and its figure."""
    computers = computers_text(rule_set)
    if rating is None:
        return t(lang, "card_skill_none", computers=computers), "—"
    return (t(lang, "card_skill", n=rating.matches, computers=computers),
            f"{shown(rating.mu, rating.sigma):,}")


def board_title(rule_set: str, everyone: bool, lang: str) -> str:
    return t(lang, "skill_rank_global" if everyone else "skill_rank_group", n=TOP,
             rules=rules_name(rule_set, lang))


def settled(rating: StoredRating) -> int:
    """Where a rating is heading: its figure once as sure as a regular player's (σ as the
    anchors'), the same mu — what compares with the computers' marks."""
    return shown(rating.mu, min(rating.sigma, ANCHOR_SIGMA))


def rating_rows(rows: Sequence[StoredRating], lang: str) -> list[SkillRow]:
    """The board's first ``TOP`` of ``rows`` (best first), equal figures sharing a place."""
    figures = [shown(r.mu, r.sigma) for r in rows]
    return [SkillRow(p, r.name, f"{v:,}", v, t(lang, "skill_matches", n=r.matches),
                     settled(r))
            for p, r, v in zip(places(figures), rows, figures, strict=True)][:TOP]


def rank_text(rows: Sequence[StoredRating], rule_set: str, everyone: bool, lang: str) -> str:
    if not rows:
        return t(lang, "skill_rank_empty", rules=rules_name(rule_set, lang))
    lines = [board_title(rule_set, everyone, lang)]
    lines += [t(lang, "skill_rank_line", pos=r.place.no, name=r.name, rating=r.figure,
                note=r.note) + tied(r.place, lang) for r in rating_rows(rows, lang)]
    lines.append(t(lang, "skill_rank_foot", computers=computers_text(rule_set)))
    return "\n".join(lines)


def draw_rank(rows: Sequence[StoredRating], rule_set: str, everyone: bool, lang: str) -> bytes:
    """The board's picture: the bars' scale starts a few hundred below the weak computer's
    mark (a figure below starts there too; its number says it), so that the computers' marks,
    close together, and players near them part."""
    table, marks = rating_rows(rows, lang), markers(rule_set)
    high = max([r.reach or r.value for r in table] + [m.value for m in marks])
    low = min(m.value for m in marks) - BELOW_WEAK
    return render_skill_board(
        table, title=board_title(rule_set, everyone, lang),
        heads=(t(lang, "skill_head_player"), t(lang, "skill_head_rating"), ""),
        markers=marks, top=high + 50, bottom=max(0, low // 100 * 100),
        empty=t(lang, "skill_rank_empty", rules=rules_name(rule_set, lang)))


# --- a season's 技术分: /season 技术 -----------------------------------------------------


@dataclass(frozen=True)
class TechRow:
    place: Place
    row: ReviewedRow
    score: int
    mean_loss: float


def tech_score(decisions: int, loss: float) -> int | None:
    """The 复盘's rating over these decisions (None without one)."""
    if decisions <= 0:
        return None
    return round(100 / (1 + loss / decisions / RATING_SCALE))


async def season_tech(store: Reads, chat_id: int, season: Season,
                      rule_set: str) -> list[TechRow]:
    """Every member with a reviewed decision in the season, best 技术分 first (then more
    decisions)."""
    found = [r for r in await store.season_reviews(chat_id, Span.of(season), rule_set)
             if r.decisions > 0]
    found.sort(key=lambda r: (-(tech_score(r.decisions, r.loss) or 0), -r.decisions,
                              r.user_id))
    scores = [tech_score(r.decisions, r.loss) or 0 for r in found]
    return [TechRow(p, r, s, r.loss / r.decisions)
            for p, r, s in zip(places(scores), found, scores, strict=True)]


def tech_title(season_label: str, rule_set: str, lang: str) -> str:
    return t(lang, "tech_title", season=season_label, rules=rules_name(rule_set, lang))


def tech_text(season_label: str, rows: Sequence[TechRow], rule_set: str, lang: str) -> str:
    lines = [tech_title(season_label, rule_set, lang)]
    if not rows:
        lines.append(t(lang, "tech_empty"))
    lines += [t(lang, "tech_line", pos=r.place.no, name=r.row.name, score=r.score,
                loss=f"{r.mean_loss:.2f}", hands=r.row.hands, decisions=r.row.decisions)
              + tied(r.place, lang) for r in rows[:TOP]]
    if len(rows) > TOP:
        lines.append(t(lang, "tech_more", n=len(rows) - TOP))
    lines.append(t(lang, "tech_foot", weak=RATING_ANCHORS["weak"],
                   medium=RATING_ANCHORS["medium"]))
    return "\n".join(lines)


def draw_tech(season_label: str, rows: Sequence[TechRow], rule_set: str, lang: str) -> bytes:
    skill_rows = [SkillRow(r.place, r.row.name, str(r.score), r.score,
                           t(lang, "tech_note", hands=r.row.hands, loss=f"{r.mean_loss:.2f}"))
                  for r in rows]
    marks = [Marker(level_word("weak"), RATING_ANCHORS["weak"]),
             Marker(level_word("medium"), RATING_ANCHORS["medium"]),
             Marker(level_word("strong"), 100)]
    return render_skill_board(
        skill_rows, title=tech_title(season_label, rule_set, lang),
        heads=(t(lang, "tech_head_player"), t(lang, "tech_head_score"), ""), markers=marks,
        top=100, empty=t(lang, "tech_empty"))


