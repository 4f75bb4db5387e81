"""验证 under a settlement, through the real bot: the presser's private chat gets the check
(the revealed seed's SHA-256 against the 🔒 shown, the stored record replayed to this very
settlement); one who has not opened the bot gets the link whose /start sends it; the check
finds a seed or a record that does not match."""

from __future__ import annotations

import dataclasses
import random

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.play import press_result
from support.posted import settlement_id
from support.robots import alice_plays, one_human_two_computers

from bot import callbacks as cb
from bot.i18n import t
from bot.present import fairness, verify

VERIFY = t("zh", "btn_verify")


async def test_verify_sends_the_check_privately(tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3"), seed=3) as app:
        svc = services(app)
        alice, group, _, table = await one_human_two_computers(tg, app)
        bob = tg.user("Bob", language_code="zh-hans")  # in the group, never opened the bot
        group.members[bob.id] = "member"
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        record = table.current
        await alice_plays(tg, app, alice, table, random.Random(6))
        await svc.presenter.idle()
        settle = await tg.wait_for(lambda: settlement_id(app, table, record) and tg.message(
            group, settlement_id(app, table, record)))
        assert (VERIFY, cb.Verify(record.id).pack()) in [b for row in settle.keyboard for b in row]
        fp = fairness.fingerprint(record.hand.seed)
        assert verify.shown_fingerprint(settle.caption) == fp

        before = len(tg.messages(alice))
        answer = await tg.press_button(settle, alice, VERIFY)
        assert answer.text == t("zh", "verify_sent")
        await svc.presenter.idle()
        [sent] = tg.messages(alice)[before:]
        lines = sent.text.splitlines()
        assert lines[0] == t("zh", "verify_title", table=table.id, hand=record.table_no,
                             id=record.id)
        sha = fairness.seed_commitment(record.hand.seed)
        assert t("zh", "verify_seed_ok", seed=record.hand.seed, sha=sha, fp=fp) in sent.text
        steps = len(record.hand.log)
        assert t("zh", "verify_replay_ok", steps=steps) in lines
        outcome = record.hand.outcome
        for name, p in zip(record.names, outcome.points, strict=True):
            assert t("zh", "verify_points", name=name, points=f"{p:+,}" if p else "0") in lines
        assert not [m for m in tg.messages(group) if m.text and "SHA-256" in m.text]

        # the group's next hand: the old settlement keeps its 验证 once its 再来一局 is gone
        await press_result(tg, alice, "q")
        await svc.presenter.idle()
        old = await tg.wait_for(lambda: (m := tg.message(group, settlement_id(app, table, record))) and
                                len(m.buttons) == 1 and m)
        assert old.buttons == [(VERIFY, cb.Verify(record.id).pack())]

        # one who never opened the bot is sent to it; its /start sends the check
        answer = await tg.press(group, settle.message_id, bob, cb.Verify(record.id).pack())
        assert answer.url == f"https://t.me/{tg.bot.username}?start=c{record.id}"
        tg.start_private(bob)
        reply = await tg.wait_reply(await tg.send_text(bob, bob, f"/start c{record.id}"))
        assert reply.text.startswith(lines[0]) and "✅" in reply.text
        reply = await tg.wait_reply(await tg.send_text(bob, bob, "/start c99999"))
        assert reply.text == t("zh", "verify_unknown", id=99999)
        # a 验证 press carried to another chat is outdated
        answer = await tg.press(bob, reply.message_id, bob, cb.Verify(record.id).pack())
        assert answer.text == t("zh", "stale")

        played = (await svc.store.played_hand(record.id))[1]
        good = verify.check(played, [], None, "zh")
        assert good.fair.seed_ok and good.fair.same
        other = "0" * 8 if fp != "0" * 8 else "1" * 8
        assert not verify.check(played, [], other, "zh").fair.seed_ok
        changed = dataclasses.replace(played, points=tuple(p + 1 for p in played.points))
        assert not verify.check(changed, [], None, "zh").fair.same
        cut = dataclasses.replace(played, log=played.log[:-1])
        assert verify.check(cut, [], None, "zh").fair.points is None
