"""Deep links: every one is built by :mod:`bot.links`, and what it builds the /start payload
parser reads back as the same thing."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import links
from bot.numbers import MOST_ID

BOT = "PaohuziTestBot"
PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what Telegram lets a start parameter hold
ROOT = Path(__file__).resolve().parents[3]


def _query(url: str, path: str) -> dict[str, list[str]]:
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "t.me", path)
    return parse_qs(parts.query, strict_parsing=bool(parts.query))


@given(st.sampled_from(links.NUMBERED), st.integers(1, MOST_ID))
def test_a_start_link_reads_back_as_what_it_opens(letter: str, id_: int) -> None:
    [payload] = _query(links.start(BOT, letter, id_), f"/{BOT}")["start"]
    assert PAYLOAD.fullmatch(payload)
    assert links.opened(payload) == (letter, id_)


@given(st.integers(1, MOST_ID))
def test_a_card_link_reads_back_only_with_its_seal(user_id: int) -> None:
    """A player's card link names him under the bot's token alone; no other letter reads it."""
    [payload] = _query(links.card(BOT, user_id, "1:token"), f"/{BOT}")["start"]
    assert PAYLOAD.fullmatch(payload) and links.opened(payload) is None
    assert links.card_of(payload, "1:token") == user_id
    assert links.card_of(payload, "2:token") is None  # another bot's (or a new token's)
    seal = payload.partition("_")[2]
    other = f"{links.CARD}{user_id % MOST_ID + 1}_{seal}"
    assert links.card_of(other, "1:token") is None


def test_the_word_links() -> None:
    assert links.private(BOT) == f"https://t.me/{BOT}"
    assert _query(links.private(BOT, links.ME), f"/{BOT}") == {"start": [links.ME]}
    assert links.opened(links.ME) is None  # a word, not a letter and an id
    assert _query(links.add_to_group(BOT), f"/{BOT}") == {"startgroup": [links.GROUP]}
    assert PAYLOAD.fullmatch(links.GROUP)


@given(st.integers(1, MOST_ID))
def test_the_mini_app_link_carries_its_table(table_id: int) -> None:
    [param] = _query(links.app_link(BOT, "live", table_id), f"/{BOT}/live")["startapp"]
    assert PAYLOAD.fullmatch(param) and links.number(param, links.APP_TABLE) == table_id


@pytest.mark.parametrize("payload", [
    "", "j", "j0", "r0", "j-1", "j１", "j²", "jx", "z5", "J5", "me1", f"c{MOST_ID + 1}",
    "x" + "1" * 40, " j5", "j5 ",
])
def test_a_payload_that_names_nothing_opens_nothing(payload: str) -> None:
    assert links.opened(payload) is None


def test_a_link_of_no_known_letter_is_a_bug() -> None:
    with pytest.raises(ValueError):
        links.start(BOT, "z", 1)


def test_no_deep_link_is_built_outside_bot_links() -> None:
    """No string in the bot's code (docstrings aside) spells a t.me link but bot/links.py."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path == ROOT / "bot" / "links.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and n.body and isinstance(n.body[0], ast.Expr)
                and isinstance(n.body[0].value, ast.Constant)}
        found += [f"{path.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and "t.me/" in n.value and id(n) not in docs]
    assert found == []
