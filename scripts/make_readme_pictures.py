"""README's pictures, drawn by the bot's own screens from a hand its computer players play.

    .venv/bin/python scripts/make_readme_pictures.py [OUTDIR]    # default docs/pictures/

Four strong computer players play a four-seat 湖南 hand from a fixed seed (the same every
run); the pictures are what the bot would send at its moments, through the functions the
bot paints with (``bot.present.screens``, ``render``):

- ``seat.png``: a seat's private picture when it must discard, with its real 听 marks;
- ``table.png``: the group's table picture of the same moment;
- ``settlement.png``: the group's settlement of a won hand, with its 名堂 and the 醒家.

The live seat (``docs/live-seat.png``) is a screenshot of the page in Chromium, taken by
``bench/webapp_shots.py`` (docs/live-seat.md); this script does not touch it. Run this
one again when a picture's look changes, and look at what it wrote.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from PIL import Image

from bot.present.screens.group import draw_table
from bot.present.screens.seat import SeatMarks, draw_hand
from engine import player
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand
from engine.ting import ting
from engine.views import OutcomeKind
from render import render_settlement

ROOT = Path(__file__).resolve().parents[1]
RULES = "hunan/4"
NAMES = ("小明", "Alice", "老王🀄", "阿芳")
TOTALS = (128, -40, 57, -145)  # the running totals a settlement shows after a few hands
LANG = "zh"


def played(rules: RuleSet, seed: int) -> Iterator[Hand]:
    """The hand before each action of a game the strong players play, then once it ended."""
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    while not h.is_terminal():
        yield h
        seat = h.to_act()[0]
        public = [e for e in h.history if e.visible_to is None]
        h.apply(seat, player.choose(h.private_view(seat), public, rng))
    yield h


def _showable(h: Hand, rules: RuleSet) -> int | None:
    """The seat whose discard is a good picture: several melds on the table, and a discard
    that leaves the hand 听 (so its marks show)."""
    pub = h.public_view()
    if len([m for s in pub.seats for m in s.melds]) < 5 or h.to_act() == ():
        return None
    seat = h.to_act()[0]
    view = h.private_view(seat)
    if not any(a.startswith("d:") for a in view.legal):
        return None
    return seat if ting(rules, view).by_discard else None


def pictures(seed: int = 1) -> dict[str, bytes]:
    rules = get_rule_set(RULES)
    marks = SeatMarks(robots=frozenset())
    for s in range(seed, seed + 200):
        moment, won = None, None
        for h in played(rules, s):
            if moment is None and (seat := _showable(h, rules)) is not None:
                moment = (h.private_view(seat), h.public_view())
            if h.is_terminal():
                won = h.public_view()
        ok = won is not None and won.outcome is not None and won.outcome.kind == OutcomeKind.WIN
        if moment is not None and ok and won.outcome.win is not None and won.outcome.win.mingtang:
            view, pub = moment
            return {
                "seat": draw_hand(view, NAMES, LANG, marks, rules),
                "table": draw_table(pub, NAMES, LANG, marks),
                "settlement": render_settlement(won, NAMES, TOTALS, LANG),
            }
    raise LookupError("no seed shows every picture")


def main(argv: list[str]) -> None:
    outdir = Path(argv[0]) if argv else ROOT / "docs" / "pictures"
    outdir.mkdir(parents=True, exist_ok=True)
    for name, data in pictures().items():
        path = outdir / f"{name}.png"
        # the bot sends play as JPEG (render.hand.FORMAT); kept here as PNG, pixel for pixel
        Image.open(io.BytesIO(data)).save(path, optimize=True)
        print(path, f"{path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
