"""Build the font subsets that ``render/`` ships (needs fontTools and Debian's fonts-noto-cjk).

    python scripts/make_font.py [--src /usr/share/fonts/opentype/noto] [--out render/fonts]

Two subsets of Noto Sans CJK SC (SIL OFL 1.1):

* **Bold**, tiny: card faces, headings and numbers — every character of the string tables,
  the game's own terms (cards, groups, 名堂, level titles) and printable ASCII.
* **Regular**: everything the Bold one has plus what player names commonly use — Latin,
  Greek, Cyrillic, kana, full-width forms and the 3755 level-1 hanzi of GB 2312. Names are
  always drawn with it; characters it lacks are replaced by ``?`` at run time.

It also writes ``coverage.json`` (the characters each subset really holds, read by
``render.fonts`` so that run time needs no fontTools) and ``LICENSE-OFL.txt``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import cards as C  # noqa: E402
from engine.melds import CHINESE_NAMES  # noqa: E402
from engine.rules import LOWEST_TITLE, RULE_SETS, TITLES  # noqa: E402
from render import fonts as F  # noqa: E402
from render.strings import all_text  # noqa: E402

FACE = "Noto Sans CJK SC"
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
# Symbols the painter draws as text besides the string tables.
PAINTER_SYMBOLS = "…?·×+−-=:：,，、()（）▶●★"


def game_text() -> str:
    """Every character the images can show that is not a player name."""
    parts = [*all_text(), C.SMALL_CHARS, C.BIG_CHARS, *CHINESE_NAMES.values(), LOWEST_TITLE]
    parts += [title for _, title in TITLES]
    parts += [m.name for rules in RULE_SETS.values() for m in rules.mingtang]
    parts += [PAINTER_SYMBOLS, "".join(chr(c) for c in range(0x20, 0x7F))]
    return "".join(parts)


def gb2312_level1() -> str:
    """The 3755 common hanzi (GB 2312 rows 16-55), in the standard's order."""
    out = []
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(out)


def name_text() -> str:
    """Extra characters for player names (Regular subset only)."""
    ranges = [
        (0x00A0, 0x017F),  # Latin-1, Latin Extended-A
        (0x0370, 0x03FF),  # Greek
        (0x0400, 0x045F),  # Cyrillic
        (0x2010, 0x205E),  # general punctuation
        (0x3000, 0x303F),  # CJK symbols and punctuation
        (0x3041, 0x30FF),  # hiragana, katakana
        (0xFF01, 0xFF5E),  # full-width forms
    ]
    return "".join(chr(c) for lo, hi in ranges for c in range(lo, hi + 1)) + gb2312_level1()


def find_face(ttc: Path) -> TTFont:
    for font in TTCollection(str(ttc), recalcTimestamp=False).fonts:
        if font["name"].getDebugName(1) == FACE:
            return font
    raise SystemExit(f"{FACE} not found in {ttc}")


def make_subset(ttc: Path, text: str, out: Path) -> str:
    """Subset ``ttc``'s SC face to ``text``; return the characters it really covers."""
    font = find_face(ttc)
    cmap = font.getBestCmap()
    wanted = sorted({ord(ch) for ch in text if ord(ch) in cmap})
    options = subset.Options()
    options.layout_features = []  # Pillow's basic layout uses no OpenType features
    options.name_IDs = ["*"]  # keep copyright and licence records (OFL condition 2)
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    font.save(str(out))
    return "".join(chr(c) for c in sorted(font.getBestCmap()))


def licence_text() -> str:
    """The OFL text as Debian ships it, preceded by the font's own copyright line."""
    lines = DEBIAN_COPYRIGHT.read_text(encoding="utf-8").splitlines()
    start = len(lines) - lines[::-1].index("License: SIL-1.1")  # the stand-alone paragraph
    body = []
    for line in lines[start:]:
        if not line.startswith(" "):
            break
        body.append("" if line == " ." else line[1:])
    header = [
        f"{F.REGULAR} and {F.BOLD} are subsets of {FACE} (Regular, Bold),",
        "made by scripts/make_font.py from Debian's fonts-noto-cjk.",
        "Copyright © 2014-2021 Adobe (http://www.adobe.com/).",
        "Licensed under the SIL Open Font License, Version 1.1:",
        "",
    ]
    return "\n".join(header + body) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    parser.add_argument("--out", type=Path, default=F.FONT_DIR)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    game = game_text()
    coverage = {
        "bold": make_subset(args.src / "NotoSansCJK-Bold.ttc", game, args.out / F.BOLD),
        "regular": make_subset(
            args.src / "NotoSansCJK-Regular.ttc", game + name_text(), args.out / F.REGULAR
        ),
    }
    (args.out / F.COVERAGE).write_text(
        json.dumps(coverage, ensure_ascii=False, indent=0) + "\n", encoding="utf-8"
    )
    (args.out / "LICENSE-OFL.txt").write_text(licence_text(), encoding="utf-8")
    for name in (F.BOLD, F.REGULAR, F.COVERAGE):
        print(f"{name}: {(args.out / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
