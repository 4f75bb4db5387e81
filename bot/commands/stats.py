"""/rank, /me and /history: figures from the store, words from the catalogs.

Rule sets are scored apart (a 湖南 囤 is not a QQ point): /rank shows one rule set (the
group's table's by default, ``/rank hunan`` another), in this group or, with ``all``, over
every group; /me has a part per rule set played, each with its own 等级.

Each command first reads what it needs (``*_data``, async) and then formats it for a language
(``*_text``, pure), so that a group reply can be worded in the group's language when it is
sent. 胡息 and 名堂 are not stored: a shown hand is replayed from its log (about a
millisecond each).

/rank and /me answer with a picture and keep their text as its caption. A board's places
are by points (:func:`board_places`): equal points share a place, marked 并列 / tied. The leaderboard's
sparklines are each player's last ``RECENT`` hands of the board's rule set (one query for
the ten); the player card's 自摸, biggest 胡息 and most frequent 名堂 come from replaying the
user's last ``CARD_HANDS`` hands of its rule set (about 1.2 ms each, on the render thread;
each hand replayed once, see :func:`win_facts`), whose points also draw its line; its hands,
wins and points are the whole record's.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.i18n import rule_set_name, t
from bot.present.fairness import replay
from bot.store import (
    QQ_ID,
    PlayedHand,
    RankRow,
    Reads,
    Score,
    board_of,
    board_rule_set,
    board_words,
)
from engine.points import signed
from engine.rules import RULE_SETS, table_rules, title_of, with_house_rules
from engine.standings import Place, places
from engine.views import Outcome, OutcomeKind
from render.leaderboard import BoardRow, render_leaderboard
from render.player_card import PlayerCard, render_player_card

TOP = 10
READ = TOP + 1  # rows read for a board: the one past the last shown tells a shared place
RECENT = 20  # hands in a leaderboard sparkline
CARD_HANDS = 200  # hands replayed for the player card (about 1.2 ms each, once)
CACHED_HANDS = 20_000  # wins remembered (about 200 bytes each)
HISTORY = 10
ALL_WORDS = frozenset({"all", "全部"})  # /rank all


@dataclass(frozen=True)
class RankQuery:
    """Which leaderboard /rank shows: a rule set's, in this group or (``everyone``) in all."""

    rule_set: str
    everyone: bool


def rank_query(args: Sequence[str], private: bool, table_rule_set: str) -> RankQuery | None:
    """/rank's arguments, in any order: a rule set id and house rules (default
    ``table_rule_set``, the group's table's board: :mod:`bot.store.boards`) and ``all``
    (every group; always so in a private chat). None when a word is none of these."""
    everyone = private
    rest = []
    for word in args:
        if word.lower() in ALL_WORDS:
            everyone = True
        else:
            rest.append(word)
    board = asked_board(rest, table_rule_set)
    return None if board is None else RankQuery(board, everyone)


def asked_board(words: Sequence[str], table_board: str) -> str | None:
    """The leaderboard (:mod:`bot.store.boards`) ``words`` name: a rule set id and house
    rules (``hunan 起胡10``); house rules alone are of the table's rule set, nothing at all
    is the table's board ``table_board``. None when a word is neither."""
    if not words:
        return table_board
    rule_id, house = board_rule_set(table_board), []
    for word in words:
        if word.lower() in RULE_SETS:
            rule_id = word.lower()
        else:
            house.append(word)
    try:
        return board_of(with_house_rules(table_rules(rule_id), house).key)
    except ValueError:  # a HouseRuleError too
        return None


def rank_usage(lang: str) -> str:
    return t(lang, "rank_usage", choices="|".join(RULE_SETS))


def rules_name(rule_set: str, lang: str) -> str:
    """A board's name, from a rule set id (``hunan``), a board (``hunan+起胡10``) or a rules
    key (``hunan/4``): its rule set's name and its house rules (``湖南跑胡子 · 起胡10``)."""
    board = board_of(rule_set)
    return " · ".join((rule_set_name(board_rule_set(board), lang), *board_words(board)))


def board_places(points: Sequence[int]) -> list[Place]:
    """The places of a board's rows, best first: equal points share a place (the board lists
    them by wins, then by id: an order, not a place)."""
    return places(points)


def tied(place: Place, lang: str) -> str:
    """What a line of a board ends with when its place is shared: 并列 / tied."""
    return t(lang, "place_tied") if place.tied else ""


def rank_text(rows: Sequence[RankRow], lang: str, query: RankQuery) -> str:
    """The board's first ``TOP`` of ``rows`` (best first; one more shows whether the last
    place is shared)."""
    rules = rules_name(query.rule_set, lang)
    if not rows:
        return t(lang, "rank_empty", rules=rules)
    lines = [t(lang, "rank_global" if query.everyone else "rank_group", n=TOP, rules=rules)]
    lines += [t(lang, "rank_line", pos=p.no, name=r.name, points=r.points,
                title=title(r.points, lang), hands=r.hands, wins=r.wins)
              + (t(lang, "rank_birds", birds=r.birds) if r.birds else "") + tied(p, lang)
              for p, r in zip(board_places([r.points for r in rows]), rows[:TOP],
                              strict=False)]
    return "\n".join(lines)


def rank_title(lang: str, query: RankQuery) -> str:
    return t(lang, "rank_global" if query.everyone else "rank_group", n=TOP,
             rules=rules_name(query.rule_set, lang))


async def board_rows(store: Reads, rows: Sequence[RankRow], query: RankQuery,
                     chat_id: int) -> list[BoardRow]:
    """The leaderboard picture's rows: each ranked player with his last hands' points."""
    recent = await store.recent_points([r.user_id for r in rows], query.rule_set,
                                       None if query.everyone else chat_id, RECENT)
    return [BoardRow(r.name, r.points, r.hands, r.wins, tuple(recent[r.user_id]))
            for r in rows]


def draw_board(rows: list[BoardRow], query: RankQuery, lang: str) -> bytes:
    return render_leaderboard(rows, lang, title=rank_title(lang, query),
                              places=board_places([r.points for r in rows]))


def title(points: int, lang: str) -> str:
    """The 等级 title for ``points``, with its translation beside it in English."""
    return t(lang, f"title_{title_of(points)}")


def win_rate(hands: int, wins: int) -> str:
    return f"{wins / hands:.0%}" if hands else "—"


NO_SCORE = Score(0, 0, 0, 0)


@dataclass(frozen=True)
class MeRules:
    """A user's part of /me for one rule set."""

    rule_set: str
    total: Score  # over every chat
    here: Score | None  # in this group (None in a private chat)
    best: tuple[PlayedHand, Outcome] | None  # the hand won for the most points


@dataclass(frozen=True)
class Me:
    name: str
    parts: tuple[MeRules, ...]  # each rule set played (qq alone when none was)


def played_order(rule_sets: Sequence[str]) -> list[str]:
    """Rule set ids in the order the engine lists them (unknown ones last): qq when none."""
    known = list(RULE_SETS)
    order = sorted(rule_sets, key=lambda r: (
        known.index(board_rule_set(r)) if board_rule_set(r) in known else len(known), r))
    return order or [QQ_ID]


async def me_data(store: Reads, user_id: int, name: str, chat_id: int | None) -> Me:
    totals = await store.scores(user_id)
    here = await store.scores(user_id, chat_id) if chat_id is not None else None
    parts = []
    for rule_set in played_order(list(totals)):
        played = await store.best_hand(user_id, rule_set)
        best = None
        if played is not None:
            outcome = replay(played).outcome
            assert outcome is not None
            best = (played, outcome)
        parts.append(MeRules(rule_set, totals.get(rule_set, NO_SCORE),
                             None if here is None else here.get(rule_set, NO_SCORE), best))
    return Me(name, tuple(parts))


def card_part(me: Me, table_rule_set: str | None) -> MeRules:
    """The rule set the player card shows: the chat's table's if he played it, else the
    first one /me's text shows."""
    return next((p for p in me.parts if p.rule_set == table_rule_set), me.parts[0])


@dataclass(frozen=True)
class WinFacts:
    """What the player card needs of a won hand: who won it and how."""

    user_id: int
    zimo: bool
    huxi: int
    mingtang: tuple[str, ...]


_wins: OrderedDict[tuple[int, int], WinFacts | None] = OrderedDict()


def win_facts(played: PlayedHand) -> WinFacts | None:
    """The hand's win (None for 荒庄 or 逃跑), replayed once: kept for the last
    ``CACHED_HANDS`` hands asked about, by (id, seed), since a finished hand never changes
    (the seed tells two databases' hands of one id apart)."""
    key = (played.id, played.seed)
    if key in _wins:
        _wins.move_to_end(key)
        return _wins[key]
    outcome = replay(played).outcome
    facts = None
    if outcome is not None and outcome.win is not None and outcome.winner is not None:
        win = outcome.win
        facts = WinFacts(played.users[outcome.winner], win.zimo, win.huxi,
                         tuple(n for n, _ in win.mingtang))
    _wins[key] = facts
    if len(_wins) > CACHED_HANDS:
        _wins.popitem(last=False)
    return facts


def player_card(name: str, user_id: int, total: Score,
                hands: Sequence[PlayedHand]) -> PlayerCard:
    """The card's figures: the record ``total``, and from ``hands`` (his last ones, oldest
    first, replayed) the 自摸 count, the biggest 胡息, the most frequent 名堂 and the line."""
    won = [f for f in map(win_facts, hands) if f is not None and f.user_id == user_id]
    mingtang = Counter(n for f in won for n in f.mingtang)
    top = mingtang.most_common(1)
    return PlayerCard(name, total.points, total.hands, total.wins, sum(f.zimo for f in won),
                      max((f.huxi for f in won), default=None), top[0] if top else None,
                      tuple(p.points[p.users.index(user_id)] for p in hands))


def draw_card(name: str, user_id: int, part: MeRules, hands: Sequence[PlayedHand],
              lang: str, skill: tuple[str, str] | None = None) -> bytes:
    """The player card of ``part``'s rule set, named with it (/me's text has them all);
    ``skill``: its skill rating's tile (``bot.commands.skill.card_skill``)."""
    label = t(lang, "card_name", name=name, rules=rules_name(part.rule_set, lang))
    card = player_card(label, user_id, part.total, hands)
    return render_player_card(replace(card, skill=skill), lang)


def me_text(me: Me, lang: str) -> str:
    lines = [t(lang, "me_head", name=me.name)]
    for part in me.parts:
        lines += me_rules_lines(part, lang)
    return "\n".join(lines)


def me_rules_lines(part: MeRules, lang: str) -> list[str]:
    """One rule set's lines of /me: its 等级, the record overall and here, the best hand."""
    total = part.total
    lines = [t(lang, "me_rules", rules=rules_name(part.rule_set, lang),
               title=title(total.points, lang)),
             t(lang, "me_total", points=total.points, hands=total.hands, wins=total.wins,
               rate=win_rate(total.hands, total.wins))]
    if part.here is not None:
        p, h, w = part.here.points, part.here.hands, part.here.wins
        lines.append(t(lang, "me_chat", points=p, hands=h, wins=w, rate=win_rate(h, w)))
    if total.birds:
        lines.append(t(lang, "me_birds", birds=total.birds))
    if part.best is None or part.best[1].win is None:
        lines.append(t(lang, "me_no_best"))
    else:
        played, outcome = part.best
        win = outcome.win
        assert win is not None and outcome.winner is not None
        lines.append(t(lang, "me_best", points=played.points[outcome.winner], huxi=win.huxi,
                       fan=win.fan, items=mingtang_text(win.mingtang, lang), id=played.id))
    return lines


def mingtang_text(mingtang: tuple[tuple[str, int], ...], lang: str) -> str:
    return " ".join(t(lang, "mingtang_item", name=n, fan=f) for n, f in mingtang) \
        or t(lang, "settle_plain")


async def history_data(store: Reads, chat_id: int) -> list[tuple[PlayedHand, Outcome]]:
    """The group's last finished hands, newest first, each with its replayed outcome."""
    items = []
    for played in await store.finished_hands(chat_id, HISTORY):
        outcome = replay(played).outcome
        assert outcome is not None
        items.append((played, outcome))
    return items


def history_text(items: list[tuple[PlayedHand, Outcome]], lang: str) -> str:
    if not items:
        return t(lang, "history_empty")
    lines = [t(lang, "history_title", n=len(items))]
    for played, outcome in items:
        lines.append(history_line(played, outcome, lang))
    return "\n".join(lines)


STRIKE = "\u0336"  # combining long stroke overlay: a plain text's strikethrough


def history_line(played: PlayedHand, outcome: Outcome, lang: str) -> str:
    """A hand's line of /history; a voided hand's struck through, with who voided it, why."""
    line = outcome_line(played, outcome, lang)
    if played.voided_by is None:
        return line
    struck = "".join(ch + STRIKE if not ch.isspace() else ch for ch in line)
    return t(lang, "history_voided", line=struck, by=played.voider or "",
             reason=played.void_reason or "")


def outcome_line(played: PlayedHand, outcome: Outcome, lang: str) -> str:
    head = t(lang, "history_hand", no=played.no, table=played.table_number,
             hand=played.table_no)
    points = " · ".join(f"{name} {signed(p)}" for name, p in zip(played.names, played.points,
                                                                 strict=True))
    if outcome.kind == OutcomeKind.WIN and outcome.win is not None:
        assert outcome.winner is not None
        return t(lang, "history_win", head=head, winner=played.names[outcome.winner],
                 huxi=outcome.win.huxi, points=points)
    if outcome.kind == OutcomeKind.ESCAPE:
        assert outcome.escaper is not None
        return t(lang, "history_escape", head=head, name=played.names[outcome.escaper],
                 points=points)
    if outcome.kind == OutcomeKind.DISSOLVED:
        return t(lang, "history_dissolved", head=head)
    return t(lang, "history_draw", head=head)
