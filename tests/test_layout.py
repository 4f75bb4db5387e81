"""The size limits of the code's rooms: no class in engine/, render/ or bot/ over 400 lines,
no module over 600 lines of code (the string catalog ``bot/i18n.py`` aside: its tables are
data). Lines of code leave out blank lines, comments and docstrings. The import walls between
the rooms are import-linter's contracts in pyproject.toml (``make test`` runs them)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for room in ("engine", "render", "bot") for p in (ROOT / room).rglob("*.py"))
CATALOGS = {ROOT / "bot" / "i18n.py"}
MAX_CLASS_LINES = 400
MAX_MODULE_CODE = 600


def _docstring_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def code_lines(source: str) -> int:
    docs = _docstring_lines(ast.parse(source))
    return sum(1 for no, line in enumerate(source.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and no not in docs)


def test_code_lines_leave_out_comments_and_docstrings() -> None:
    source = '"""Doc\nstring."""\n\n# a comment\nx = 1\n\n\ndef f():\n    """Doc."""\n    return x\n'
    assert code_lines(source) == 3


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_class_or_module_is_too_long(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    long_classes = [(node.name, node.end_lineno - node.lineno + 1)
                    for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ClassDef)
                    and (node.end_lineno or 0) - node.lineno + 1 > MAX_CLASS_LINES]
    assert not long_classes, f"classes over {MAX_CLASS_LINES} lines: {long_classes}"
    if path not in CATALOGS:
        assert code_lines(source) <= MAX_MODULE_CODE
