"""A PostgreSQL server for the store's tests: ``TEST_DATABASE_URL`` when set, else a throwaway
server started from the installed binaries (``/usr/lib/postgresql/*/bin``) for the session
(under pytest-xdist, one for each worker that runs a PostgreSQL test).

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
import sqlite3
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import Store, open_store
from support.botproc import free_port

T = TypeVar("T")

NOT_INSTALLED = ("PostgreSQL tests skipped: no TEST_DATABASE_URL and no server binaries "
                 "in /usr/lib/postgresql/*/bin")


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


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


CTL_TIMEOUT = 120  # seconds for initdb and pg_ctl (its -w waits at most 60 s itself)
PASSWORD_ROLE = "paohuzi_pw"  # the throwaway server checks this role's password


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why the PostgreSQL tests were skipped, said once at the end (read from the tests'
    reports, which pytest-xdist's workers send to the process that prints)."""
    if any(NOT_INSTALLED in str(report.longrepr)
           for report in terminalreporter.stats.get("skipped", [])):
        terminalreporter.write_line(NOT_INSTALLED)


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
        self.port: int | None = None  # chosen at the first start, kept through restarts
        subprocess.run([*self._prefix, str(bindir / "initdb"), "-D", str(self._data), "-U",
                        "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                       check=True, capture_output=True, timeout=CTL_TIMEOUT)
        hba = self._data / "pg_hba.conf"  # one role whose password is checked (wrong_password_url)
        hba.write_text(f"host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        self.start()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str, check: bool = True) -> None:
        subprocess.run([*self._prefix, str(self._bindir / "pg_ctl"), "-D", str(self._data),
                        *args], check=check, capture_output=True, timeout=CTL_TIMEOUT)

    def start(self, tries: int = 5) -> None:
        """Start it on its port; the first time on a free one. Each pytest-xdist worker starts
        servers: a port found free may be taken by another's before this one binds it, and
        then the first start is tried again on another."""
        if self.port is not None:
            self._ctl("-o", self._options(self.port), "-l", str(self.home / "log"), "-w", "start")
            return
        failed = b""
        for _ in range(tries):
            port = free_port()
            started = subprocess.run(
                [*self._prefix, str(self._bindir / "pg_ctl"), "-D", str(self._data),
                 "-o", self._options(port), "-l", str(self.home / "log"), "-w", "start"],
                capture_output=True, timeout=CTL_TIMEOUT)
            if started.returncode == 0:
                self.port = port
                return
            failed = started.stderr
        log = (self.home / "log").read_text(errors="replace")[-2000:] \
            if (self.home / "log").exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {failed.decode()}\n{log}")

    def _options(self, port: int) -> str:
        """fsync off, but every commit written before it is acknowledged (synchronous_commit,
        a write without a flush here): a crash of the server alone (``stop``, ``restart``)
        then keeps every commit the bot was told of, as a real server does; the machine never
        crashes under a test."""
        return (f"-p {port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
                " -c full_page_writes=off")

    def stop(self, mode: str = "immediate", check: bool = True) -> None:
        """``immediate``: as a crash, every connection cut at once (no shutdown checkpoint)."""
        self._ctl("-m", mode, "-w", "stop", check=check)

    def restart(self) -> None:
        """``pg_ctl restart -m immediate``: a crash and the server at once up again, after its
        recovery (blocking: a test runs it in a thread while the bot plays on)."""
        assert self.port is not None
        self._ctl("-m", "immediate", "-o", self._options(self.port), "-l", str(self.home / "log"),
                  "-w", "restart")

    def remove(self) -> None:
        self.stop(check=False)
        shutil.rmtree(self.home, ignore_errors=True)


def installed() -> Path:
    """The server binaries' directory; skips (or fails, ``REQUIRE_POSTGRES=1``) without."""
    bindir = _binaries()
    if bindir is None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(NOT_INSTALLED + " (REQUIRE_POSTGRES=1)")
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


async def _password_role(server: str) -> None:
    db = await asyncpg.connect(server)
    try:
        if not await db.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", PASSWORD_ROLE):
            await db.execute(f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD 'right-password'")
    finally:
        await db.close()


@pytest.fixture
def wrong_password_url(postgres_server: str) -> str:
    """The server's URL as a role with a password, given a wrong one (a TEST_DATABASE_URL
    server must check that role's passwords from 127.0.0.1, as the throwaway one does)."""
    asyncio.run(_password_role(postgres_server))
    parts = urlsplit(postgres_server)
    return urlunsplit(parts._replace(
        netloc=f"{PASSWORD_ROLE}:wrong-password@{parts.hostname}:{parts.port}"))


# What a broken constraint raises, on either backend (the action log's append-only trigger
# raises PostgreSQL's integrity_constraint_violation too).
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's empty store is, once on each backend."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/db.sqlite3"
    return str(request.getfixturevalue("fresh_postgres_url"))


@pytest.fixture
async def opened_store(store_url: str) -> AsyncIterator[Store]:
    """That empty store, opened (and closed after the test)."""
    store = await open_store(store_url)
    yield store
    await store.close()


async def guard_holder(db: asyncpg.Connection, bot_id: int) -> int | None:
    """The backend holding bot ``bot_id``'s one-process guard (``bot.store.guard``: an advisory
    lock on its id in ``db``'s database), if any."""
    return await db.fetchval(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
        " AND (classid::bigint << 32) + objid::bigint = $1 AND database = (SELECT oid FROM"
        " pg_database WHERE datname = current_database())", bot_id)


async def eventually(check: Callable[[], Awaitable[T | None]], what: str,
                     timeout: float = 30.0) -> T:
    """Poll ``check`` until it returns something truthy (within ``timeout`` seconds)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (found := await check()):
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)
    return found


async def guard_moved(db: asyncpg.Connection, bot_id: int, killed: int) -> int:
    """Wait until bot ``bot_id``'s guard is held again by a backend other than ``killed``;
    that backend."""
    async def moved() -> int | None:
        holder = await guard_holder(db, bot_id)
        return None if holder == killed else holder

    return await eventually(moved, "the guard taken again")


async def take_guard_over(url: str, bot_id: int) -> asyncpg.Connection:
    """Be another process that waits for bot ``bot_id``'s guard, then kill the guard's
    connection: the waiting connection (returned, the caller closes it) has the lock before
    the holder can take it again."""
    admin, other = await asyncpg.connect(url), await asyncpg.connect(url)
    try:
        holder = await guard_holder(admin, bot_id)
        assert holder is not None
        waiting = asyncio.create_task(other.fetchval("SELECT pg_advisory_lock($1)", bot_id))
        await eventually(lambda: admin.fetchval(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"),
            "the other process to wait for the lock")
        await admin.fetchval("SELECT pg_terminate_backend($1)", holder)
        await asyncio.wait_for(waiting, 30)
    except BaseException:
        await other.close()
        raise
    finally:
        await admin.close()
    return other


async def killed_unread(db: asyncpg.Connection, admin: asyncpg.Connection) -> None:
    """Kill ``db``'s backend from ``admin`` and let the driver read the server's last word (its
    FATAL error), but not yet the connection's end: as when a call comes between the two,
    which a killed or restarted server leaves a moment for. ``db``'s transport is left not
    reading (private parts of asyncpg: a test's fault)."""
    db._transport.pause_reading()  # the server's last word waits in the socket
    assert await admin.fetchval("SELECT pg_terminate_backend($1)", db.get_server_pid())
    await asyncio.sleep(0.3)
    db._transport.resume_reading()
    await asyncio.sleep(0)  # one turn of the loop reads the FATAL error...
    await asyncio.sleep(0)
    db._transport.pause_reading()  # ...and the end is not read
    assert not db.is_closed()
