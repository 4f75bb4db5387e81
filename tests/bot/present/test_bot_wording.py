"""What a new user reads first, through the real bot and a fake Telegram: words in the
private chat get a hint (not "no such command"), /start says how a table deals, /new with a
seat count its rule set lacks says which it has, and /help fits one phone screen."""

from __future__ import annotations

import math
import unicodedata

import pytest
from support.e2e import make_config, running_bot
from support.fakebot import FakeTelegram

from bot.i18n import t
from bot.telegram.lobby import new_usage

# A phone shows about 40 columns of a message (a Chinese character takes two), and about 24
# such rows between the chat's title and its input bar.
SCREEN_COLUMNS = 40
SCREEN_ROWS = 24


def rows(text: str) -> int:
    """The rows ``text`` takes on the screen once its lines wrap."""
    def columns(line: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
    return sum(max(1, math.ceil(columns(line) / SCREEN_COLUMNS)) for line in text.splitlines())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_help_fits_one_phone_screen_and_sends_for_details_to_rules(lang: str) -> None:
    assert rows(t(lang, "help")) <= SCREEN_ROWS
    assert "/rules" in t(lang, "help")


def test_the_row_count_wraps_wide_characters() -> None:
    assert rows("一" * 20) == 1 and rows("一" * 21) == 2 and rows("a" * 41 + "\n") == 2


async def test_a_new_users_first_messages(tg: FakeTelegram, tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        alice = tg.user("Alice")
        group = tg.group("牌友群", members=(alice,))

        async def says(chat, text: str) -> str:  # type: ignore[no-untyped-def]
            return (await tg.wait_reply(await tg.send_text(chat, alice, text))).text

        welcome = await says(alice, "/start")
        assert welcome == t("zh", "start_private", name="Alice")
        assert "「开局」" in welcome and "人齐了自动开局" in welcome and "/begin" not in welcome
        hint = await says(alice, "你好")
        assert hint == t("zh", "private_hint") and "没有这个命令" not in hint
        assert await says(alice, "/nonsense") == t("zh", "unknown_command")
        assert await says(group, "/new 4") == \
            "QQ跑胡子只有 3 人桌,没有 4 人的。4 人可以玩:/new hunan 4 · /new four14 4"
        assert await says(group, "/new hunan 5") == new_usage("zh")  # no rule set has 5
