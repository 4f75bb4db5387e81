"""A 复式挑战 anyone can check, end to end: /export 挑战 N is refused while the challenge is
open (its seeds are its deals) and, once it ended, sends the challenge's record, which
``python -m engine verify`` confirms (the seeds' SHA-256 the card showed, every deal, every
player's points, every computer move) and rejects once a figure is changed. The card's
deadline is in the group's time zone, which an admin sets with /timezone."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from support.challenge import play, run_of
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram

from bot.i18n import t
from bot.present import zones
from bot.present.screens.challenge import deadline_text

ROOT = Path(__file__).resolve().parents[3]


def _verify(path: Path) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    return done.returncode, json.loads(done.stdout)


async def test_a_challenge_is_exported_and_verified(tg: FakeTelegram, tmp_path) -> None:
    ann, bob = (tg.user(n, language_code="zh-hans") for n in ("Ann", "Bob"))
    group = tg.group("挑战群", members=(ann, bob))
    tg.set_admin(group, ann)
    for user in (ann, bob):
        tg.start_private(user)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)

        async def says(user, text):
            return (await tg.wait_reply(await tg.send_text(group, user, text))).text

        # the group's time zone: China's until an admin sets another; a bad name changes nothing
        examples = ", ".join(zones.EXAMPLES)
        assert await says(bob, "/timezone") == t("zh", "timezone_now", zone="Asia/Shanghai",
                                                 examples=examples)
        assert await says(ann, "/timezone Mars/Base") == t("zh", "timezone_bad",
                                                           examples=examples)
        assert await says(bob, "/timezone Europe/London") == t("zh", "only_admin")
        assert await svc.store.chat_timezone(group.id) is None
        assert (await says(ann, "/timezone europe/london")).startswith(
            t("zh", "timezone_set", zone="Europe/London", now="").split(",")[0])
        assert await svc.store.chat_timezone(group.id) == "Europe/London"

        await tg.send_text(group, ann, "/challenge qq 1局 2h")
        card = await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                               if (m.text or "").startswith("⚔️")), None))
        row = await svc.store.open_challenge(group.id)
        assert t("zh", "challenge_card_deadline",
                 at=deadline_text(row.deadline, "Europe/London")) in card.text.splitlines()
        assert "(Europe/London, UTC)" in card.text  # December: London is on UTC
        sha = re.search(r"SHA-256:([0-9a-f]{64})", card.text)[1]
        for user in (ann, bob):
            assert (await tg.press_button(card, user, "参加")).text == t("zh", "challenge_joined")

        # open: the seeds are still secret
        assert await says(bob, f"/export 挑战 {row.id}") == t("zh", "export_challenge_open",
                                                             id=row.id)
        assert await says(bob, "/export 挑战 ²") == t("zh", "export_usage")
        assert await says(bob, "/export 挑战 99") == t("zh", "export_challenge_none", id="99")

        await play(tg, app, ann, row.id, lambda run, n: None)  # the strong choices

        def differ_once(run, n):  # one other choice first, then the strong ones
            return next(a for a in run.current.legal()
                        if a != run.current.legal()[0]) if n == 0 else None
        await play(tg, app, bob, row.id, differ_once)
        runs = {"Ann": await run_of(app, row.id, ann), "Bob": await run_of(app, row.id, bob)}
        await tg.send_text(group, ann, "/challenge end")
        await tg.wait_for(lambda: next((m for m in tg.messages(group)
                                        if (m.text or "").startswith("🏆")), None))

        before = len(tg.messages(group))
        await tg.send_text(group, bob, f"/export challenge {row.id}")
        sent = await tg.wait_for(lambda: next((m for m in tg.messages(group)[before:]
                                               if m.document is not None), None))
        name = f"paohuzi-challenge-{row.id}.json"
        assert sent.document.file_name == name and sha in sent.caption
        assert ",".join(map(str, row.seeds)) in sent.caption
        path = tmp_path / name
        path.write_bytes(sent.document_bytes)
        code, verdict = _verify(path)
        assert code == 0 and verdict["ok"] and not verdict["problems"], verdict
        assert any("computer move" in c for c in verdict["checks"]), verdict
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["seeds_sha256"] == sha and doc["seeds"] == list(row.seeds)
        by_name = {p["name"]: p for p in doc["players"]}
        for who, run in runs.items():
            assert by_name[who]["points"] == run.points()
            assert [tuple(m) for m in by_name[who]["hands"][0]["log"]] == \
                list(run.deals[0].hand.log)

        # a player's points changed: the check finds it (a changed computer move too:
        # tests/engine/test_duplicate.py)
        by_name["Bob"]["points"] += 10
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, verdict = _verify(path)
        assert code == 1 and not verdict["ok"], verdict
