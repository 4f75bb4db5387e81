"""A PostgreSQL server for the store's tests: ``TEST_DATABASE_URL`` when set, else a throwaway
server started from the installed binaries (``/usr/lib/postgresql/*/bin``) for the session
(under pytest-xdist, one for each worker that runs a PostgreSQL test).

The server refuses to run as root, so under root it runs as the ``postgres`` system user (or
``nobody``) through ``runuser``, in a temporary directory that user owns, on a free localhost
port with fsync off; it is stopped when the session ends. Each test gets a schema of its own
(``fresh_postgres_url``). Without PostgreSQL the tests that need it are skipped with one line
saying so, unless ``REQUIRE_POSTGRES=1`` (CI) turns that skip into a failure.
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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why the PostgreSQL tests were skipped, said once at the end (read from the tests'
    reports, which pytest-xdist's workers send to the process that prints)."""
    if any(NOT_INSTALLED in str(report.longrepr)
           for report in terminalreporter.stats.get("skipped", [])):
        terminalreporter.write_line(NOT_INSTALLED)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server (its ``postgres`` database) for this session."""
    if url := os.environ.get("TEST_DATABASE_URL"):
        yield url
        return
    bindir = _binaries()
    if bindir is None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(NOT_INSTALLED + " (REQUIRE_POSTGRES=1)")
        pytest.skip(NOT_INSTALLED)
    prefix, user = _as_user()
    home = Path(tempfile.mkdtemp(prefix="paohuzi-pg-"))
    home.chmod(0o755)
    data = home / "data"
    if user is not None:
        shutil.chown(home, user)
    subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                    "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                   check=True, capture_output=True)
    port = _start(prefix, bindir, home)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], check=False, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def _start(prefix: list[str], bindir: Path, home: Path, tries: int = 5) -> int:
    """Start the server in ``home`` on a free port and return it. Each pytest-xdist worker
    starts one: a port found free may be taken by another's before its server binds it,
    and then the start is tried again on another."""
    failed = b""
    for _ in range(tries):
        port = _free_port()
        options = (f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off")
        started = subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(home / "data"),
                                  "-o", options, "-l", str(home / "log"), "-w", "start"],
                                 capture_output=True)
        if started.returncode == 0:
            return port
        failed = started.stderr
    log = (home / "log").read_text(errors="replace")[-2000:] if (home / "log").exists() else ""
    raise RuntimeError(f"PostgreSQL did not start: {failed.decode()}\n{log}")


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
