"""The migration list: ``migrations/NNNN_name.sql`` files, in order of their number.

Migration ``n`` brings a store's schema from version ``n - 1`` to ``n`` on every backend.
Where the backends need different SQL, the migration is two files, ``NNNN_name.sqlite.sql``
and ``NNNN_name.postgresql.sql``; where one text serves both, it is ``NNNN_name.sql``.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

BACKENDS = ("sqlite", "postgresql")
_NAME = re.compile(r"(?P<n>\d{4})_[a-z0-9_]+?(?:\.(?P<backend>sqlite|postgresql))?\.sql")


@cache
def migrations(backend: str) -> tuple[str, ...]:
    """The SQL of every migration for ``backend``, first to last."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}")
    found: dict[int, dict[str | None, str]] = {}
    for entry in resources.files(__package__).joinpath("migrations").iterdir():
        match = _NAME.fullmatch(entry.name)
        if match is None:
            continue
        texts = found.setdefault(int(match["n"]), {})
        if match["backend"] in texts:  # two branches' migrations of one number, say
            raise RuntimeError(f"two migrations {match['n']} for {match['backend'] or 'all'}")
        texts[match["backend"]] = entry.read_text(encoding="utf-8")
    if sorted(found) != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations are not numbered 1..n: {sorted(found)}")
    return tuple(_pick(found[n], backend, n) for n in sorted(found))


def _pick(texts: dict[str | None, str], backend: str, n: int) -> str:
    if backend in texts:
        return texts[backend]
    if None in texts:
        return texts[None]
    raise RuntimeError(f"migration {n} has no SQL for {backend}")


MIGRATIONS = migrations("sqlite")
SCHEMA_VERSION = len(MIGRATIONS)
