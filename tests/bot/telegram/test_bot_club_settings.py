"""A club's settings (/club) through the real bot and a fake Telegram: anyone reads them, only
admins change them; a limit of 解散 votes a member a day refuses the one past it; 禁止解散 at
a 群杯's tables refuses a 解散 there. (自动准备 at a standing table:
tests/bot/table/test_table_standing_ready.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.play import start_hand

from bot.i18n import t
from bot.store import ClubSettings
from bot.table import Refusal
from bot.telegram.club import club_change, club_text

OFF = ClubSettings()


async def said(tg: FakeTelegram, chat, user, text: str) -> str:  # type: ignore[no-untyped-def]
    """The bot's text answer to ``user``'s ``text`` (not a picture it posts meanwhile)."""
    sent = await tg.send_text(chat, user, text)
    return (await tg.wait_reply(sent, match=lambda m: m.text is not None
                                and not m.text.startswith("🗳"))).text or ""


@pytest.mark.parametrize(("args", "settings"), [
    (["自动准备", "开"], ClubSettings(auto_ready=True)),
    (["autoready", "on"], ClubSettings(auto_ready=True)),
    (["解散", "3"], ClubSettings(dissolve_limit=3)),
    (["dissolve", "0"], ClubSettings(dissolve_limit=0)),
    (["解散", "不限"], OFF),
    (["杯赛禁止解散", "开"], ClubSettings(cup_no_dissolve=True)),
    (["cupnodissolve", "off"], OFF),
])
def test_club_reads_its_words(args: list[str], settings: ClubSettings) -> None:
    assert club_change(args, OFF) == settings


@pytest.mark.parametrize("args", [["解散", "²"], ["解散", "100"], ["解散", "9" * 20],
                                  ["解散", "-1"], ["自动准备"], ["自动准备", "maybe"],
                                  ["money", "on"], ["解散", "3", "4"]])
def test_club_refuses_other_words(args: list[str]) -> None:
    with pytest.raises(Refusal) as refused:
        club_change(args, OFF)
    assert refused.value.code == "club_usage"


async def test_a_daily_limit_of_dissolve_votes(tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        (alice, bob, carol), group, _, svc, table = await start_hand(tg, app)
        olga = tg.user("Olga")
        group.members[olga.id] = "creator"
        shown = await said(tg, group, alice, "/club")
        assert shown == club_text(OFF, "zh")
        refused = await said(tg, group, alice, "/club 解散 1")
        assert refused == t("zh", "club_admin_only")
        assert await svc.store.club_settings(group.id) == OFF
        bad = await said(tg, group, olga, "/club 解散 ²")
        assert bad == t("zh", "club_usage")
        set_ = await said(tg, group, olga, "/club 解散 1")
        assert set_ == club_text(ClubSettings(dissolve_limit=1), "zh")
        assert "每人每天最多发起 1 次" in set_
        # Alice's first 解散 vote opens, and Bob's 拒绝 ends it
        await tg.send_text(group, alice, "/dissolve")
        vote = await tg.wait_for(lambda: next((m for m in tg.messages(group) if (
            m.text or "").startswith("🗳 Alice")), None))
        await tg.press_button(vote, bob, "拒绝")
        await tg.wait_for(lambda: not tg.message(group, vote.message_id).keyboard)
        # her second today is refused; Bob's first is not
        again = await said(tg, group, alice, "/dissolve")
        assert again == t("zh", "dissolve_limit_reached", n="1")
        await tg.send_text(group, bob, "/dissolve")
        await tg.wait_for(lambda: any((m.text or "").startswith("🗳 Bob")
                                      for m in tg.messages(group)))
        assert table.status == "playing" and carol.id in {p.user_id for p in
                                                           table.players.values()}


async def test_no_dissolve_at_a_cup_s_tables(tg: FakeTelegram, tmp_path: Path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=30, full_start_delay=0.0)
    users = [tg.user(n, language_code="zh-hans") for n in ("Ann", "Bob", "Cat")]
    for user in users:
        tg.start_private(user)
    olga = tg.user("Olga")
    forum = tg.forum("杯赛群", members=tuple(users), owner=olga)
    forum.members[tg.bot.id] = "administrator"
    async with running_bot(config) as app:
        svc = services(app)
        await said(tg, forum, olga, "/club 杯赛禁止解散 开")
        await tg.send_text(forum, users[0], "/cup 1轮 2局")
        card = await tg.wait_for(lambda: next((m for m in tg.topic_messages(forum, None)
                                               if (m.text or "").startswith("🏅")), None),
                                 timeout=30)
        for user in users[1:]:
            await tg.press_button(card, user, "报名")
        await tg.wait_for(lambda: "报名(3/" in (tg.message(forum, card.message_id).text or ""),
                          timeout=30)
        await tg.send_text(forum, users[0], "/cup start")
        await tg.wait_for(lambda: (table := svc.service.table_of_user(users[0].id)) is not None
                          and table.status == "playing", timeout=30)
        reply = await said(tg, users[0], users[0], "/dissolve")
        assert reply == t("zh", "dissolve_cup_forbidden")
        assert await svc.store.dissolve_asks(forum.id, users[0].id, "2000-01-01") == 0
