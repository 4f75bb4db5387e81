"""/rank and /me as pictures: a photo whose caption is the text, drawn
from figures that equal the hands played. The expected figures are summed from the engine's
outcomes of the hands actually played (support.stats.expected_totals), never read back from the store.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import partial

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeTelegram
from support.play import play_hand, start_hand
from support.stats import GROUP_1, GROUP_2, A, B, C, D, expected_totals

from bot.commands import skill, stats
from bot.i18n import t
from bot.store import Score
from bot.table import HandRecord
from render.leaderboard import BoardRow
from render.player_card import PlayerCard


def _recent(hands: list[tuple[int, HandRecord]], user_id: int, chat: int | None,
            last: int) -> list[int]:
    """A user's points in his last hands (in one chat or all), oldest first."""
    mine = [r.hand.outcome.points[r.users.index(user_id)] for c, r in hands
            if user_id in r.users and (chat is None or c == chat)]
    return mine[-last:]


@pytest.mark.parametrize("chat", [GROUP_1, GROUP_2, None])
async def test_the_boards_rows_are_the_played_figures(played, chat) -> None:  # noqa: F811
    store, hands = played
    query = stats.RankQuery("qq", chat is None)
    rows = await store.ranking(chat, stats.TOP)
    board = await stats.board_rows(store, rows, query, GROUP_1 if chat is None else chat)
    totals = expected_totals(hands, chat)
    assert len(board) == len(totals)
    for row, ranked in zip(board, rows, strict=True):
        points, n, wins = totals[ranked.user_id]
        assert (row.name, row.points, row.hands, row.wins) == (ranked.name, points, n, wins)
        assert list(row.recent) == _recent(hands, ranked.user_id, chat, stats.RECENT)
        assert len(row.recent) == min(n, stats.RECENT)


async def test_recent_points_keep_each_players_last_hands_in_one_query(played) -> None:  # noqa: F811
    store, hands = played
    users = [p.user_id for p in (A, B, C, D)]
    found = await store.recent_points(users, "qq", None, last=5)
    assert found == {u: _recent(hands, u, None, 5) for u in users}
    assert await store.recent_points(users, "hunan") == {u: [] for u in users}
    assert await store.recent_points([], "qq") == {}


async def test_the_card_is_the_players_replayed_hands(played) -> None:  # noqa: F811
    store, hands = played
    for person in (A, B, C, D):
        mine = [r for _, r in hands if person.user_id in r.users]
        won = [r.hand.outcome.win for r in mine if r.hand.outcome.winner is not None
               and r.users[r.hand.outcome.winner] == person.user_id]
        total = (await store.scores(person.user_id))["qq"]
        card = stats.player_card(person.name, person.user_id, total,
                                 await store.user_hands(person.user_id, "qq", stats.CARD_HANDS))
        names = Counter(n for w in won for n, _ in w.mingtang)
        assert card == PlayerCard(
            person.name, total.points, total.hands, total.wins,
            zimo=sum(w.zimo for w in won),
            best_huxi=max((w.huxi for w in won), default=None),
            top_mingtang=names.most_common(1)[0] if names else None,
            timeline=tuple(_recent(hands, person.user_id, None, stats.CARD_HANDS)))
        assert total.points == expected_totals(hands, None)[person.user_id][0]
        short = await store.user_hands(person.user_id, "qq", 3)  # the last three, oldest first
        assert [h.id for h in short] == [r.id for r in mine[-3:]]


def test_a_player_without_hands_gets_an_empty_card() -> None:
    card = stats.player_card("Eve", 7, Score(0, 0, 0, 0), [])
    assert card == PlayerCard("Eve", 0, 0, 0, 0, None, None, ())
    part = stats.MeRules("hunan", Score(0, 0, 0, 0), None, None)
    assert stats.draw_card("Eve", 7, part, [], "en")[:2] == b"\xff\xd8"


async def test_rank_and_me_answer_with_pictures_captioned_by_their_text(
        tg: FakeTelegram, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    boards: list[list[BoardRow]] = []
    cards: list[PlayerCard] = []
    draw_board, draw_card = stats.render_leaderboard, stats.render_player_card
    monkeypatch.setattr(stats, "render_leaderboard",
                        lambda rows, lang, *, title, places: boards.append(list(rows))
                        or draw_board(rows, lang, title=title, places=places))
    monkeypatch.setattr(stats, "render_player_card",
                        lambda card, lang: cards.append(card) or draw_card(card, lang))
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3"), seed=2) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        await play_hand(tg, app, users, group, random.Random(4))
        outcome = record.hand.outcome
        store = svc.store

        async def says(user, text: str, chat=group):  # type: ignore[no-untyped-def]
            await svc.presenter.idle()
            return await tg.wait_reply(await tg.send_text(chat, user, text))

        rank = await says(users[2], "/rank")
        query = stats.RankQuery("qq", False)
        assert rank.photo_bytes is not None and rank.photo_bytes[:2] == b"\xff\xd8"
        rows = await store.ranking(group.id, stats.TOP)
        assert rank.caption == stats.rank_text(rows, "zh", query)
        assert sorted((r.name, r.points, r.hands, r.wins, r.recent) for r in boards[-1]) == \
            sorted((u.first_name, outcome.points[s], 1, int(s == outcome.winner),
                    (outcome.points[s],)) for s, u in enumerate(users))

        me = await says(users[0], "/me")
        assert me.photo_bytes is not None
        data = await stats.me_data(store, users[0].id, "Alice", group.id)
        # the text, then the skill rating's line (bot.commands.skill)
        assert me.caption.startswith(stats.me_text(data, "zh") + "\n")
        assert me.caption.splitlines()[-1].startswith("QQ跑胡子 技术评级")
        win = outcome.win if outcome.winner == 0 else None
        assert cards[-1].skill is not None and cards[-1].skill[0].startswith("技术评级")
        assert replace(cards[-1], skill=None) == PlayerCard(
            "Alice · QQ跑胡子", outcome.points[0], 1, int(win is not None), int(bool(win and win.zimo)),
            None if win is None else win.huxi,
            (win.mingtang[0][0], 1) if win is not None and win.mingtang else None,
            (outcome.points[0],))

        # a player with no hands: an empty card; an empty board stays a line of text
        dora = tg.user("Dora", language_code="en")
        tg.start_private(dora)
        mine = await says(dora, "/me", chat=dora)
        assert mine.photo_bytes is not None and replace(cards[-1], skill=None) == PlayerCard(
            "Dora · QQ跑胡子", 0, 0, 0, 0, None, None, ())
        assert cards[-1].skill is not None and cards[-1].skill[1] == "—"  # no match yet
        assert mine.caption == stats.me_text(await stats.me_data(store, dora.id, "Dora", None),
                                             "en") + "\n" + skill.me_skill_line("qq", None, "en")
        empty = await says(users[0], "/rank hunan")
        assert empty.photo is None and empty.text == t("zh", "rank_empty", rules="湖南跑胡子")

        # words too long for a caption (a /me of many rule sets) follow the picture
        long_text = "📇 " + "胡" * 1100
        before = tg.messages(group)[-1].message_id
        part = stats.MeRules("qq", Score(0, 0, 0, 0), None, None)
        svc.presenter.photo(group.id, partial(stats.draw_card, "Alice", users[0].id, part, []),
                            lambda lang: long_text)
        await svc.presenter.idle()
        sent = [m for m in tg.messages(group) if m.message_id > before]
        assert [(m.photo is not None, m.caption, m.text) for m in sent] == [
            (True, None, None), (False, None, long_text)]


async def test_each_hand_is_replayed_once_for_the_cards(played, monkeypatch) -> None:  # noqa: F811
    store, hands = played
    replayed: list[int] = []
    real = stats.replay
    monkeypatch.setattr(stats, "replay", lambda p: replayed.append(p.id) or real(p))
    monkeypatch.setattr(stats, "_wins", stats.OrderedDict())
    mine = await store.user_hands(A.user_id, "qq", stats.CARD_HANDS)
    total = (await store.scores(A.user_id))["qq"]
    first = stats.player_card(A.name, A.user_id, total, mine)
    assert sorted(replayed) == sorted(h.id for h in mine)
    assert stats.player_card(A.name, A.user_id, total, mine) == first
    assert len(replayed) == len(mine)  # the second card replayed nothing
    monkeypatch.setattr(stats, "CACHED_HANDS", 2)
    monkeypatch.setattr(stats, "_wins", stats.OrderedDict())
    stats.player_card(A.name, A.user_id, total, mine[:3])
    assert list(stats._wins) == [(h.id, h.seed) for h in mine[1:3]]  # the oldest forgotten


def test_the_card_shows_the_tables_rule_set_if_played_else_the_first() -> None:
    qq, hunan = (stats.MeRules(r, Score(1, 1, 0, 0), None, None) for r in ("qq", "hunan"))
    me = stats.Me("Ann", (qq, hunan))
    assert stats.card_part(me, "hunan") is hunan
    assert stats.card_part(me, "four14") is qq and stats.card_part(me, None) is qq
