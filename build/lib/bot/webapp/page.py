"""The live page (:file:`bot/webapp/static/index.html`) as served: with the words of its
own screens (expired, not seated, over, reconnecting) in every language written in, since
those show when no seat view, which carries the seat's words, can be had."""

from __future__ import annotations

import json
from pathlib import Path

from bot.i18n import CATALOGS, t

PAGE = Path(__file__).with_name("static") / "index.html"
SLOT = "/*STATE_WORDS*/{}"
STATE_WORDS = ("title", "expired", "expired_body", "not_seated_title", "not_seated",
               "over_title", "over_body", "back", "restarting", "offline")


def state_words() -> dict[str, dict[str, str]]:
    return {lang: {k: t(lang, f"webapp_{k}") for k in STATE_WORDS} for lang in CATALOGS}


def html() -> bytes:
    text = PAGE.read_text(encoding="utf-8")
    assert SLOT in text, f"{PAGE} lost its {SLOT}"
    words = json.dumps(state_words(), ensure_ascii=False).replace("</", "<\\/")
    return text.replace(SLOT, words, 1).encode()
