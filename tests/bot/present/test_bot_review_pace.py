"""A 复盘 never holds back the next deal: its messages (a text, then a picture per flagged
moment, each a second of the private chat's pace) go one at a time behind what the chat
sends first, so a hand dealt while a review is being sent reaches the player after at most
one of its messages, not after the whole review (``bot.present.reviews``)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from support.e2e import FAST_PACING, make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.play import press_result
from support.robots import alice_plays, one_human_two_computers

from bot.i18n import t
from bot.present.reviews import review_of
from bot.present.screens.review import pictured

REVIEW = "🔍 复盘"
DM_INTERVAL = 1.5  # the private chat's pace in the second run: room for the deal to queue


async def test_a_hand_dealt_while_a_review_is_sent_comes_before_the_rest_of_it(
        tg: FakeTelegram, tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    async with running_bot(make_config(tg, db)) as app:
        svc = services(app)
        alice, group, lobby, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing")
        rng = random.Random(3)
        for _ in range(8):  # a hand whose review has at least two pictures
            await alice_plays(tg, app, alice, table, rng, sensible=0.2)
            await svc.presenter.idle()
            found = await svc.store.played_hand(table.current.id)
            assert found is not None
            if len(pictured(review_of(found[1], 0, "zh"), 0)) >= 2:
                break
            await press_result(tg, alice)
            await tg.wait_for(lambda: table.status == "playing")
        else:
            pytest.fail("no hand with two pictured moments in 8")
        played, record_id = found[1], table.current.id
    slow = replace(FAST_PACING, dm_interval=DM_INTERVAL)
    async with running_bot(make_config(tg, db, pacing=slow)) as app:
        svc = services(app)
        table = svc.service.in_chat(group.id)
        result = next(m for m in reversed(tg.messages(alice))
                      if m.keyboard and any(text == REVIEW for row in m.keyboard
                                            for text, _ in row))
        before = len(tg.messages(alice))
        await tg.press_button(result, alice, REVIEW)
        review_head = t("zh", "review_title", table=1, hand=played.table_no, id=record_id)
        await tg.wait_for(lambda: any((m.text or "").startswith(review_head)
                                      for m in tg.messages(alice)[before:]), timeout=30)
        await press_result(tg, alice)  # dealt at once
        await tg.wait_for(lambda: table.status == "playing")
        dealt = table.current.table_no
        await svc.presenter.idle()
        sent = tg.messages(alice)[before:]
        def kind(text: str) -> str:
            if text.startswith(review_head) or re.match(r"第 \d+ 步(\n|$)", text):
                return "review"  # its text, or a moment's picture
            return "hand" if text.startswith(f"第 1 桌 · 第 {dealt} 局") else "other"
        kinds = [kind(m.text or m.caption or "") for m in sent]
        pictures = len(pictured(review_of(played, 0, "zh"), 0))
        assert kinds.count("review") == 1 + pictures, kinds
        hand = kinds.index("hand")
        assert kinds[:hand].count("review") <= 2, kinds  # the text and at most one picture
