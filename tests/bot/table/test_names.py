"""Names in the bot's text: cut by grapheme cluster, never splitting an emoji,
and isolated (FSI … PDI) so that a right-to-left override in a name or a group title cannot
reverse the rest of a line."""

from __future__ import annotations

import unicodedata

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram

from bot.i18n import FSI, PDI, isolate
from bot.telegram.env import NAME_GRAPHEMES

EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO
ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI
PDF = "\u202c"
RLO = "\u202e"

FAMILY = "👨‍👩‍👧‍👦"  # seven code points, one grapheme cluster
LONG = "一二三四五六七八九十一二三四五" + FAMILY + "尾"  # 17 clusters; FAMILY is the 16th
EVIL = PDI + RLO + "evil"  # an override, after a stray PDI that would end a plain wrapping


def open_marks(text: str) -> list[str]:
    """The embeddings, overrides and isolates still open at the end of ``text``, by Unicode's
    bidi rules X1–X7: a PDF ends only an embedding opened inside the current isolate, a PDI
    ends the innermost open isolate (and whatever it holds) and is ignored when none is."""
    stack: list[str] = []
    for ch in text:
        if ch in EMBEDDINGS or ch in ISOLATES:
            stack.append(ch)
        elif ch == PDF and stack and stack[-1] in EMBEDDINGS:
            stack.pop()
        elif ch == PDI and any(c in ISOLATES for c in stack):
            while stack.pop() not in ISOLATES:
                pass
    return stack


def assert_contained(text: str, needle: str) -> None:
    """In each line of ``text`` holding ``needle``, what follows it is outside every mark
    (and some line goes on after it, so that there is something to reverse)."""
    checked = 0
    for line in (line for line in text.splitlines() if needle in line):
        end = line.index(needle) + len(needle)
        for j in range(end, len(line)):
            if unicodedata.category(line[j]) != "Cf":
                assert open_marks(line[:j]) == [], f"{line[j:]!r} is reversed in {line!r}"
                checked += 1
    assert checked, f"no line of {text!r} goes on after {needle!r}"


@pytest.mark.parametrize(("name", "isolated"), [
    ("Alice", "Alice"),  # nothing that can turn a line around: as typed
    ("小明 🀄", "小明 🀄"),
    ("محمد", FSI + "محمد" + PDI),  # right-to-left letters
    ("שלום 12", FSI + "שלום 12" + PDI),
    (RLO + "evil", FSI + RLO + "evil" + PDI),
    (EVIL, FSI + RLO + "evil" + PDI),  # its own isolate marks are dropped
    ("\u2067x", FSI + "x" + PDI),  # an unclosed RLI would swallow our PDI
])
def test_isolate(name: str, isolated: str) -> None:
    assert isolate(name) == isolated
    assert open_marks(isolate(name) + "x") == []


async def test_names_are_cut_by_grapheme_and_isolated_in_every_line(
        fake_tg: FakeTelegram, tmp_path) -> None:
    """A lobby with a long name ending in an emoji and a name with an override, a welcome,
    and a deep-link join to a group whose title has an override."""
    tg = fake_tg
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        emoji, evil, bob = tg.user(LONG), tg.user(EVIL), tg.user("Bob")
        group = tg.group(RLO + "牌友群", members=(emoji, evil, bob))
        for user in (emoji, evil):
            tg.start_private(user)
        lobby = await tg.wait_reply(await tg.send_text(group, evil, "/new"))  # 开桌人:‮evil(…
        await tg.send_text(group, emoji, "/join")
        # updates of different chats are handled concurrently: seat 2 first, then Bob
        await tg.wait_for(lambda: len(services(app).service.tables()[0].players) == 2)
        await tg.send_text(bob, bob, "/start j1")
        await tg.send_text(evil, evil, "/start")
        await tg.wait_for(lambda: len(tg.messages(bob)) == 1 and tg.messages(evil))
        await services(app).presenter.idle()

        cut = LONG[:LONG.index("尾")]  # 16 clusters, the family whole
        assert len(cut) > NAME_GRAPHEMES
        lobby_text = tg.message(group, lobby.message_id).text or ""
        assert f"2. {cut}\n" in lobby_text and "尾" not in lobby_text
        assert (await services(app).store.user(emoji.id)).name == cut
        assert_contained(lobby_text, "evil")
        assert_contained(tg.messages(evil)[-1].text or "", "evil")  # the welcome
        assert_contained(tg.messages(bob)[0].text or "", "牌友群")  # seated at “‮牌友群”
