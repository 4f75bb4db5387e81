"""A wrong DATABASE_URL is one line naming what is wrong (the password never shown) and exit 2,
never a traceback, before the Bot API is asked anything: an unknown host, a port nothing
listens on, a refused password, a missing database, a port that is not a number, another
scheme."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from support.botproc import bot_env, free_port, refused_start

GOOD = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp_-x"


async def _refused(tmp_path: Path, url: str) -> str:
    """The one line the bot prints for ``url`` (the Bot API's address is a closed port: it
    must not be needed to learn that the database is wrong)."""
    env = bot_env(GOOD, "http://127.0.0.1:9/bot", DATABASE_URL=url,
                  DB_PATH=str(tmp_path / "unused.sqlite3"))
    [line] = await refused_start(tmp_path, env)
    assert line.startswith("paohuzi-bot: DATABASE_URL ")
    return line


def _with(url: str, **parts: str) -> str:
    return urlunsplit(urlsplit(url)._replace(**parts))


async def test_an_unknown_host(tmp_path: Path, postgres_server: str) -> None:
    url = _with(postgres_server, netloc="postgres@no-such-host.invalid:5432")
    assert await _refused(tmp_path, url) == (
        f"paohuzi-bot: DATABASE_URL {url}: the host no-such-host.invalid is not known"
        " (Name or service not known)")


async def test_a_port_nothing_listens_on(tmp_path: Path, postgres_server: str) -> None:
    port = free_port()
    url = _with(postgres_server, netloc=f"postgres:s3cret@127.0.0.1:{port}")
    line = await _refused(tmp_path, url)
    assert line == (f"paohuzi-bot: DATABASE_URL {url.replace('s3cret', '***')}: nothing accepts"
                    f" connections at 127.0.0.1:{port} (is PostgreSQL running there, on that"
                    " port?)")


async def test_a_wrong_password(tmp_path: Path, wrong_password_url: str) -> None:
    line = await _refused(tmp_path, wrong_password_url)
    assert "wrong-password" not in line
    assert line.endswith(': the password was refused (password authentication failed for user'
                         ' "paohuzi_pw")')


async def test_a_missing_database(tmp_path: Path, postgres_server: str) -> None:
    url = _with(postgres_server, path="/no_such_db")
    assert await _refused(tmp_path, url) == (
        f'paohuzi-bot: DATABASE_URL {url}: database "no_such_db" does not exist (create it:'
        ' see docs/operators.md, PostgreSQL)')


async def test_a_port_that_is_not_a_number(tmp_path: Path) -> None:
    url = "postgresql://paohuzi:s3cret@127.0.0.1:54x2/paohuzi"
    assert await _refused(tmp_path, url) == (
        "paohuzi-bot: DATABASE_URL postgresql://paohuzi:***@127.0.0.1:54x2/paohuzi is not a"
        " valid PostgreSQL URL: the port is not a number")


@pytest.mark.parametrize("url", ["mysql://paohuzi:s3cret@localhost/paohuzi", "paohuzi.db"])
async def test_another_scheme(tmp_path: Path, url: str) -> None:
    env = bot_env(GOOD, "http://127.0.0.1:9/bot", DATABASE_URL=url)
    [line] = await refused_start(tmp_path, env)
    assert line.startswith("paohuzi-bot: DATABASE_URL must be a postgresql://USER@HOST:PORT/DB")
    assert "s3cret" not in line
