"""/rank, /me and /history checked against hands played through the table service.

The figures expected here are summed from the engine's outcomes of the hands actually played
(never read back from the store), so a wrong query or a lost result shows as a mismatch.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

import pytest

from bot import stats
from bot.i18n import t
from bot.store import Store
from bot.table import HandRecord, Person, Table, TableService
from engine import policy
from engine.rules import level_title
from engine.views import OutcomeKind

A, B, C, D = (Person(100 + i, n, "zh") for i, n in enumerate(("Ann", "Bo", "Cy", "Di")))
GROUP_1, GROUP_2 = -100, -200


async def _play_all(path: Path) -> list[tuple[int, HandRecord]]:
    """Hands in two groups (Ann and Bo play in both), the last one ended by Di's 逃跑."""
    store = await Store.open(path)
    try:
        for p in (A, B, C, D):
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        recorder = _Settled()
        service = TableService(store, recorder, action_timeout=60, autoplay_delay=1,
                               rng=random.Random(7))
        rng = random.Random(7)
        await _play(service, GROUP_1, (A, B, C), 12, rng)
        first = service.in_chat(GROUP_1)
        assert first is not None
        await service.stop(first.id, A.user_id, is_admin=False)
        await _play(service, GROUP_2, (A, B, D), 3, rng)
        table = service.in_chat(GROUP_2)
        assert table is not None
        for p in (A, B, D):
            await service.again(table.id, p.user_id)
        await service.leave(table.id, D.user_id, table.current.id)  # mid-hand: 逃跑
    finally:
        await store.close()
    return recorder.hands


@pytest.fixture(scope="module")
def played_db(tmp_path_factory) -> tuple[Path, list[tuple[int, HandRecord]]]:
    """Played once per module (a few seconds); each test opens the database afresh."""
    path = tmp_path_factory.mktemp("stats") / "db.sqlite3"
    return path, asyncio.run(_play_all(path))


@pytest.fixture
async def played(played_db):
    path, hands = played_db
    store = await Store.open(path)
    yield store, hands
    await store.close()


class _Settled:
    def __init__(self) -> None:
        self.hands: list[tuple[int, HandRecord]] = []

    def changed(self, table: Table) -> None:
        pass

    def settled(self, table: Table, record: HandRecord) -> None:
        self.hands.append((table.chat_id, record))

    def closed(self, table: Table) -> None:
        pass


async def _play(service: TableService, chat: int, people: tuple[Person, ...], hands: int,
                rng: random.Random) -> None:
    table = await service.open(chat, people[0])
    for p in people[1:]:
        await service.join(table.id, p)
    await service.begin(table.id, people[0].user_id)
    for n in range(hands):
        await play_out(service, table, rng)
        if n + 1 < hands:
            for p in people:
                await service.again(table.id, p.user_id)


async def play_out(service: TableService, table: Table, rng: random.Random) -> None:
    """Play the running hand to its end, every seat pressing what the computer player would."""
    while table.status == "playing":
        hand = table.hand
        assert hand is not None
        seat = hand.to_act()[0]
        public = [e for e in hand.history if e.visible_to is None]
        action = policy.choose(hand.private_view(seat), public, rng)
        decision = table.decisions[seat]
        await service.act(table.id, table.players[seat].user_id, decision.version,
                          decision.legal.index(action))


def _totals(hands: list[tuple[int, HandRecord]], chat: int | None) -> dict[int, list[int]]:
    """user → [points, hands, wins], summed from the outcomes."""
    totals: dict[int, list[int]] = {}
    for c, record in hands:
        if chat is not None and c != chat:
            continue
        outcome = record.hand.outcome
        assert outcome is not None
        for seat, user in enumerate(record.users):
            row = totals.setdefault(user, [0, 0, 0])
            row[0] += outcome.points[seat]
            row[1] += 1
            row[2] += seat == outcome.winner
    return totals


NAMES = {p.user_id: p.name for p in (A, B, C, D)}


@pytest.mark.parametrize("chat", [GROUP_1, GROUP_2, None])
async def test_rank_matches_the_played_hands(played, chat) -> None:
    store, hands = played
    kinds = Counter(r.hand.outcome.kind for _, r in hands)
    assert kinds[OutcomeKind.WIN] >= 3 and kinds[OutcomeKind.ESCAPE] == 1  # a real mix
    totals = _totals(hands, chat)
    order = sorted(totals, key=lambda u: (-totals[u][0], -totals[u][2], u))
    expected = [f"{i}. {NAMES[u]} · {totals[u][0]} 分 · {level_title(totals[u][0])} · "
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
    everywhere, here = _totals(hands, None), _totals(hands, GROUP_1)
    for person in (A, B, C, D):
        points, n, wins = everywhere[person.user_id]
        me = await stats.me_data(store, person.user_id, person.name, GROUP_1)
        lines = stats.me_text(me, "en").splitlines()
        title = t("en", f"level_{level_title(points)}")
        assert title.startswith(level_title(points) + " ")  # the Chinese title, translated
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
    assert lines[0] == "📜 本群最近 10 局"
    assert len(lines) == 11
    assert [r.no for r in mine] == list(range(1, 13))  # the group's own numbers
    for line, record in zip(lines[1:], reversed(mine[-10:]), strict=True):
        outcome = record.hand.outcome
        points = " · ".join(f"{n} {p:+d}" for n, p in zip(record.names, outcome.points,
                                                          strict=True))
        if outcome.kind == OutcomeKind.WIN:
            assert line == f"第 {record.no} 局 🏆 {record.names[outcome.winner]} 胡 · " \
                           f"胡息 {outcome.win.huxi} · {points}"
        else:
            assert line == f"第 {record.no} 局 荒庄"
    escaped = stats.history_text(await stats.history_data(store, GROUP_2), "zh").splitlines()
    assert hands[-1][1].no == 4 and hands[-1][1].id == 16  # group 2's fourth hand
    assert escaped[1].startswith("第 4 局 🏃 Di 逃跑 · ")
    assert stats.history_text(await stats.history_data(store, -999), "en") == \
        "No finished hands in this group yet."
