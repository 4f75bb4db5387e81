"""The bundled font subsets cover every game string; names are cleaned and fitted safely."""

from __future__ import annotations

import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards as C
from engine.melds import CHINESE_NAMES
from engine.rules import LOWEST_TITLE, RULE_SETS, TITLES
from render import fonts
from render.strings import LANGS, TABLES, all_text


def game_chars() -> set[str]:
    parts = [*all_text(), C.SMALL_CHARS, C.BIG_CHARS, *CHINESE_NAMES.values(), LOWEST_TITLE]
    parts += [t for _, t in TITLES] + [m.name for r in RULE_SETS.values() for m in r.mingtang]
    parts += ["0123456789+-,…?▶ "]
    return {ch for p in parts for ch in p}


@pytest.mark.parametrize("bold", [False, True])
def test_subsets_cover_every_game_string(bold: bool) -> None:
    missing = game_chars() - fonts.coverage(bold)
    assert not missing, "".join(sorted(missing))


def test_regular_subset_covers_common_hanzi_for_names() -> None:
    assert set("张伟王芳李娜刘洋陈静杨勇赵磊黄敏") <= fonts.coverage()
    assert "😀" not in fonts.coverage()


def ink(f: fonts.Font, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = f.getmask(ch)
    return mask.size, bytes(mask)


@pytest.mark.parametrize("bold", [False, True])
def test_coverage_file_matches_the_font_files(bold: bool) -> None:
    """Covered characters have a real glyph; others fall to .notdef (checked with Pillow alone,
    so that the test needs no fontTools)."""
    f = fonts.font(14, bold)
    notdef = ink(f, "\ue000")  # private use: never in the subsets
    covered = fonts.coverage(bold)
    drawn = [ch for ch in covered if unicodedata.category(ch)[0] in "LNPS"]
    assert len(drawn) > (3000 if not bold else 200)
    assert [ch for ch in drawn if ink(f, ch) == notdef] == []
    for ch in "😀مא한\ue001ꙮ":
        assert ch not in covered and ink(f, ch) == notdef


def test_fonts_come_from_the_package_and_are_small() -> None:
    for bold in (False, True):
        assert fonts.font(20, bold).path.startswith(str(fonts.FONT_DIR))
    assert (fonts.FONT_DIR / fonts.BOLD).stat().st_size < 100_000
    assert (fonts.FONT_DIR / fonts.REGULAR).stat().st_size < 1_200_000
    assert "SIL OPEN FONT LICENSE" in (fonts.FONT_DIR / "LICENSE-OFL.txt").read_text()


def test_string_tables_have_the_same_keys() -> None:
    keys = [set(TABLES[lang]) for lang in LANGS]
    assert all(k == keys[0] for k in keys)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("小明", "小明"),
        ("Alice  Smith", "Alice Smith"),
        ("  padded\n", "padded"),
        ("line\nbreak\ttab", "line break tab"),
        ("老王🀄", "老王"),  # emoji are decoration: dropped
        ("👨‍👩‍👧‍👦 family", "family"),  # a whole ZWJ sequence
        ("🇨🇳 阿强 ✨", "阿强"),  # a flag, a sparkle
        ("👍🏽", "?"),  # with its skin tone modifier: nothing left
        ("❤️", "?"),  # with its variation selector
        ("김철수 🔥", "?"),  # letters the font lacks: one '?' per run
        ("a\u200b\u200e\u202eb", "ab"),  # zero-width and direction marks dropped
        ("\x00\x07bell", "bell"),
        ("مرحبا", "?"),
        ("שלום עולם", "? ?"),
        ("Ünïcödé Москва", "Ünïcödé Москва"),
        ("Ελλάδα", "Ελλαδα"),  # ά is not in the font: its base letter
        ("e\u0301", "é"),  # combined by NFC
        ("", "?"),
        ("🔥🔥🔥", "?"),
        ("??", "??"),  # the user's own question marks stay
    ],
)
def test_clean(raw: str, clean: str) -> None:
    assert fonts.clean(raw) == clean


def test_fit_cuts_with_an_ellipsis_by_measured_width() -> None:
    f = fonts.font(24)
    assert fonts.fit("short", f, 500) == "short"
    cut = fonts.fit("a very long name that cannot fit in the box", f, 120)
    assert cut.endswith(fonts.ELLIPSIS) and f.getlength(cut) <= 120
    wide = fonts.fit("WWWWWWWWWW", f, 60)
    narrow = fonts.fit("iiiiiiiiiiiiiiiiiiii", f, 60)
    assert len(narrow) > len(wide)  # by width, not by character count
    assert fonts.fit("anything", f, 5) == ""  # not even '…' fits


@settings(max_examples=200, deadline=None)
@given(
    raw=st.text(max_size=80),
    px=st.integers(min_value=10, max_value=40),
    max_width=st.integers(min_value=0, max_value=400),
)
def test_cleaned_and_fitted_text_is_drawable_and_fits(raw: str, px: int, max_width: int) -> None:
    f = fonts.font(px)
    clean = fonts.clean(raw)
    assert clean and set(clean) <= fonts.coverage()
    assert clean == clean.strip() and "\n" not in clean
    out = fonts.name(raw, f, max_width)
    assert f.getlength(out) <= max_width
    assert out in ("", clean) or (
        out.endswith(fonts.ELLIPSIS) and clean.startswith(out[:-1].rstrip())
    )



def cluster_ends(text: str) -> set[int]:
    """Where a cut may fall: the start, and the end of every grapheme cluster."""
    return {0} | {m.end() for m in regex.finditer(r"\X", text)}


def fitted_prefix(raw: str, fitted: str) -> str:
    return fitted if fitted == raw else fitted.removesuffix(fonts.ELLIPSIS)


@pytest.mark.parametrize("raw", [
    "👨‍👩‍👧‍👦" * 8,  # a ZWJ family: seven code points, one cluster
    "a👍🏽" * 8,  # a skin tone modifier
    "🇨🇳🇯🇵" * 6,  # flags: pairs of regional indicators
    "q\u0301x\u0308" * 10,  # letters with marks no precomposed letter holds
])
def test_fit_never_splits_a_grapheme_cluster(raw: str) -> None:
    f = fonts.font(24)
    cuts = set()
    for width in range(int(f.getlength(fonts.ELLIPSIS)) + 1, int(f.getlength(raw)), 3):
        out = fonts.fit(raw, f, width)
        assert out.endswith(fonts.ELLIPSIS) and f.getlength(out) <= width
        kept = fitted_prefix(raw, out)
        assert raw.startswith(kept) and len(kept) in cluster_ends(raw), (width, kept)
        cuts.add(kept)
    assert len(cuts) > 3  # many widths, many different cuts


@settings(max_examples=300, deadline=None)
@given(
    raw=st.text(alphabet=st.sampled_from("a 小\u302a👍🏽\u200d👩🇨🇳e\u0301"), max_size=40),
    max_width=st.integers(min_value=0, max_value=300),
)
def test_fitted_text_ends_between_clusters(raw: str, max_width: int) -> None:
    f = fonts.font(20)
    kept = fitted_prefix(raw, fonts.fit(raw, f, max_width))
    assert raw.startswith(kept) and len(kept) in cluster_ends(raw)
