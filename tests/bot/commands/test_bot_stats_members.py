"""/stats of a big club through the real bot and the fake Telegram: the picture shows the
first ``render.club_stats.TOP`` members and says how many more; the text lists every member
who played, the caption while it fits, else after the picture in as many messages as
Telegram's 4,096 characters take."""

from __future__ import annotations

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.snapshots import texts

from bot.commands import club
from bot.commands.stats import board_places
from bot.present.fit import MAX_CAPTION, MAX_TEXT, utf16_len
from bot.store import ClubRow, Span, Store
from render.club_stats import TOP, layout_club_stats
from render.strings import pages

MEMBERS = 102  # 34 hands of three: a text of about 5,000 characters


async def _played(store: Store, chat_id: int, members: int) -> None:
    """A finished qq hand for each three members, the first seat winning 2 (a 10-胡息 win)."""
    async with store.transaction() as tx:
        for k in range(0, members, 3):
            users = tuple(1000 + k + j for j in range(3))
            for u in users:
                await tx.upsert_user(u, f"会员{u}", None, "zh")
            table = await tx.create_table(chat_id, users[0], 1)
            no = await tx.next_hand_no(chat_id)
            hand = await tx.create_hand(table, no, no, "qq", 7, 0)
            await tx.finish_hand(hand, chat_id, users, (2 + k, -1, -1 - k), 0, huxi=10)
            await tx.close_table(table, 1)


async def test_every_member_is_in_the_text_and_the_picture_says_how_many_more(
        tg: FakeTelegram, tmp_path) -> None:
    admin = tg.user("Ann", language_code="zh-hans")
    group = tg.group("大俱乐部", members=(admin,))
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        store = services(app).store
        await _played(store, group.id, MEMBERS)
        rows = await store.club_stats(group.id, Span(since="2000-01-01"), "qq")
        assert len(rows) == MEMBERS
        text = club.stats_text(rows, club.StatsQuery(club.TODAY, "qq"), None, "zh")
        assert utf16_len(text) > MAX_TEXT and len(text.splitlines()) == MEMBERS + 1
        sent = await tg.send_text(group, admin, "/stats")
        picture = await tg.wait_reply(sent, timeout=30)
        assert picture.photo_bytes is not None and not picture.caption  # no room for it
        after = await tg.wait_for(lambda: (later := [m for m in tg.messages(group)
                                                     if m.message_id > picture.message_id])
                                  and "\n".join(m.text or "" for m in later) == text and later,
                                  timeout=30)
        assert len(after) == 2 and all(utf16_len(m.text or "") <= MAX_TEXT for m in after)
    more = pages("zh")["stats_more"].format(n=MEMBERS - TOP)
    at = board_places([r.points for r in rows])
    assert more in texts(layout_club_stats(rows, "zh", title="t", places=at))
    assert more not in texts(layout_club_stats(rows[:TOP], "zh", title="t", places=at))


def test_a_small_club_is_all_in_the_caption() -> None:
    """Every member a line, equal points at one place marked 并列: two by two here, the last
    alone (15 members, points 7, 7, 6, 6, …, 1, 1, 0)."""
    n = TOP + 3
    rows = [ClubRow(k, f"P{k}", 1, (n - k) // 2, 0, None, 0) for k in range(n)]
    text = club.stats_text(rows, club.StatsQuery(club.WEEK, "qq"), None, "zh")
    assert utf16_len(text) <= MAX_CAPTION
    lines = text.splitlines()[1:]
    assert [line.split(" · ")[0] for line in lines] == [f"{k - k % 2 + 1}. P{k}" for k in range(n)]
    assert [line.endswith("(并列)") for line in lines] == [k < n - 1 for k in range(n)]
