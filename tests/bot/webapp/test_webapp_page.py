"""The live page as served (bot.webapp.page, faces): its own screens' words in every
language written in, its default colours readable (text at least 4.5:1 on each ground it
sits on, light and dark), and its cards in one sprite."""

import io
import json
import re

import pytest
from PIL import Image
from support.webapp import contrast

from bot.i18n import CATALOGS, t
from bot.webapp import faces, page
from engine import cards as C
from render import theme as T

CSS = page.PAGE.read_text(encoding="utf-8")
# (text, ground) pairs the page writes: body text, hints, marks, points, buttons
PAIRS = [("--fg", g) for g in ("--bg", "--card", "--sheet")] + \
    [("--hint", g) for g in ("--bg", "--card", "--sheet")] + \
    [("--accent", g) for g in ("--bg", "--card", "--sheet")] + \
    [("--bg", "--hint"), ("--bg", "--accent"), ("--btn-fg", "--btn"), ("--pos", "--sheet"),
     ("--pos", "--bg")]


def scheme(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})", block))


LIGHT = scheme(CSS[CSS.index(":root {"):CSS.index("}", CSS.index(":root {"))])
DARK = {**LIGHT, **scheme(CSS[CSS.index("prefers-color-scheme: dark"):
                              CSS.index("}", CSS.index("prefers-color-scheme: dark"))])}


@pytest.mark.parametrize("colours", [LIGHT, DARK], ids=["light", "dark"])
def test_the_default_colours_are_readable(colours):
    for text, ground in PAIRS:
        assert contrast(colours[text], colours[ground]) >= 4.5, (text, ground)


def test_the_served_page_has_its_screens_words_in_every_language():
    html = page.html().decode()
    words = json.loads(re.search(r"const STATE_WORDS = (\{.*?\});\n", html).group(1))
    assert set(words) == set(CATALOGS)
    for lang in CATALOGS:
        assert words[lang]["expired"] == t(lang, "webapp_expired")
        assert words[lang]["back"] == t(lang, "webapp_back")
    assert page.SLOT not in html


def test_the_cards_come_in_one_sprite():
    sprite = Image.open(io.BytesIO(faces.png(faces.SPRITE)))
    w, h = T.OWN.w, T.OWN.h
    assert sprite.size == (w * (C.KINDS + 1), h)
    assert len(faces.png(faces.SPRITE)) < 20_000  # what a slow phone link fetches first
    for bad in ("²", "20", "-1", "sprite2", "../x"):
        assert faces.png(bad) is None
