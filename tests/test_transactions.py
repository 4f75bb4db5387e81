"""Who opens a transaction of the store (``store.transaction()``): the store itself and the
table room's unit of work and services (:data:`SERVICES`), whose writes of several rows must
commit together. Never a handler, a command, the presenter, a screen or the live seat's
server: those go through a service or a store method that owns its one write
(``Store.set_quiet``, ``Store.void_hand``, ``Store.set_post``: :mod:`bot.store.units`).
import-linter cannot see a method call, so this walks the code's syntax; a planted violation
shows that it is caught."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# outside bot/store, the only modules that may open a transaction: the table room's unit of
# work and the services that write several rows as one
SERVICES = {
    "bot/table/work.py", "bot/table/registry.py", "bot/table/cup_service.py",
    "bot/table/challenge_service.py", "bot/table/rater.py", "bot/table/reviewer.py",
}


def opening(root: Path) -> dict[str, list[int]]:
    """The modules of ``root``/bot outside bot/store that call ``.transaction()``, with the
    lines where they do."""
    found: dict[str, list[int]] = {}
    for path in sorted((root / "bot").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name.startswith("bot/store/"):
            continue
        lines = [n.lineno for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr == "transaction"]
        if lines:
            found[name] = lines
    return found


def test_nothing_outside_the_store_and_its_services_opens_a_transaction() -> None:
    strays = {m: lines for m, lines in opening(ROOT).items() if m not in SERVICES}
    assert strays == {}, "write through a service or a store method that owns its transaction"


def test_a_planted_transaction_in_a_handler_is_caught(tmp_path: Path) -> None:
    handler = tmp_path / "bot" / "telegram" / "planted.py"
    handler.parent.mkdir(parents=True)
    handler.write_text("async def void(env, hand_id, by, reason):\n"
                       "    async with env.store.transaction() as tx:\n"
                       "        await tx.void_hand(hand_id, by, reason)\n", encoding="utf-8")
    store = tmp_path / "bot" / "store" / "reads.py"
    store.parent.mkdir(parents=True)
    store.write_text("async def f(self):\n    async with self.transaction() as tx:\n"
                     "        return tx\n", encoding="utf-8")
    assert opening(tmp_path) == {"bot/telegram/planted.py": [2]}
