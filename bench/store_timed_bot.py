"""``python bench/store_timed_bot.py OUT``: the bot (``python -m bot``) with the time it waits
on its store summed; each SIGUSR1 appends the sums so far to OUT (a JSON line: seconds,
statements, commits), so that ``bench_load.py`` reports the store time between two of them
per action.

Counted: every SQL statement the queries run (the backends' ``Conn`` calls, from the call to
its rows) and every commit (the end of a transaction). Not counted: waiting for the store's
transaction lock or a pooled connection, which is other changes' turn, not the store's.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store.postgres import PostgresConn, PostgresStore  # noqa: E402
from bot.store.sqlite import SqliteConn, SqliteStore  # noqa: E402

totals = {"seconds": 0.0, "statements": 0, "commits": 0}


def timed_sql(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def timed(self: Any, sql: str, args: Sequence[object]) -> Any:
        start = time.perf_counter()
        try:
            return await method(self, sql, args)
        finally:
            totals["seconds"] += time.perf_counter() - start
            totals["statements"] += 1
    return timed


def timed_commit(
        transaction: Callable[[Any], AbstractAsyncContextManager[Any]],
) -> Callable[[Any], AbstractAsyncContextManager[Any]]:
    @asynccontextmanager
    async def timed(self: Any) -> AsyncIterator[Any]:
        inner = transaction(self)
        tx = await inner.__aenter__()
        try:
            yield tx
        except BaseException as error:
            if not await inner.__aexit__(type(error), error, error.__traceback__):
                raise
            return
        start = time.perf_counter()
        await inner.__aexit__(None, None, None)
        totals["seconds"] += time.perf_counter() - start
        totals["commits"] += 1
    return timed


def install(out: Path) -> None:
    for conn in (SqliteConn, PostgresConn):
        for name in ("one", "all", "run", "insert"):
            setattr(conn, name, timed_sql(getattr(conn, name)))
    for store in (SqliteStore, PostgresStore):
        store.transaction = timed_commit(store.transaction)  # type: ignore[method-assign]

    def snapshot(signum: int, frame: object) -> None:
        with out.open("a") as f:
            f.write(json.dumps(totals) + "\n")
    signal.signal(signal.SIGUSR1, snapshot)


if __name__ == "__main__":
    install(Path(sys.argv.pop(1)))
    from bot.__main__ import main
    main()
