"""/rank, /me and /history checked against hands played through the table service.

The figures expected here are summed from the engine's outcomes of the hands actually played
(never read back from the store), so a wrong query or a lost result shows as a mismatch.
"""

from __future__ import annotations

from collections import Counter

import pytest
from support.stats import GROUP_1, GROUP_2, A, B, C, D, expected_totals

from bot.commands import stats
from bot.i18n import t
from engine.points import signed
from engine.rules import title_of
from engine.views import OutcomeKind

NAMES = {p.user_id: p.name for p in (A, B, C, D)}


@pytest.mark.parametrize("chat", [GROUP_1, GROUP_2, None])
async def test_rank_matches_the_played_hands(played, chat) -> None:
    store, hands = played
    kinds = Counter(r.hand.outcome.kind for _, r in hands)
    assert kinds[OutcomeKind.WIN] >= 3 and kinds[OutcomeKind.ESCAPE] == 1  # a real mix
    totals = expected_totals(hands, chat)
    order = sorted(totals, key=lambda u: (-totals[u][0], -totals[u][2], u))
    expected = [f"{i}. {NAMES[u]} · {totals[u][0]} 分 · {title_of(totals[u][0])} · "
                f"{totals[u][1]} 局 {totals[u][2]} 胜" for i, u in enumerate(order, 1)]
    text = stats.rank_text(await store.ranking(chat, stats.TOP), "zh",
                           stats.RankQuery("qq", chat is None))
    assert text.splitlines() == [
        f"🏅 {'总排行榜' if chat is None else '本群排行榜'} · QQ跑胡子(前 10 名)", *expected]


def _n(count: int, word: str) -> str:
    """An English count: '1 hand', '2 hands' (and '-1 pt')."""
    return f"{count} {word}{'' if abs(count) == 1 else 's'}"


async def test_me_matches_the_played_hands(played) -> None:
    store, hands = played
    everywhere, here = expected_totals(hands, None), expected_totals(hands, GROUP_1)
    for person in (A, B, C, D):
        points, n, wins = everywhere[person.user_id]
        me = await stats.me_data(store, person.user_id, person.name, GROUP_1)
        lines = stats.me_text(me, "en").splitlines()
        title = t("en", f"title_{title_of(points)}")
        assert title.startswith(title_of(points) + " ")  # the Chinese title, translated
        assert lines[0] == f"📇 {person.name}"
        assert lines.pop(1) == f"[QQ跑胡子] 等级 {title}"  # the only rule set played
        assert lines[1] == f"Overall: {_n(points, 'pt')} · {_n(n, 'hand')} · {_n(wins, 'win')}" \
                           f" · win rate {f'{wins / n:.0%}'}"
        p, h, w = here.get(person.user_id, [0, 0, 0])
        rate = f"{w / h:.0%}" if h else "—"
        assert lines[2] == f"This group: {_n(p, 'pt')} · {_n(h, 'hand')} · {_n(w, 'win')} · " \
                           f"win rate {rate}"
        won = [r for _, r in hands if r.hand.outcome.winner is not None
               and r.users[r.hand.outcome.winner] == person.user_id]
        if not won:
            assert lines[3] == "Best hand: no win yet."
            continue
        best = max(won, key=lambda r: (r.hand.outcome.points[r.hand.outcome.winner], -r.id))
        win = best.hand.outcome.win
        items = " ".join(f"{m} {f}番" for m, f in win.mingtang) or "平胡"
        assert lines[3] == (f"Best hand: +{_n(best.hand.outcome.points[best.hand.outcome.winner], 'pt')}"
                            f" · 胡息 {win.huxi} · 番 {win.fan} · {items} (#{best.id})")


async def test_history_lists_the_groups_last_ten_hands(played) -> None:
    store, hands = played
    mine = [r for c, r in hands if c == GROUP_1]
    assert len(mine) == 12
    lines = stats.history_text(await stats.history_data(store, GROUP_1), "zh").splitlines()
    assert lines[0] == "📜 本群最近 10 局 · 回放:/replay 编号"
    assert len(lines) == 11
    assert [r.no for r in mine] == list(range(1, 13))  # the group's own numbers
    for line, record in zip(lines[1:], reversed(mine[-10:]), strict=True):
        outcome = record.hand.outcome
        points = " · ".join(f"{n} {signed(p)}" for n, p in zip(record.names, outcome.points,
                                                          strict=True))
        head = f"#{record.no} 第 1 桌第 {record.table_no} 局"  # group 1's table opened first
        if outcome.kind == OutcomeKind.WIN:
            assert line == f"{head} 🏆 {record.names[outcome.winner]} 胡 · " \
                           f"胡息 {outcome.win.huxi} · {points}"
        else:
            assert line == f"{head} 荒庄"
    escaped = stats.history_text(await stats.history_data(store, GROUP_2), "zh").splitlines()
    assert hands[-1][1].no == 4 and hands[-1][1].id == 16  # group 2's fourth, its 第 1 桌
    assert escaped[1].startswith("#4 第 1 桌第 4 局 🏃 Di 逃跑 · ")
    assert stats.history_text(await stats.history_data(store, -999), "en") == \
        "No finished hands in this group yet."
