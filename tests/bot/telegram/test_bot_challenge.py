"""复式挑战 end to end, through the real bot and the fake Bot API: the card with its seeds'
SHA-256 and 参加; two participants who make the same choices get the same pictures (same
bytes) and the same computer moves; a restart mid-challenge resumes a participant's game
from his stored moves; bad input and a second challenge get a reason and change nothing;
the opener's /challenge end posts the final card (🏆, every player's points, the seeds and a
🔍 line)."""

from __future__ import annotations

import hashlib
import re
import time

from support.challenge import current_buttons, play, run_of
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram

from bot import callbacks as cb
from bot.i18n import t
from bot.present import fairness
from bot.present.screens.challenge import deadline_text, seat_names
from bot.table import Person
from bot.table.challenges import first_difference, position_at
from engine.rules import get_rule_set
from render.difference import render_difference


async def test_two_players_see_the_same_game_and_a_restart_resumes(tg: FakeTelegram,
                                                                    tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3")
    ann, bob, cat = (tg.user(n, language_code="zh-hans") for n in ("Ann", "Bob", "Cat"))
    group = tg.group("挑战群", members=(ann, bob, cat))
    for user in (ann, bob, cat):
        tg.start_private(user)
    async with running_bot(config) as app:
        svc = services(app)
        said = await tg.wait_reply(await tg.send_text(group, ann, "/challenge 2局 99x"))
        assert said.text == t("zh", "challenge_usage")
        assert await svc.store.open_challenge(group.id) is None  # nothing opened
        asked = time.time()
        await tg.send_text(group, ann, "/challenge qq 2局 2h")
        card = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                               if (m.text or "").startswith("⚔️")), None))
        row = await svc.store.open_challenge(group.id)
        assert row is not None and len(row.seeds) == 2 and row.rules == "qq"
        # two hours from the command, and the card says when
        assert asked + 7200 <= row.deadline <= time.time() + 7200
        assert t("zh", "challenge_card_deadline", at=deadline_text(row.deadline, None)) in \
            card.text.splitlines()
        sha = re.search(r"SHA-256:([0-9a-f]{64})", card.text)
        assert sha is not None and "参加" in str(card.keyboard)
        again = await tg.wait_reply(await tg.send_text(group, bob, "/challenge"))
        assert again.text == t("zh", "challenge_exists")

        assert (await tg.press_button(card, ann, "参加")).text == t("zh", "challenge_joined")
        assert (await tg.press_button(card, bob, "参加")).text == t("zh", "challenge_joined")
        first = [await tg.wait_for(lambda u=u: current_buttons(tg, u, row.id, 0)) for u in
                 (ann, bob)]
        assert first[0][0].photo_bytes == first[1][0].photo_bytes  # the very same picture
        fp = fairness.fingerprint(row.seeds[0])
        assert f"🔒 {fp}" in first[0][0].caption and first[0][0].caption == first[1][0].caption
        assert (await tg.press_button(card, ann, "参加")).text == t("zh", "challenge_once")

        # Cat sits at a table in another group: refused, with the reason
        other = tg.group("别的群", members=(cat,))
        await tg.wait_reply(await tg.send_text(other, cat, "/new"))
        await tg.wait_for(lambda: svc.service.table_of_user(cat.id) is not None)
        assert (await tg.press_button(card, cat, "参加")).text == t("zh", "challenge_seated")

        ann_moves = await play(tg, app, ann, row.id, lambda run, n: None)  # the strong choices
        ann_run = await run_of(app, row.id, ann)
        assert ann_run.finished and ann_run.offs == 0
        half = len(ann_run.deals[0].moves) // 2

        def same_until_half(run, n):
            if n >= half:
                raise StopIteration
            return ann_moves[n]
        await play(tg, app, bob, row.id, same_until_half)
        bob_run = await run_of(app, row.id, bob)
        # the same choices so far: the same computer moves and the same picture
        assert bob_run.current.robot_moves == \
            ann_run.deals[0].robot_moves[:len(bob_run.current.robot_moves)]
        assert bob_run.current.hand.log == ann_run.deals[0].hand.log[:len(
            bob_run.current.hand.log)]
        await svc.presenter.idle()
        bob_now = current_buttons(tg, bob, row.id, half)[0].photo_bytes
    # a restart (the store kept his moves): his game comes back where it was
    async with running_bot(config) as app:
        svc = services(app)
        resent = await tg.wait_for(lambda: (found := current_buttons(tg, bob, row.id, half))
                                   and found[0].photo_bytes == bob_now and found)
        assert resent
        run = await run_of(app, row.id, bob)
        assert sum(len(d.moves) for d in run.deals) == half

        def differ_once(run, n):  # one other choice, then the strong ones
            legal = run.current.legal()
            return next((a for a in legal if a != ann_moves[n]), None) if n == half else None
        await play(tg, app, bob, row.id, differ_once)
        bob_run = await run_of(app, row.id, bob)
        assert bob_run.finished
        card_now = await tg.wait_for(lambda: (m := tg.message(group, card.message_id))
                                     and "Bob" in m.text and "Ann" in m.text and m)
        assert "排名" in card_now.text

        refused = await tg.wait_reply(await tg.send_text(group, bob, "/challenge end"))
        assert refused.text == t("zh", "challenge_only_opener")
        await tg.send_text(group, ann, "/challenge end")
        final = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                                if (m.text or "").startswith("🏆")), None))
        lines = final.text.splitlines()
        points = {"Ann": ann_run.points(), "Bob": bob_run.points()}
        best, second = sorted(points, key=lambda n: (-points[n], n == "Bob"))
        assert lines[0].startswith("🏆") and best in lines[0]
        for name, p in points.items():
            assert any(line.split(". ", 1)[-1].startswith(f"{name} {p:+,}" if p else f"{name} 0")
                       for line in lines), (name, p, lines)
        seeds = ",".join(map(str, row.seeds))
        assert seeds in final.text and hashlib.sha256(seeds.encode()).hexdigest() == sha[1]
        moves = {u: await svc.store.challenge_moves(row.id, u.id) for u in (ann, bob)}
        by_name = {"Ann": ann, "Bob": bob}
        diff = first_difference(moves[by_name[second]], moves[by_name[best]])
        assert diff is not None and diff.deal == 0 and diff.seq == half
        assert any(line.startswith(f"🔍 {second}:第 1 局第 {half + 1} 次决定") for line in lines)
        # its 🔍: the position where they first differed, privately: the picture Bob had then
        before = len(tg.messages(cat))
        answer = await tg.press_button(final, cat, f"🔍 {second}")
        assert answer.text == t("zh", "challenge_diff_sent", name=second)
        [shown] = await tg.wait_for(lambda: tg.messages(cat)[before:] or None)
        assert shown.caption.startswith(f"🔍 复式挑战 #{row.id}")
        # Bob's position then (up to there both had the same game), both choices marked
        rules = get_rule_set(row.rules)
        there = position_at(rules, row.seeds, moves[by_name[second]], diff)
        assert shown.photo_bytes == render_difference(
            there.view(), row.id, 1, half + 1, (second, diff.his), (best, diff.best),
            seat_names(rules, "zh"), "zh")
        # the card lost its 参加; a press of it now is refused
        closed = await tg.wait_for(lambda: (m := tg.message(group, card.message_id))
                                   and not m.keyboard and m)
        assert closed
        answer = await tg.press(group, card.message_id, cat, cb.ChallengeJoin(row.id).pack())
        assert answer.text == t("zh", "challenge_closed")


async def test_leaving_counts_what_was_played_and_the_end_takes_the_buttons(tg: FakeTelegram,
                                                                       tmp_path) -> None:
    ann, bob = (tg.user(n, language_code="zh-hans") for n in ("Ann", "Bob"))
    group = tg.group("挑战群", members=(ann, bob))
    for user in (ann, bob):
        tg.start_private(user)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        said = await tg.wait_reply(await tg.send_text(ann, ann, "/challenge"))
        assert said.text == t("zh", "group_only")
        said = await tg.wait_reply(await tg.send_text(group, ann, "/challenge end"))
        assert said.text == t("zh", "challenge_none")
        said = await tg.wait_reply(await tg.send_text(group, ann, "/challenge 9局"))
        assert said.text == t("zh", "challenge_usage")
        asked = time.time()
        await tg.send_text(group, ann, "/challenge 2局")
        card = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                               if (m.text or "").startswith("⚔️")), None))
        row = await svc.store.open_challenge(group.id)
        # the defaults: qq, and 24 hours on the card
        assert row.rules == "qq" and asked + 86400 <= row.deadline <= time.time() + 86400
        assert t("zh", "challenge_card_deadline", at=deadline_text(row.deadline, None)) in card.text
        for user in (ann, bob):
            assert (await tg.press_button(card, user, "参加")).text == \
                t("zh", "challenge_joined")

        def first_deal(run, n):
            if run.deals[0].over:
                raise StopIteration
        await play(tg, app, ann, row.id, first_deal)
        ann_run = await run_of(app, row.id, ann)
        assert ann_run.played() == 1 and len(ann_run.deals) == 2
        msg, _ = await tg.wait_for(lambda: current_buttons(tg, ann, row.id,
                                                           svc.challenges.version(ann_run)))
        assert (await tg.press_button(msg, ann, t("zh", "btn_challenge_leave"))).text == \
            t("zh", "challenge_left_toast")
        left = t("zh", "challenge_left", id=row.id, points=f"{ann_run.points():+,}"
                 if ann_run.points() else "0", played=1, hands=2)
        await tg.wait_for(lambda: any(m.text == left for m in tg.messages(ann)))
        lost, _ = await tg.wait_for(lambda: current_buttons(tg, bob, row.id, 0))
        tg.delete(bob, lost.message_id)  # he deleted his deal: its link brings it back
        await tg.send_text(bob, bob, f"/start x{row.id}")
        bob_first, data = await tg.wait_for(lambda: current_buttons(tg, bob, row.id, 0))
        assert bob_first.message_id != lost.message_id and bob_first.photo_bytes == \
            lost.photo_bytes
        said = await tg.wait_reply(await tg.send_text(ann, ann, f"/start x{row.id}"))
        assert said.text == t("zh", "challenge_once")  # she left: not again
        await tg.send_text(group, ann, "/challenge end")
        final = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                                if (m.text or "").startswith("🏆")), None),
                                  timeout=15)
        assert "Ann" in final.text and "Bob" in final.text
        bob_line = next(line for line in final.text.splitlines() if ". Bob " in line)
        assert bob_line.endswith("(0/2 局,偏离 0,未打完)")  # what he played: nothing
        # Bob's buttons went with the end; a press of them is refused, nothing changes
        await tg.wait_for(lambda: not tg.message(bob, bob_first.message_id).keyboard)
        answer = await tg.press(bob, bob_first.message_id, bob, data[0])
        assert answer.text == t("zh", "challenge_closed")
        assert await svc.store.challenge_moves(row.id, bob.id) == []


async def test_the_deadline_ends_it(tg: FakeTelegram, tmp_path) -> None:
    ann = tg.user("Ann", language_code="zh-hans")
    group = tg.group("挑战群", members=(ann,))
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        row = await svc.challenges.open(group.id, None, Person(ann.id, "Ann", "zh"),
                                        get_rule_set("hunan/3"), 1, 1)  # a 1 s deadline
        card = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                               if (m.text or "").startswith("⚔️")), None))
        assert "湖南" in card.text and t("zh", "challenge_nobody") in card.text
        final = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                                if (m.text or "").startswith("🏆")), None))
        assert final.text.splitlines()[0] == t("zh", "challenge_final_nobody", id=row.id)
        assert str(row.seeds[0]) in final.text
        await tg.wait_for(lambda: not tg.message(group, card.message_id).keyboard)
        assert (await svc.store.challenge(row.id)).status == "done"
