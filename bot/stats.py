"""/rank, /me and /history: figures from the store, words from the catalogs.

Each command first reads what it needs (``*_data``, async) and then formats it for a language
(``*_text``, pure), so that a group reply can be worded in the group's language when it is
sent. 胡息 and 名堂 are not stored: a shown hand is replayed from its log (about a
millisecond each).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.fairness import replay
from bot.i18n import t
from bot.store import PlayedHand, RankRow, Store
from engine.rules import level_title
from engine.views import Outcome, OutcomeKind

TOP = 10
HISTORY = 10
ALL_WORDS = frozenset({"all", "全部"})  # /rank all


def rank_text(rows: list[RankRow], lang: str, everyone: bool) -> str:
    if not rows:
        return t(lang, "rank_empty")
    lines = [t(lang, "rank_global" if everyone else "rank_group", n=TOP)]
    lines += [t(lang, "rank_line", pos=i, name=r.name, points=r.points,
                title=title(r.points, lang), hands=r.hands, wins=r.wins)
              for i, r in enumerate(rows, 1)]
    return "\n".join(lines)


def title(points: int, lang: str) -> str:
    """The 等级 title for ``points``, with its translation beside it in English."""
    return t(lang, f"level_{level_title(points)}")


def win_rate(hands: int, wins: int) -> str:
    return f"{wins / hands:.0%}" if hands else "—"


@dataclass(frozen=True)
class Me:
    name: str
    total: tuple[int, int, int]  # points, hands, wins over every chat
    here: tuple[int, int, int] | None  # the same in this group
    best: tuple[PlayedHand, Outcome] | None  # the hand won for the most points


async def me_data(store: Store, user_id: int, name: str, chat_id: int | None) -> Me:
    here = await store.score(user_id, chat_id) if chat_id is not None else None
    played = await store.best_hand(user_id)
    best = None
    if played is not None:
        outcome = replay(played).outcome
        assert outcome is not None
        best = (played, outcome)
    return Me(name, await store.score(user_id), here, best)


def me_text(me: Me, lang: str) -> str:
    points, hands, wins = me.total
    lines = [t(lang, "me_head", name=me.name, title=title(points, lang)),
             t(lang, "me_total", points=points, hands=hands, wins=wins,
               rate=win_rate(hands, wins))]
    if me.here is not None:
        p, h, w = me.here
        lines.append(t(lang, "me_chat", points=p, hands=h, wins=w, rate=win_rate(h, w)))
    if me.best is None or me.best[1].win is None:
        lines.append(t(lang, "me_no_best"))
    else:
        played, outcome = me.best
        win = outcome.win
        assert win is not None and outcome.winner is not None
        lines.append(t(lang, "me_best", points=played.points[outcome.winner], huxi=win.huxi,
                       fan=win.fan, items=mingtang_text(win.mingtang, lang), id=played.id))
    return "\n".join(lines)


def mingtang_text(mingtang: tuple[tuple[str, int], ...], lang: str) -> str:
    return " ".join(t(lang, "mingtang_item", name=n, fan=f) for n, f in mingtang) \
        or t(lang, "settle_plain")


async def history_data(store: Store, chat_id: int) -> list[tuple[PlayedHand, Outcome]]:
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
        points = " · ".join(f"{name} {p:+d}" for name, p in zip(played.names, played.points,
                                                                 strict=True))
        if outcome.kind == OutcomeKind.WIN and outcome.win is not None:
            assert outcome.winner is not None
            lines.append(t(lang, "history_win", no=played.no, winner=played.names[outcome.winner],
                           huxi=outcome.win.huxi, points=points))
        elif outcome.kind == OutcomeKind.ESCAPE:
            assert outcome.escaper is not None
            lines.append(t(lang, "history_escape", no=played.no,
                           name=played.names[outcome.escaper], points=points))
        else:
            lines.append(t(lang, "history_draw", no=played.no))
    return "\n".join(lines)
