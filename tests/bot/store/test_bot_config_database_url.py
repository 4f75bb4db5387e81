"""DATABASE_URL: unset the store is the SQLite file at DB_PATH; a postgresql:// URL names the
PostgreSQL store (kept out of the repr and out of messages, it may hold a password); anything
else is refused."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_config
from bot.store.opening import shown

GOOD = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp_-x"
URL = "postgresql://bot:s3cret@db.example:5432/paohuzi"


def test_unset_is_the_sqlite_file() -> None:
    assert load_config({"BOT_TOKEN": GOOD, "DATABASE_URL": " "}, None).database_url is None


def test_a_postgresql_url_is_kept_and_not_shown() -> None:
    config = load_config({"BOT_TOKEN": GOOD, "DATABASE_URL": URL}, None)
    assert config.database_url == URL
    assert "s3cret" not in repr(config)


@pytest.mark.parametrize("url", ["sqlite:///tmp/x.sqlite3", "mysql://u@h/db", "paohuzi"])
def test_anything_else_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL must be a postgresql://"):
        load_config({"BOT_TOKEN": GOOD, "DATABASE_URL": url}, None)


@pytest.mark.parametrize(("url", "seen"), [
    (URL, "postgresql://bot:***@db.example:5432/paohuzi"),
    ("postgresql://bot@db/paohuzi?password=s3cret&sslmode=require",
     "postgresql://bot@db/paohuzi?password=***&sslmode=require"),
    ("postgresql:///paohuzi", "postgresql:///paohuzi"),
    ("postgresql://bot:s3cret@[::1/paohuzi", "[::1/paohuzi"),
])
def test_the_url_in_a_message_hides_the_password(url: str, seen: str) -> None:
    assert shown(url) == seen
