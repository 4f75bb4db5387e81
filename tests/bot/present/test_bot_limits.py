"""Telegram's length limits (4,096 for a text, 1,024 for a caption, in UTF-16 units): whatever
the bot sends fits, cut in its middle between graphemes and marked "…", instead of being
refused whole (:mod:`bot.present.fit`)."""

from __future__ import annotations

import regex
from hypothesis import given
from hypothesis import strategies as st
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from telegram.constants import ParseMode

from bot.i18n import t
from bot.present.fit import CUT, MAX_CAPTION, MAX_TEXT, fit, fit_html, utf16_len

# graphemes of one to seven code points, several UTF-16 units each
GRAPHEMES = ["a", "字", "😀", "👍🏽", "🇨🇳", "👨‍👩‍👧‍👦", "é", "ñ̃", "\r\n"]


def graphemes(text: str) -> list[str]:
    return regex.findall(r"\X", text)


@given(st.lists(st.sampled_from(GRAPHEMES), max_size=80), st.integers(2, 60))
def test_a_cut_keeps_whole_graphemes_from_the_start_and_the_end(parts: list[str],
                                                                 limit: int) -> None:
    text = "".join(parts)
    cut = fit(text, limit)
    assert utf16_len(cut) <= limit
    if utf16_len(text) <= limit:
        assert cut == text
        return
    whole = graphemes(text)
    head, tail = cut.split(CUT, 1)  # no grapheme here is "…"
    k, m = len(graphemes(head)), len(graphemes(tail))
    assert "".join(whole[:k]) == head and "".join(whole[len(whole) - m:]) == tail
    assert k + m < len(whole)
    widest = max(map(utf16_len, GRAPHEMES))  # no shorter than it must be: each side is at
    assert utf16_len(cut) > limit - 2 * widest  # most one grapheme short of its budget


def test_an_html_text_keeps_its_markup_while_what_it_shows_fits() -> None:
    text = "<b>粗</b>" + "&lt;" * 1000
    assert fit_html(text, MAX_CAPTION) == (text, True)  # 1,001 shown: it fits
    cut, kept = fit_html(text + "&lt;" * 100, MAX_CAPTION)
    assert not kept and utf16_len(cut) <= MAX_CAPTION
    assert cut.startswith("粗<<") and cut.endswith("<<") and CUT in cut


async def test_a_calc_reply_echoing_a_long_input_still_comes(fake_tg: FakeTelegram,
                                                            tmp_path) -> None:
    """/calc with 5,000 characters: its reply echoes them («看不懂「…」») and would be refused
    as too long; it comes, cut in the echo, with the explanation and the usage whole."""
    tg = fake_tg
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")):
        bob = tg.user("Bob")
        sent = await tg.send_text(bob, bob, "/calc " + "abcde" * 1000)
        reply = await tg.wait_reply(sent)
        text = reply.text or ""
        assert utf16_len(text) <= MAX_TEXT
        assert text.startswith("看不懂「abcde") and CUT in text
        assert text.endswith(t("zh", "calc_usage"))
        assert not any(e.code == 400 for e in tg.errors)


async def test_every_text_and_caption_sent_is_cut_to_fit(fake_tg: FakeTelegram,
                                                         tmp_path) -> None:
    """Through the presenter's courier, whoever wrote the text: a file's caption, a vote's
    or a note's text, an HTML text (cut as plain text: its markup would not survive)."""
    tg = fake_tg
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        presenter = services(app).presenter
        bob = tg.user("Bob")
        chat = tg.start_private(bob)
        presenter.document(bob.id, "long.txt", b"data", lambda lang: "说明" * 600)
        presenter.note(bob.id, lambda lang: "👍🏽" * 2000)
        await presenter.idle()
        await presenter.bot.send_message(bob.id, "<b>粗</b>" + "&amp;" * 5000,
                                         parse_mode=ParseMode.HTML)
        document, note, html_text = tg.messages(chat)
        assert document.document is not None and utf16_len(document.caption or "") <= MAX_CAPTION
        assert (document.caption or "").startswith("说明说明") and CUT in (document.caption or "")
        assert utf16_len(note.text or "") <= MAX_TEXT and CUT in (note.text or "")
        kept = (note.text or "").replace(CUT, "")
        assert kept == "👍🏽" * (len(kept) // 2)  # no half emoji
        assert utf16_len(html_text.text or "") <= MAX_TEXT
        assert (html_text.text or "").startswith("粗&&") and not html_text.entities
        assert not tg.errors
