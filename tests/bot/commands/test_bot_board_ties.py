"""Tied players share a place on /rank, /season and /stats, through the real bot and the fake
Telegram: equal points, one place ("1, 1, 3", nobody second), each tied line marked 并列 in
the caption and its place drawn ``1=`` in the picture; a tie across the board's last row is
marked too (the row past it is read)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram

from bot.commands import club, stats
from bot.store import Store
from engine.standings import Place

# four qq hands of three members each, the first seat winning: the members' points
HANDS = ((6, -3, -3), (6, -1, -5), (2, -1, -1), (1, 0, -1))
FIRST = 1000


async def _played(store: Store, chat_id: int) -> dict[int, int]:
    """The hands, finished in the group; each member's points."""
    totals: dict[int, int] = {}
    async with store.transaction() as tx:
        for k, points in enumerate(HANDS):
            users = tuple(FIRST + 3 * k + j for j in range(3))
            for u in users:
                await tx.upsert_user(u, f"会员{u}", None, "zh")
            table = await tx.create_table(chat_id, users[0], 1)
            no = await tx.next_hand_no(chat_id)
            hand = await tx.create_hand(table, no, no, "qq", 7, 0)
            await tx.finish_hand(hand, chat_id, users, points, 0, huxi=10)
            await tx.close_table(table, 1)
            totals.update(zip(users, points, strict=True))
    return totals


def _expected(points: Sequence[int], all_points: Sequence[int]) -> list[tuple[int, bool]]:
    """Each shown row's place (1 + those with more points) and whether anyone shares it."""
    return [(1 + sum(q > p for q in all_points), sum(q == p for q in all_points) > 1)
            for p in points]


def _lines(caption: str, skip: int) -> list[tuple[int, bool, str]]:
    """A board's caption lines after ``skip`` head lines: place, 并列, the member's name."""
    found = []
    for line in caption.splitlines()[skip:]:
        place, rest = line.split(". ", 1)
        found.append((int(place), line.endswith("(并列)"), rest.split(" · ")[0]))
    return found


async def test_equal_points_share_a_place_on_every_board(
        tg: FakeTelegram, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[list[Place]] = []

    def spy(draw):  # type: ignore[no-untyped-def]
        return lambda rows, lang, **kw: drawn.append(list(kw["places"])) or draw(rows, lang,
                                                                                 **kw)

    monkeypatch.setattr(stats, "render_leaderboard", spy(stats.render_leaderboard))
    monkeypatch.setattr(club, "render_leaderboard", spy(club.render_leaderboard))
    monkeypatch.setattr(club, "render_club_stats", spy(club.render_club_stats))
    admin = tg.user("Ann", language_code="zh-hans")
    group = tg.group("俱乐部", members=(admin,))
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        totals = await _played(services(app).store, group.id)
        every = list(totals.values())
        # the boards' order: points, then wins (the first seats), then id
        order = sorted(totals, key=lambda u: (-totals[u], (u - FIRST) % 3 != 0, u))
        for command, skip, shown in (("/rank", 1, stats.TOP), ("/season", 2, stats.TOP),
                                     ("/stats", 1, len(order))):
            answer = await tg.wait_reply(await tg.send_text(group, admin, command), timeout=30)
            assert answer.photo_bytes is not None and answer.caption is not None
            rows = order[:shown]
            want = _expected([totals[u] for u in rows], every)
            assert _lines(answer.caption, skip) == [
                (p, tie, f"会员{u}") for (p, tie), u in zip(want, rows, strict=True)], command
            await services(app).presenter.idle()
            assert [(p.no, p.tied) for p in drawn[-1][:shown]] == want, command
            assert [str(p) for p in drawn[-1][:3]] == ["1=", "1=", "3"]
    assert len(drawn) == 3
    places = [p for p, _ in want]
    assert places[:5] == [1, 1, 3, 4, 5] and places[5:9] == [6] * 4 and 2 not in places
    # the tenth row shares its place with the eleventh, not shown on /rank's board
    assert want[9] == (10, True) and want[10] == (10, True)
