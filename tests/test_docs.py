"""README and the pages under docs/: every relative link and picture resolves to a file in
the repository (a page's anchors too), and README stays a front page."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# [text](target) and ![alt](target), and <img src="target"> in raw HTML
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SRC = re.compile(r"<img\b[^>]*\bsrc=\"([^\"]+)\"")
FENCE = re.compile(r"^(?: {4}|\t)[^\n]*$|^```.*?^```", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")


def targets(page: Path) -> list[str]:
    """The links of a page, outside code blocks and code spans."""
    text = CODE.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    return [*LINK.findall(text), *SRC.findall(text)]


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them: lower case, punctuation
    dropped (CJK kept), spaces to hyphens."""
    found = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def test_there_are_pages_and_links() -> None:
    assert len(PAGES) > 5
    assert sum(len(targets(p)) for p in PAGES) > 30


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in targets(page):
        parts = urlsplit(target)
        if parts.scheme or target.startswith("//"):
            continue  # a web address: not checked (no network in tests)
        path = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        missing = not path.is_relative_to(ROOT) or not path.exists()
        if missing or (parts.fragment and path.suffix == ".md"
                       and parts.fragment not in anchors(path)):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links to nothing: {broken}"


def test_readme_is_a_front_page() -> None:
    """At most 200 lines; its pictures exist and are pictures; the two commands."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    pictures = [t for t in targets(ROOT / "README.md") if t.endswith(".png")]
    assert len(pictures) >= 4
    for picture in pictures:
        assert (ROOT / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", picture
    assert "\n    make run\n    make test\n" in readme
    for guide in ("players", "operators", "development", "club", "competitions"):
        assert f"docs/{guide}.md" in readme
