"""/rules (a table's rules in a few lines, the full page attached) and /calc by rule set."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeTelegram

from bot.commands import calc, rulebook
from bot.i18n import t
from engine import cards as C
from engine.analyzer import analyze
from engine.rules import QQ, RULE_SETS, get_rule_set, table_rules

ROOT = Path(__file__).resolve().parents[3]
FOUR14_WIN = "一二三 壹贰叁 四五六 贰柒拾 十十 + 拾"


# --- /calc [rule set] ------------------------------------------------------------------------

def test_calc_scores_by_the_rule_set_named_first() -> None:
    four14 = RULE_SETS["four14"]
    win = analyze(four14, C.counts(C.parse_cards("一二三 壹贰叁 四五六 贰柒拾 十十")), (),
                  C.parse_cards("拾")[0], source="other")
    assert win is not None
    lines = calc.reply(f"four14 {FOUR14_WIN}", "zh").splitlines()
    assert lines[0] == t("zh", "calc_win", huxi=win.huxi)
    assert lines[-1] == t("zh", "calc_score", di=win.di, fan=win.fan, base=win.base,
                          win=win.winner_points, lose=-win.loser_points, losers="三家")
    assert win.winner_points == 3 * -win.loser_points  # three seats pay at a four14 table
    # by qq the same cards are five 门子 only: not a win
    assert calc.reply(FOUR14_WIN, "zh") == calc.reply(f"QQ {FOUR14_WIN}", "zh") == \
        t("zh", "calc_count_few", n=15, expected=21) + "\n" + t("zh", "calc_usage")


def test_an_unknown_first_word_is_read_as_cards() -> None:
    assert calc.reply(f"mahjong {FOUR14_WIN}", "en").startswith(
        t("en", "calc_bad_cards", text="mahjong"))


@pytest.mark.parametrize(("seats", "sits_out", "expected"), [
    (3, False, 2), (4, False, 3), (4, True, 2), (2, False, 1)])
def test_the_payers_of_a_win(seats: int, sits_out: bool, expected: int) -> None:
    rules = dataclasses.replace(QQ, players=seats, sits_out=sits_out)
    assert calc.losers(rules) == expected
    assert t("zh", f"calc_losers_{expected}") and t("en", f"calc_losers_{expected}")


# --- /rules ----------------------------------------------------------------------------------

def test_the_qq_summary_reads_the_rule_set() -> None:
    assert rulebook.summary(QQ, "zh").splitlines() == [
        "📖 QQ跑胡子 · 3 人一桌",
        "胡牌:凑满 7 方门子,胡息至少 15。",
        "只能胡摸到的牌,别人打出的牌不能胡。",
        "计分:底数 x = ⌊(胡息 − 12) ÷ 3⌋,自摸 +1;每位输家付 x × 番 × 底分。",
        "名堂:各名堂的番相加。",
    ]


@pytest.mark.parametrize("rule_id", sorted(RULE_SETS))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_rule_set_and_shape_is_summarised_from_its_fields(rule_id: str, lang: str) -> None:
    base = RULE_SETS[rule_id]
    for seats in base.seat_choices:
        options = (None, "min21", "setaside") if seats == 2 and base.two_seat is None else (None,)
        for option in options:
            rules = table_rules(rule_id, seats, option)
            lines = rulebook.summary(rules, lang).splitlines()
            assert lines[0] == t(lang, "rules_head", rules=t(lang, f"rs_{rule_id}"),
                                 seats=seats)
            assert lines[1] == t(lang, "rules_win", groups=rules.groups_to_win,
                                 min=rules.min_huxi)
            assert (t(lang, "rules_discard_win") in lines) == rules.win_on_discard
            assert (t(lang, "rules_xing") in lines) == rules.sits_out
            assert (t(lang, "rules_birds") in lines) == rules.birds
            assert (t(lang, "rules_fan_multiply") in lines) == rules.mingtang_multiply


def test_the_four14_points_line_has_its_plus_one() -> None:
    assert t("en", "rules_points", offset=6, divisor=3, plus=" + 1", zimo="+1") in \
        rulebook.summary(RULE_SETS["four14"], "en").splitlines()


@pytest.mark.parametrize(("args", "expected"), [
    ([], "current"),
    (["qq"], QQ),
    (["QQ", "3"], QQ),
    (["four14"], RULE_SETS["four14"]),
    (["qq", "4"], None),
    (["qq", "three"], None),
    (["qq", "3", "min21"], None),
    (["mahjong"], None),
    (["qq", "3", "x", "y"], None),
])
def test_rules_arguments(args: list[str], expected) -> None:
    current = RULE_SETS["four14"]
    assert rulebook.asked_rules(args, current) == (current if expected == "current" else expected)


def test_each_written_page_is_found_and_qq_is_written() -> None:
    written = {p.stem for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert "qq" in written
    for rule_id in written:
        found = rulebook.page(rule_id)
        assert found == (f"{rule_id}.md", (ROOT / "docs" / "rules" / f"{rule_id}.md").read_bytes())
    assert rulebook.page("mahjong") is None


def test_the_pages_are_found_by_the_installed_package_from_anywhere(tmp_path: Path) -> None:
    """As README installs it (``pip install -e``): run from elsewhere, without the tests'
    import path, the package still finds the pages."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-c", "from bot.commands import rulebook, calc; import sys;"
         " print(rulebook.pages_dir()); sys.exit(rulebook.page('qq') is None)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == ROOT / "docs" / "rules"


def test_a_wheel_ships_every_page_where_the_lookup_finds_it(tmp_path: Path, monkeypatch) -> None:
    """Without the source tree, the pages come from ``<data>/share/paohuzi-bot/rules``, where
    the wheel built from pyproject.toml puts them."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "docs", "bot", "engine", "render"):
        (source / name).symlink_to(ROOT / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"),
         str(source)], capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    shipped = {Path(n).name for n in zipfile.ZipFile(wheel).namelist()
               if Path(n).parent.as_posix().endswith(".data/data/share/paohuzi-bot/rules")}
    assert shipped == {p.name for p in (ROOT / "docs" / "rules").glob("*.md")}
    installed = tmp_path / "prefix"
    (installed / rulebook.INSTALLED_PAGES).mkdir(parents=True)
    (installed / rulebook.INSTALLED_PAGES / "qq.md").write_text("# qq", encoding="utf-8")
    monkeypatch.setattr(rulebook, "SOURCE_PAGES", tmp_path / "no-checkout")
    monkeypatch.setattr(rulebook.sysconfig, "get_path", lambda name: str(installed))
    assert rulebook.page("qq") == ("qq.md", b"# qq")


async def test_rules_and_calc_through_the_bot(tg: FakeTelegram, tmp_path: Path) -> None:  # noqa: F811
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        ann, bob = tg.user("Ann", language_code="zh-hans"), tg.user("Bob", language_code="en")
        group = tg.group("规则群", members=(ann, bob))
        sent = await tg.wait_reply(await tg.send_text(group, bob, "/rules"))  # no table: qq
        assert sent.document is not None and sent.document.file_name == "qq.md"
        assert sent.document_bytes == (ROOT / "docs" / "rules" / "qq.md").read_bytes()
        assert sent.caption == rulebook.summary(QQ, "zh") + "\n" + t("zh", "rules_page")
        other = await tg.wait_reply(await tg.send_text(bob, bob, "/rules four14"))
        expected = rulebook.summary(RULE_SETS["four14"], "en")
        assert (other.caption or other.text or "").startswith(expected)
        usage = await tg.wait_reply(await tg.send_text(group, ann, "/rules qq 4"))
        assert usage.text == rulebook.usage("zh")
        reply = await tg.wait_reply(await tg.send_text(group, ann, f"/calc four14 {FOUR14_WIN}"))
        assert reply.text == calc.reply(f"four14 {FOUR14_WIN}", "zh")
        assert reply.text.splitlines()[-1].endswith("三家各 −48")


def test_the_points_line_says_how_a_house_rule_counts_zimo() -> None:
    doubled = rulebook.summary(get_rule_set("qq+自摸翻倍"), "zh").splitlines()
    assert t("zh", "rules_points", offset=12, divisor=3, plus="", zimo="×2") in doubled
    none = rulebook.summary(get_rule_set("qq+自摸不加"), "en").splitlines()
    assert t("en", "rules_points", offset=12, divisor=3, plus="", zimo="+0") in none
