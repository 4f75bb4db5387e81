"""Provably fair deals end to end: the commitment shown at the start, the seed revealed at the
settlement, and the /export document that ``python -m engine verify`` confirms. Also the
leaderboard and /calc commands through the real bot."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

from support.e2e import make_config, running_bot
from support.fakebot import FakeTelegram
from support.play import play_hand, start_hand
from support.posted import picture_id, settlement_id

from bot.commands import calc
from bot.i18n import t
from engine.rules import title_of

ROOT = Path(__file__).resolve().parents[3]


def _verify(path: Path) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    return done.returncode, json.loads(done.stdout)


async def test_the_exported_hand_verifies_against_the_shown_commitment(
        tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current

        async def group_says(user, text: str):
            await svc.presenter.idle()  # the reply is then the next message
            return await tg.wait_reply(await tg.send_text(group, user, text))

        # a running hand is never exported: its seed is the deal
        assert (await group_says(users[0], "/export")).text == t("zh", "export_none")
        photo = await tg.wait_for(lambda: picture_id(app, table, record) and tg.message(
            group, picture_id(app, table, record)))
        head = photo.caption.splitlines()[0]  # copied now: the message is edited later
        shown = re.fullmatch(r".* · 🔒 ([0-9a-f]{8})", head)  # a short fingerprint only
        assert shown is not None, head
        assert str(record.hand.seed) not in photo.caption and "verify" not in photo.caption

        table = await play_hand(tg, app, users, group, random.Random(4))
        outcome = record.hand.outcome
        settle = tg.message(group, settlement_id(app, table, record))
        assert f"🔒 {shown[1]} · 公平性见下" in settle.caption
        # the seed, the full commitment and how to verify: in a folded 公平性 part
        [fold] = [e for e in settle.caption_entities if e["type"] == "expandable_blockquote"]
        units = settle.caption.encode("utf-16-le")  # entity offsets count UTF-16 units
        fair = units[2 * fold["offset"]:2 * (fold["offset"] + fold["length"])].decode("utf-16-le")
        revealed = re.search(r"公平性 / Fairness\n本局种子 (\d+)\nSHA-256 ([0-9a-f]{64})", fair)
        assert revealed is not None and "python -m engine verify" in fair, settle.caption
        seed = int(revealed[1])
        sha = hashlib.sha256(str(seed).encode()).hexdigest()
        assert sha == revealed[2] and sha[:8] == shown[1]

        sent = await group_says(users[1], "/export")
        name = f"paohuzi-hand-{record.id}.json"
        assert sent.document is not None and sent.document.file_name == name
        assert sent.caption == t("zh", "export_caption", no=record.no, seed=seed, sha=sha,
                                 file=name)
        assert str(seed) in sent.caption and sha in sent.caption
        path = tmp_path / name
        path.write_bytes(sent.document_bytes)
        code, verdict = _verify(path)
        assert code == 0 and verdict["ok"] and not verdict["problems"], verdict
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["seed_sha256"] == sha and doc["seed"] == seed
        assert [tuple(m) for m in doc["log"]] == list(record.hand.log)
        assert doc["result"]["points"] == list(outcome.points)
        doc["seed"] += 1  # another seed does not match what the group was shown
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, verdict = _verify(path)
        assert code == 1 and not verdict["ok"]

        # the leaderboards see the hand just played
        rank = (await group_says(users[2], "/rank")).caption.splitlines()  # of its picture
        assert rank[0] == t("zh", "rank_group", n=10, rules=t("zh", "rs_qq"))
        for seat, user in enumerate(users):
            p = outcome.points[seat]
            line = next(x for x in rank if f" {user.first_name} · " in x)
            tied = t("zh", "place_tied") if outcome.points.count(p) > 1 else ""  # shared place
            assert line.endswith(f"{user.first_name} · {p} 分 · {title_of(p)} · 1 局 "
                                 f"{int(seat == outcome.winner)} 胜{tied}")
        assert (await group_says(users[2], "/rank all")).caption.splitlines()[1:] == rank[1:]
        me = (await group_says(users[0], "/me")).caption.splitlines()
        wins = int(outcome.winner == 0)
        assert me[2] == t("zh", "me_total", points=outcome.points[0], hands=1, wins=wins,
                          rate=f"{wins:.0%}")
        history = (await group_says(users[0], "/history")).text.splitlines()
        assert history[0] == t("zh", "history_title", n=1) and \
            history[1].startswith(f"#{record.no} 第 {table.no} 桌第 {record.table_no} 局 ")


async def test_calc_answers_in_the_chats_language(tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        ann, bob = tg.user("Ann", language_code="zh-hans"), tg.user("Bob", language_code="en")
        group = tg.group("算牌群", members=(ann, bob))
        hand = "/calc 一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾"
        reply = await tg.wait_reply(await tg.send_text(group, bob, hand))
        assert reply.text == calc.answer(hand.removeprefix("/calc"), "zh")
        assert reply.text.startswith("✅ 能胡!胡息 16")
        reply = await tg.wait_reply(await tg.send_text(bob, bob, "/calc x1 x2 x7"))
        assert reply.text == t("en", "calc_count_few", n=3, expected=21) + "\n" + \
            t("en", "calc_usage")
        reply = await tg.wait_reply(await tg.send_text(ann, ann, "/calc 一一一一一"))
        assert reply.text == t("zh", "calc_too_many", cards="一") + "\n" + t("zh", "calc_usage")
        reply = await tg.wait_reply(await tg.send_text(bob, bob, "/history"))
        assert reply.text == t("en", "group_only")
        reply = await tg.wait_reply(await tg.send_text(bob, bob, "/me"))
        assert reply.caption.splitlines()[2:4] == [
            t("en", "me_total", points=0, hands=0, wins=0, rate="—"), t("en", "me_no_best")]
