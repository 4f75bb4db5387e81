"""Who opens a transaction of the store (``store.transaction()``): the store itself, and the
table room's unit of work (:data:`SERVICES`), whose table rules run between its writes under
the table's lock. Never a service, a handler, a command, the presenter, a screen or the live
seat's server: those call a store method that owns its transaction (``Store.set_quiet``,
``Store.void_hand``, ``Store.set_post``, ``Store.add_cup``: :mod:`bot.store.units`).
import-linter cannot see a method call, so this walks the code's syntax; a planted violation
shows that it is caught.

Nor does a handler (bot/telegram) or a command (bot/commands) reach the store itself: it reads
through :class:`bot.store.Reads` (the store seen read-only, ``env.reads``) and writes through
the store seen as settings (``env.settings``, :class:`bot.store.Settings`) and the table room's
services.
mypy does not check those rooms, so :func:`reaching` walks their syntax too."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from bot.store import Reads

ROOT = Path(__file__).resolve().parents[1]
# outside bot/store, the only module that may open a transaction: the table room's unit of
# work (``work.change``: the caller's table rules write through its open transaction, which
# commits only once they all succeed, before the observer is told), which no store method
# could own without taking the rules into the store
SERVICES = {"bot/table/work.py"}


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


# the rooms that answer updates, and in them the wiring that opens the store and gives it to
# the services (app.py) and the getUpdates client's journal of presses (journal.py: it keeps
# presses before any handler runs, through the store's two press methods, PressStore)
HANDLERS = ("bot/telegram/", "bot/commands/")
WIRING = {"bot/telegram/app.py", "bot/telegram/journal.py"}
READS = {name for name, _ in inspect.getmembers(Reads, inspect.iscoroutinefunction)}


def _reaches(node: ast.AST) -> bool:
    """``x.store``/``x._store``, or a call through the read-only store (``x.reads.f()``,
    ``store.f()``, ``reads.f()``) of what :class:`bot.store.Reads` does not offer."""
    if isinstance(node, ast.Attribute) and node.attr in ("store", "_store"):
        return True
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    held = node.func.value
    through = isinstance(held, ast.Name) and held.id in ("store", "reads") or \
        isinstance(held, ast.Attribute) and held.attr == "reads"
    return through and node.func.attr not in READS


def reaching(root: Path) -> dict[str, list[int]]:
    """The handler and command modules of ``root``/bot (the wiring aside) that reach the
    store other than through :class:`bot.store.Reads`, with the lines where they do."""
    found: dict[str, list[int]] = {}
    for path in sorted((root / "bot").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if not name.startswith(HANDLERS) or name in WIRING:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lines = sorted({n.lineno for n in ast.walk(tree) if isinstance(n, ast.expr)
                        and _reaches(n)})
        if lines:
            found[name] = lines
    return found


def test_handlers_and_commands_reach_the_store_only_to_read() -> None:
    assert reaching(ROOT) == {}, "read through env.reads, write through a service"


def test_a_handler_reaching_the_store_is_caught(tmp_path: Path) -> None:
    for room, body in (("telegram", "async def quiet(env, user):\n"
                                    "    await env.store.set_quiet(user.id, True)\n"
                                    "    await env.reads.set_quiet(user.id, True)\n"
                                    "    return await env.reads.user(user.id)\n"),
                       ("commands", "async def me(store, user_id):\n"
                                    "    await store.subscribe(1, user_id, True)\n"
                                    "    return await store.scores(user_id)\n")):
        planted = tmp_path / "bot" / room / "planted.py"
        planted.parent.mkdir(parents=True)
        planted.write_text(body, encoding="utf-8")
    assert {"user", "scores"} <= READS and not READS & {"set_quiet", "subscribe", "transaction"}
    assert reaching(tmp_path) == {"bot/commands/planted.py": [2],
                                  "bot/telegram/planted.py": [2, 3]}
