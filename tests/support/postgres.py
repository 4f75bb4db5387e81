"""A PostgreSQL server for the store's tests: ``TEST_DATABASE_URL`` when set, else a throwaway
server started from the installed binaries (``/usr/lib/postgresql/*/bin``) for the session.

The server refuses to run as root, so under root it runs as the ``postgres`` system user (or
``nobody``) through ``runuser``, in a temporary directory that user owns, on a free localhost
port with fsync off; it is stopped when the session ends. Each test gets a schema of its own
(``fresh_postgres_url``); a test that stops and starts its server (an outage) gets one of
its own (``own_postgres``, a :class:`Server`). Without PostgreSQL the tests that need it are
skipped with one line saying so, unless ``REQUIRE_POSTGRES=1`` (CI) turns that skip into a
failure.
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

NOT_INSTALLED = ("PostgreSQL tests skipped: no TEST_DATABASE_URL and no server binaries "
                 "in /usr/lib/postgresql/*/bin")


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user() -> tuple[list[str], str | None]:
    """The command prefix that runs the server unprivileged, and that user (None: as we are)."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], name
    raise RuntimeError("running as root and no unprivileged user to run PostgreSQL as")


_skipped: list[str] = []  # why the PostgreSQL tests were skipped, said once at the end


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _skipped:
        terminalreporter.write_line(_skipped[0])


class Server:
    """A throwaway PostgreSQL server of the installed binaries, run unprivileged in a
    temporary directory on a free localhost port with fsync off; :meth:`stop` it and
    :meth:`start` it again to play an outage (its data stays), :meth:`remove` it at the end."""

    def __init__(self, bindir: Path) -> None:
        self._bindir = bindir
        self._prefix, user = _as_user()
        self.home = Path(tempfile.mkdtemp(prefix="paohuzi-pg-"))
        self.home.chmod(0o755)
        self._data = self.home / "data"
        if user is not None:
            shutil.chown(self.home, user)
        self.port = _free_port()
        subprocess.run([*self._prefix, str(bindir / "initdb"), "-D", str(self._data), "-U",
                        "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                       check=True, capture_output=True)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.start()

    def _ctl(self, *args: str, check: bool = True) -> None:
        subprocess.run([*self._prefix, str(self._bindir / "pg_ctl"), "-D", str(self._data),
                        *args], check=check, capture_output=True)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off")
        self._ctl("-o", options, "-l", str(self.home / "log"), "-w", "start")

    def stop(self, mode: str = "immediate", check: bool = True) -> None:
        """``immediate``: as a crash, every connection cut at once (no shutdown checkpoint)."""
        self._ctl("-m", mode, "-w", "stop", check=check)

    def remove(self) -> None:
        self.stop(check=False)
        shutil.rmtree(self.home, ignore_errors=True)


def installed() -> Path:
    """The server binaries' directory; skips (or fails, ``REQUIRE_POSTGRES=1``) without."""
    bindir = _binaries()
    if bindir is None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(NOT_INSTALLED + " (REQUIRE_POSTGRES=1)")
        _skipped.append(NOT_INSTALLED)
        pytest.skip(NOT_INSTALLED)
    return bindir


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server (its ``postgres`` database) for this session."""
    if url := os.environ.get("TEST_DATABASE_URL"):
        yield url
        return
    server = Server(installed())
    try:
        yield server.url
    finally:
        server.remove()


@pytest.fixture
def own_postgres() -> Iterator[Server]:
    """A server of this test's own, which it may stop and start (an outage); always a
    throwaway one of the installed binaries, even with ``TEST_DATABASE_URL``."""
    server = Server(installed())
    try:
        yield server
    finally:
        server.remove()


async def _create_schema(server: str, name: str) -> None:
    db = await asyncpg.connect(server)
    try:
        await db.execute(f"CREATE SCHEMA {name}")
    finally:
        await db.close()


@pytest.fixture
def fresh_postgres_url(postgres_server: str) -> str:
    """A URL whose connections see an empty schema of this test's own (``search_path``)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    asyncio.run(_create_schema(postgres_server, name))
    joiner = "&" if "?" in postgres_server else "?"
    return f"{postgres_server}{joiner}search_path={name}"


# What a broken constraint raises, on either backend (the action log's append-only trigger
# raises PostgreSQL's integrity_constraint_violation too).
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's empty store is, once on each backend."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/db.sqlite3"
    return str(request.getfixturevalue("fresh_postgres_url"))
