"""The engine's command line at every rule set: ``simulate --rules``, ``analyze`` with a
``"rules"`` key, and ``verify`` of hunan records."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine.record import export_hand, verify
from engine.rules import get_rule_set
from engine.simulate import play_random
from engine.state import Hand


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True,
        encoding="utf-8", timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (("--rules", "hunan/4"), "hunan/4"),
        (("--rules", "hunan", "--players", "4"), "hunan/4"),
        (("--rules", "hunan", "--players", "2"), "hunan/2/min21"),
        (("--rules", "hunan/2/setaside"), "hunan/2/setaside"),
        ((), "qq"),
        (("--rules", "hunan/3+封顶100+起胡10"), "hunan/3+起胡10+封顶100"),
        (("--rules", "hunan+无名堂", "--players", "3"), "hunan/3+无名堂"),
    ],
)
def test_simulate_plays_the_rules_asked_for(args: tuple[str, ...], key: str) -> None:
    done = run("simulate", "--hands", "5", *args)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["rules"] == key and summary["hands"] == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rules", "hunan/5"), "not 5"),
        (("--rules", "hunan/4", "--players", "3"), "rule set id"),
        (("--rules", "mahjong"), "unknown rule set"),
        (("--rules", "hunan/3+起胡30"), "6–21"),
        (("--rules", "hunan+加倍", "--players", "3"), "unknown house rule"),
    ],
)
def test_simulate_refuses_rules_not_offered(args: tuple[str, ...], message: str) -> None:
    done = run("simulate", "--hands", "1", *args)
    assert done.returncode == 2 and message in json.loads(done.stdout)["error"]


# Worked example 3 of docs/rules/hunan.md: 26 胡息, 12 red, all sets.
HONG_DUI = {
    "hand": "贰贰贰柒柒柒捌捌捌九九",
    "melds": [["peng", "拾拾拾"], ["peng", "二二二"], ["peng", "伍伍伍"]],
    "card": "九",
    "base": 1,
}


def test_analyze_reads_the_rules_key_of_each_line() -> None:
    lines = [HONG_DUI, {**HONG_DUI, "rules": "hunan/3"}, {**HONG_DUI, "rules": "hunan/4"}]
    done = run("analyze", stdin="".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    qq, h3, h4 = (json.loads(line) for line in done.stdout.splitlines())
    assert done.returncode == 0
    assert qq["mingtang"] == [["红胡", 2], ["对对胡", 5]] and qq["fan"] == 7  # qq adds 番
    assert h3["mingtang"] == [["红对", 6]] and h3["fan"] == 6 and h3["di"] == 4
    assert h3["points"] == {"winner": 48, "loser": -24} == h4["points"]


def test_analyze_reads_house_words_in_the_rules_key() -> None:
    lines = [{**HONG_DUI, "rules": r} for r in ("hunan/3+无名堂", "hunan/3+封顶10+自摸翻倍")]
    done = run("analyze", stdin="".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    plain, capped = (json.loads(line) for line in done.stdout.splitlines())
    assert done.returncode == 0
    assert plain["mingtang"] == [] and plain["points"] == {"winner": 8, "loser": -4}
    assert capped["points"] == {"winner": 20, "loser": -10}
    assert capped["uncapped_loser_points"] == -24


@pytest.mark.parametrize(("rules", "message"), [
    ("hunan/9", "not 9"), (4, "rules key"), ("hunan/3+起胡10+加倍", "unknown house rule '加倍'"),
    ("hunan/3+无名堂+无红胡", "contradicts"), ("hunan/3+起胡10+", "unknown house rule ''"),
])
def test_analyze_refuses_a_bad_rules_key(rules, message: str) -> None:
    done = run("analyze", stdin=json.dumps({**HONG_DUI, "rules": rules}) + "\n")
    assert done.returncode == 2 and message in json.loads(done.stdout)["error"]


@pytest.mark.parametrize("key", ["hunan/4", "hunan/3", "hunan/2/min21", "hunan/2/setaside",
                                 "hunan/4+起胡10+封顶5+不连庄", "qq+无名堂+自摸翻倍"])
def test_verify_replays_records_of_every_hunan_shape(key: str, tmp_path) -> None:
    rng = random.Random(key)
    hand = play_random(Hand.new(get_rule_set(key), seed=rng.getrandbits(32), dealer=1), rng)
    doc = json.loads(json.dumps(export_hand(hand), ensure_ascii=False))
    assert doc["rules"] == key
    assert verify(doc).ok
    if key == "hunan/4":
        assert doc["result"]["xing"] == 3 and "bird_card" in doc["result"]
        doc["result"]["bird_card"] = "x1" if doc["result"]["bird_card"] != "x1" else "x2"
        assert not verify(doc).ok  # the bird card is checked too
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(export_hand(hand)), encoding="utf-8")
    done = run("verify", str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["ok"] is True
