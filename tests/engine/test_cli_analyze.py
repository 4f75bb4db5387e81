"""``python -m engine analyze``: JSON lines in, one JSON line out per input line, in order."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def analyze_lines(lines: list[str]) -> tuple[list[dict], int]:
    done = run("analyze", stdin="".join(line + "\n" for line in lines))
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


REST5 = "一二三 壹贰叁 贰柒拾 六七八 肆伍陆"
WIN_OTHER = {"hand": REST5 + " 九九九 五五", "card": "五"}
WIN_SELF = {"hand": REST5 + " 九九", "melds": [["wei", "五五五"]], "card": "x5", "source": "self"}


def test_good_lines_in_order():
    lines = [
        json.dumps(WIN_OTHER, ensure_ascii=False),
        json.dumps({"hand": "一二三"}),
        json.dumps(WIN_SELF, ensure_ascii=False),
        json.dumps({**WIN_OTHER, "haidi": True, "base": 1}, ensure_ascii=False),
    ]
    out, status = analyze_lines(lines)
    assert status == 0
    assert out[0] == {
        "hu": True,
        "huxi": 19,
        "groups": [
            ["peng", "五五五", 1],
            ["kan", "九九九", 3],
            ["seq", "一二三", 3],
            ["seq", "六七八", 0],
            ["seq", "壹贰叁", 6],
            ["seq", "贰柒拾", 6],
            ["seq", "肆伍陆", 0],
        ],
        "mingtang": [],
        "fan": 1,
        "di": 2,
        "points": {"winner": 12, "loser": -6},
    }
    assert out[1] == {"hu": False}
    assert out[2]["groups"][0] == ["ti", "五五五五", 9]
    assert (out[2]["huxi"], out[2]["di"]) == (24, 5)  # 自摸 +1
    assert (out[3]["fan"], out[3]["points"]) == (2, {"winner": 8, "loser": -4})


def test_mingtang_and_table_melds():
    line = {
        "hand": "二七十 二七十 捌捌捌 九九九 三三",
        "melds": [["chi", "七七柒"], ["ti", "拾拾拾拾"]],
        "source": "self",
        "tianhu": False,
    }
    (out,), status = analyze_lines([json.dumps(line, ensure_ascii=False)])
    assert status == 0
    assert out["mingtang"] == [["红乌", 4]]
    assert ["chi", "七七柒", 0] in out["groups"] and ["pair", "三三", 0] in out["groups"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ("", "not JSON"),
        ('{"melds": []}', 'missing "hand"'),
        ('{"hand": "一二猫"}', "not a card"),
        ('{"hand": 12}', "string of cards"),
        ('{"hand": "一", "card": "二三"}', "exactly one card"),
        ('{"hand": "一", "melds": [["kong", "五五五"]]}', "unknown meld kind"),
        ('{"hand": "一", "melds": [["peng", "五五六"]]}', "identical"),
        ('{"hand": "一", "melds": ["peng 五五五"]}', "a meld must be"),
        ('{"hand": "一", "melds": {"peng": "五五五"}}', '"melds" must be'),
        ('{"hand": "五五五", "melds": [["peng", "五五五"]]}', "more than 4 of 五"),
        ('{"hand": "一", "card": "五", "source": "mine"}', '"source"'),
        ('{"hand": "一", "haidi": "yes"}', '"haidi"'),
        ('{"hand": "一", "base": 0}', '"base"'),
        ('{"hand": "一", "cards": "二"}', "unknown field"),
    ],
)
def test_bad_line_is_an_error_and_exit_2(line, message):
    good = json.dumps(WIN_OTHER, ensure_ascii=False)
    out, status = analyze_lines([good, line, good])
    assert status == 2
    assert len(out) == 3
    assert out[0] == out[2] and out[0]["hu"] is True
    assert set(out[1]) == {"error"} and message in out[1]["error"]


def test_simulate_subcommand_prints_json():
    done = run("simulate", "--hands", "2", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert isinstance(json.loads(done.stdout), dict)


def test_unknown_subcommand_is_a_usage_error():
    done = run("frobnicate")
    assert done.returncode == 2
    assert "analyze" in done.stderr
