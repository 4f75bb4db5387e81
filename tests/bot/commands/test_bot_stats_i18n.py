"""Languages: one catalog per language, the same keys and fields in each, and no user-facing
Chinese text written anywhere in the bot but the catalogs."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from bot.commands import calc, club, skill, stats
from bot.i18n import CATALOGS, EN, ZH, lang_of, t
from bot.table import challenges, cups
from bot.telegram import chat, commands, info, lobby
from bot.telegram import club as club_setting
from bot.telegram import cup as cup_words
from engine.rules import LOWEST_TITLE, TITLES

BOT = Path(__file__).resolve().parents[3] / "bot"
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
EVENT_KINDS = ("deal", "liang", "tianhu", "ti", "wei", "chouwei", "draw", "discard", "chi",
               "peng", "pao", "pass", "hu", "to_row", "huangzhuang", "escape")  # engine.views.Event


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_both_catalogs_have_the_same_keys_and_fields() -> None:
    assert set(CATALOGS) == {"zh", "en"}
    assert set(ZH) == set(EN), (set(ZH) ^ set(EN))
    for key in ZH:
        assert _fields(ZH[key]) == _fields(EN[key]), key


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_text_formats(lang: str) -> None:
    for key, text in CATALOGS[lang].items():
        t(lang, key, **{name: 1 for name in _fields(text)})


def test_keys_built_by_the_code_exist() -> None:
    built = {f"cmd_{n}" for n in (c.name for c in commands.COMMANDS)}
    built |= {f"ev_{k}" for k in EVENT_KINDS}
    assert built <= set(ZH), built - set(ZH)


def _literal_keys(tree: ast.AST) -> set[str]:
    """Keys in ``t(lang, "key", ...)`` and ``r.code``-style refusals ``Refusal("key")``."""
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            index = {"t": 1, "Refusal": 0, "CalcError": 0}.get(node.func.id)
            if index is not None and len(node.args) > index and \
                    isinstance(node.args[index], ast.Constant):
                keys.add(node.args[index].value)
    return keys


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            found.add(id(node.body[0].value))
    return found


# Words the bot reads (never writes): /calc's vocabulary, the arguments of /rank, /stats,
# /season, /new, /challenge, /cup and /export.
READ_ONLY = set(calc.MELD_WORDS) | calc.SELF_WORDS | calc.OTHER_WORDS | stats.ALL_WORDS | {"＋："} \
    | set(lobby.RULE_WORDS) | {lobby.SEATS_WORD, lobby.MATCH_WORD} \
    | set(club.PERIOD_WORDS) | club.NEW_WORDS | lobby.STANDING_WORDS | {lobby.SINGLE_WORD} \
    | set(challenges.DEADLINE_UNITS) | {challenges.HANDS_WORD} | set(chat.CLUB_WORDS) \
    | {cups.ROUNDS_WORD, cups.HANDS_WORD} | skill.SKILL_WORDS | info.CHALLENGE_WORDS \
    | set(club_setting.SETTING_WORDS) | club_setting.ON_WORDS | club_setting.OFF_WORDS \
    | club_setting.NO_LIMIT_WORDS | cup_words.CANCEL_WORDS


def test_no_user_facing_text_outside_the_catalogs() -> None:
    used: set[str] = set()
    for path in sorted(BOT.rglob("*.py")):
        if path.name == "i18n.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used |= _literal_keys(tree)
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docs and CJK.search(node.value):
                if path.name == "store.py" and node.value.lstrip().startswith(("CREATE", "ALTER")):
                    continue  # SQL, with Chinese in its comments
                assert node.value in READ_ONLY, f"{path.name}:{node.lineno} {node.value!r}"
    assert used and used <= set(ZH), used - set(ZH)


def test_private_chats_follow_the_telegram_language() -> None:
    assert lang_of("zh-hans", "en") == "zh" and lang_of("zh-TW", "en") == "zh"
    assert lang_of("en", "zh") == "en" and lang_of("de", "zh") == "en"
    assert lang_of(None, "zh") == "zh"


def test_english_counts_are_plural_aware() -> None:
    def rank(n: int) -> str:
        return t("en", "rank_line", pos=1, name="A", points=n, title="T", hands=n, wins=n)
    assert rank(1) == "1. A · 1 pt · T · 1 hand, 1 win"
    assert rank(2) == "1. A · 2 pts · T · 2 hands, 2 wins"
    assert rank(0) == "1. A · 0 pts · T · 0 hands, 0 wins"
    assert rank(-1).startswith("1. A · -1 pt · ")
    assert t("en", "history_title", n=1).startswith("📜 This group's last 1 hand · ")
    assert t("zh", "rank_line", pos=1, name="A", points=1, title="T", hands=1, wins=1) == \
        "1. A · 1 分 · T · 1 局 1 胜"  # Chinese has no plural


def test_every_level_title_is_translated_with_the_chinese_beside_it() -> None:
    for title in [*(name for _, name in TITLES), LOWEST_TITLE]:
        assert t("zh", f"title_{title}") == title
        english = t("en", f"title_{title}")
        assert english.startswith(f"{title} ") and english[len(title) + 1:].isascii()
