"""Why a store cannot be opened, as one line for the operator: the address (its password
hidden) and what is wrong with it (an unknown host, nothing listening, a refused password, a
missing database…), never a traceback."""

from __future__ import annotations

import re
import socket
import sqlite3
from urllib.parse import urlsplit, urlunsplit

import asyncpg

# What opening a store may raise: the network, the driver's parsing of the URL, the server's
# refusals, SQLite's, and the migrations' "schema newer than this program".
OPEN_ERRORS = (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError,
               sqlite3.Error, RuntimeError)


_PASSWORD_PARAM = re.compile(r"((?:^|&)password=)[^&]*")


class StoreUnusable(Exception):
    """The store cannot be opened; the message is one line: its URL or path (password
    hidden) and why."""


def shown(url: str) -> str:
    """``url`` with its password (before the host, or a ``password=`` parameter) replaced by
    ``***``; of a URL that does not parse, only what follows its ``@``."""
    try:
        parts = urlsplit(url)
        if parts.password is None and not _PASSWORD_PARAM.search(parts.query):
            return url  # as it is (urlunsplit would rewrite postgresql:///db)
        if parts.password is not None:
            host = parts.netloc.rpartition("@")[2]
            parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
        return urlunsplit(parts._replace(query=_PASSWORD_PARAM.sub(r"\1***", parts.query)))
    except ValueError:
        return url.rpartition("@")[2] if "@" in url else url


def address(url: str) -> str:
    """``HOST:PORT`` a PostgreSQL URL connects to (libpq's defaults where it names none)."""
    try:
        parts = urlsplit(url)
        return f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
    except ValueError:
        return "?"


def why_postgres(url: str, error: BaseException) -> str:
    """One line for a PostgreSQL URL that could not be opened: the URL, password hidden, and
    why (the caller says which URL it is: DATABASE_URL, copy-store's source…)."""
    where = shown(url)
    if isinstance(error, socket.gaierror):
        host = address(url).rpartition(":")[0]
        return f"{where}: the host {host} is not known ({error.strerror})"
    if isinstance(error, ConnectionRefusedError):
        return (f"{where}: nothing accepts connections at {address(url)} (is PostgreSQL "
                "running there, on that port?)")
    if isinstance(error, TimeoutError):
        return f"{where}: no answer from {address(url)} in time (a firewall, or a wrong host?)"
    if isinstance(error, asyncpg.InvalidPasswordError):
        return f"{where}: the password was refused ({_first_line(error)})"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return f"{where}: {_first_line(error)} (create it: see docs/operators.md, PostgreSQL)"
    if isinstance(error, OSError):
        return f"{where}: cannot connect to {address(url)}: {error.strerror or error}"
    if isinstance(error, ValueError):
        return f"{where} is not a valid PostgreSQL URL: {_bad_part(url) or _first_line(error)}"
    return f"{where}: {_first_line(error)}"


def _bad_part(url: str) -> str | None:
    """What of ``url`` does not parse, if its host or port."""
    try:
        _ = urlsplit(url).port  # parsed on access
    except ValueError as e:
        return "the port is not a number" if "Port" in str(e) else str(e)
    return None


def why_sqlite(path: str, error: BaseException) -> str:
    """One line for a SQLite file that could not be opened."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else error
    return f"{path}: not a usable SQLite store ({_first_line(reason)})"


def _first_line(error: object) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
