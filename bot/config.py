"""Configuration from the environment or a ``.env`` file (the environment wins).

The token is a secret: :class:`Config` keeps it out of its ``repr`` and no error message
quotes it.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.present.pacing import Pacing
from bot.webapp.door import LOOPBACK, Network

TOKEN_RE = re.compile(r"\d+:[A-Za-z0-9_-]{30,}")
WEBHOOK_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what setWebhook's secret_token allows
LANGS = ("zh", "en")


class ConfigError(ValueError):
    """A setting that is missing or malformed; the message never contains the token."""


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    api_base_url: str | None = None  # the Bot API URL prefix before the token (PTB's base_url)
    db_path: Path = Path("paohuzi.sqlite3")
    # postgresql://USER@HOST:PORT/DB: the store is that PostgreSQL database (several bots may
    # share it) instead of the SQLite file at db_path; hidden from repr (it may hold a password)
    database_url: str | None = field(default=None, repr=False)
    action_timeout: float = 60.0  # seconds a player has for a decision before 托管
    ready_timeout: float = 120.0  # seconds to press 再来一局 before being unseated
    full_start_delay: float = 10.0  # seconds a full lobby waits before dealing (开局 deals now)
    vote_timeout: float = 60.0  # seconds a 解散 or replacement vote stays open (tests shorten it)
    default_lang: str = "zh"  # language of group chats until changed
    pacing: Pacing = Pacing()  # the chats' paces, held changes and pings
    autoplay_delay: float = 1.5  # pause before the bot plays a seat in 托管
    seed: int | None = None  # tests and benchmarks: deals follow (seed, table, hand number)
    webhook: Webhook | None = None  # None: long polling
    webapp: WebAppConfig | None = None  # the live seat's server (WEBAPP_PORT); None: none
    # RENDER_PROCESS: the pictures of play are painted in a process of their own (another
    # core; bot.present.painter); 0: on a thread of the bot's process
    render_process: bool = True
    # METRICS_PORT: /healthz and /metrics served on metrics_host (bot.metrics); None: not
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    log_json: bool = False  # LOG_FORMAT=json: a JSON object a line (bot.logs); else text
    # REVIEW_SEATS: every human seat's 复盘 figures (a season's 技术分) are computed in a
    # process of their own at a lower priority (bot.table.reviewer); 0: none are
    review_seats: bool = True


@dataclass(frozen=True)
class Webhook:
    """Webhook mode: Telegram POSTs updates to ``url``; the bot serves its path on
    ``listen:port`` and refuses requests without the secret header."""

    url: str  # given to setWebhook: public https (http only for a local Bot API server)
    secret: str = field(repr=False)  # setWebhook's secret_token, checked on every request
    port: int = 8443
    listen: str = "0.0.0.0"

    @property
    def path(self) -> str:
        """The path served, as PTB's ``url_path`` wants it (no leading slash)."""
        return urlsplit(self.url).path.lstrip("/")


@dataclass(frozen=True)
class WebAppConfig:
    """The live seat (Mini App): served on ``listen:port`` at ``url``'s path, behind the
    operator's HTTPS proxy; init data older than ``max_age`` seconds is refused."""

    url: str  # the public https address every seat picture's 🀄 button opens
    port: int | None  # None: served by ``python -m bot webapp`` for every bot on DATABASE_URL
    max_age: float = 86400.0
    short_name: str | None = None  # the Mini App's (BotFather's /newapp): groups' 🀄 links
    listen: str = "127.0.0.1"  # WEBAPP_LISTEN: 0.0.0.0 in a container behind its proxy
    proxies: tuple[Network, ...] = LOOPBACK  # WEBAPP_PROXIES: not capped per address

    @property
    def path(self) -> str:
        return urlsplit(self.url).path or "/"


def parse_dotenv(text: str) -> dict[str, str]:
    """Simple ``KEY=VALUE`` lines; blank lines, ``#`` comments and ``export`` are allowed."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = line.removeprefix("export ").strip()
        key, sep, value = line.partition("=")
        if not sep:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def _values(environ: Mapping[str, str], env_file: Path | None) -> dict[str, str]:
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update(parse_dotenv(env_file.read_text(encoding="utf-8")))
    values.update({k: v for k, v in environ.items() if v != ""})
    return values


def _number(values: Mapping[str, str], key: str, default: float, minimum: float) -> float:
    text = values.get(key, "").strip()
    if not text:
        return default
    try:
        number = float(text)
    except ValueError:
        raise ConfigError(f"{key} must be a number of seconds, got {text!r}") from None
    if number < minimum:
        raise ConfigError(f"{key} must be at least {minimum}, got {text!r}")
    return number


def load_config(environ: Mapping[str, str], env_file: Path | None = Path(".env")) -> Config:
    """Read the settings; ``environ`` overrides ``env_file`` (which may be absent)."""
    values = _values(environ, env_file)

    token = values.get("BOT_TOKEN", "").strip()
    if not token:
        raise ConfigError("BOT_TOKEN is not set: put the token from @BotFather in the "
                          "environment or in .env (see .env.example)")
    if not TOKEN_RE.fullmatch(token):
        raise ConfigError("BOT_TOKEN is malformed: expected digits, a colon and at least 30 "
                          "letters, digits, '_' or '-' (the value is not shown)")
    lang = values.get("DEFAULT_LANG", "zh").strip() or "zh"
    if lang not in LANGS:
        raise ConfigError(f"DEFAULT_LANG must be one of {', '.join(LANGS)}, got {lang!r}")
    return Config(
        token=token,
        api_base_url=values.get("BOT_API_BASE_URL", "").strip() or None,
        db_path=Path(values.get("DB_PATH", "").strip() or "paohuzi.sqlite3"),
        database_url=_database_url(values),
        action_timeout=_number(values, "ACTION_TIMEOUT", 60.0, 1.0),
        ready_timeout=_number(values, "READY_TIMEOUT", 120.0, 10.0),
        full_start_delay=_number(values, "FULL_START_DELAY", 10.0, 0.0),
        default_lang=lang,
        pacing=Pacing(group_interval=_number(values, "GROUP_EDIT_INTERVAL", 3.5, 3.2),
                      dm_interval=_number(values, "DM_EDIT_INTERVAL", 1.0, 1.0),
                      send_interval=_number(values, "SEND_INTERVAL", 0.04, 1 / 30)),
        autoplay_delay=_number(values, "AUTOPLAY_DELAY", 1.5, 0.0),
        seed=_seed(values.get("BOT_SEED", "").strip()),
        webhook=_webhook(values, local_api=bool(values.get("BOT_API_BASE_URL", "").strip())),
        webapp=_webapp(values),
        render_process=_switch(values, "RENDER_PROCESS", True),
        metrics_port=_port(values, "METRICS_PORT"),
        metrics_host=values.get("METRICS_HOST", "").strip() or "127.0.0.1",
        log_json=_log_format(values) == "json",
        review_seats=_switch(values, "REVIEW_SEATS", True),
    )


def load_health_port(environ: Mapping[str, str],
                     env_file: Path | None = Path(".env")) -> tuple[str, int]:
    """METRICS_HOST and METRICS_PORT alone (``python -m bot healthcheck``, which needs no
    token: the live seat's server has WEBAPP_TOKENS instead)."""
    values = _values(environ, env_file)
    port = _port(values, "METRICS_PORT")
    if port is None:
        raise ConfigError("METRICS_PORT is not set: the health check asks /healthz there")
    return values.get("METRICS_HOST", "").strip() or "127.0.0.1", port


LOG_FORMATS = ("text", "json")


def _log_format(values: Mapping[str, str]) -> str:
    text = values.get("LOG_FORMAT", "").strip() or "text"
    if text not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, got {text!r}")
    return text


def _port(values: Mapping[str, str], key: str) -> int | None:
    """An optional port number: None when empty."""
    text = values.get(key, "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"{key} must be a port number (1-65535), got {text!r}")
    return int(text)


def _switch(values: Mapping[str, str], key: str, default: bool) -> bool:
    text = values.get(key, "").strip()
    if not text:
        return default
    if text not in ("0", "1"):
        raise ConfigError(f"{key} must be 1 (on) or 0 (off), got {text!r}")
    return text == "1"


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


SHORT_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,30}")


def _webapp(values: Mapping[str, str]) -> WebAppConfig | None:
    """Telegram opens Mini Apps only over https; http is accepted for this machine alone
    (a browser on it, as in the tests). With DATABASE_URL, WEBAPP_URL alone (no WEBAPP_PORT)
    is a page served for this bot by ``python -m bot webapp``."""
    port_text = values.get("WEBAPP_PORT", "").strip()
    url = values.get("WEBAPP_URL", "").strip()
    shared = bool(url) and bool(values.get("DATABASE_URL", "").strip())
    if not port_text and not shared:
        return None
    if port_text and (not port_text.isdigit() or not 1 <= int(port_text) <= 65535):
        raise ConfigError(f"WEBAPP_PORT must be a port number (1-65535), got {port_text!r}")
    parts = urlsplit(url)
    local = parts.scheme == "http" and parts.hostname in LOCAL_HOSTS
    if not (parts.scheme == "https" and parts.hostname) and not local:
        raise ConfigError(f"WEBAPP_URL must be the public https:// address of the live seat "
                          f"page when WEBAPP_PORT is set, got {url!r}")
    if parts.query or parts.fragment:
        raise ConfigError(f"WEBAPP_URL must have no ?query or #fragment, got {url!r}")
    short_name = values.get("WEBAPP_SHORT_NAME", "").strip() or None
    if short_name is not None and not SHORT_NAME_RE.fullmatch(short_name):
        raise ConfigError("WEBAPP_SHORT_NAME must be the Mini App's short name from "
                          f"@BotFather's /newapp (3-30 letters, digits or _), got {short_name!r}")
    return WebAppConfig(url=url, port=int(port_text) if port_text else None,
                        max_age=_number(values, "WEBAPP_MAX_AGE", 86400.0, 60.0),
                        short_name=short_name,
                        listen=values.get("WEBAPP_LISTEN", "").strip() or "127.0.0.1",
                        proxies=_proxies(values.get("WEBAPP_PROXIES", "")))


def _proxies(text: str) -> tuple[Network, ...]:
    """WEBAPP_PROXIES: addresses or networks (``172.16.0.0/12``), separated by commas or
    spaces; empty: this machine's loopback."""
    words = [word for word in re.split(r"[\s,]+", text) if word]
    try:
        return tuple(ipaddress.ip_network(word, strict=False) for word in words) or LOOPBACK
    except ValueError:
        raise ConfigError("WEBAPP_PROXIES must be addresses or networks such as 127.0.0.1 or "
                          f"172.16.0.0/12, separated by commas, got {text!r}") from None


def _webhook(values: Mapping[str, str], *, local_api: bool) -> Webhook | None:
    """Telegram posts only to https; a local Bot API server (``--local``) also to http."""
    url = values.get("WEBHOOK_URL", "").strip()
    if not url:
        return None
    parts = urlsplit(url)
    schemes = ("https", "http") if local_api else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise ConfigError(f"WEBHOOK_URL must be an https:// URL (http:// only with a local Bot "
                          f"API server in BOT_API_BASE_URL), got {url!r}")
    secret = values.get("WEBHOOK_SECRET", "").strip()
    if not WEBHOOK_SECRET_RE.fullmatch(secret):
        raise ConfigError("WEBHOOK_SECRET must be set with WEBHOOK_URL: 1 to 256 letters, "
                          "digits, '_' or '-' (the value is not shown)")
    port_text = values.get("WEBHOOK_PORT", "").strip() or "8443"
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"WEBHOOK_PORT must be a port number (1-65535), got {port_text!r}")
    listen = values.get("WEBHOOK_LISTEN", "").strip() or "0.0.0.0"
    return Webhook(url=url, secret=secret, port=int(port_text), listen=listen)


def _seed(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit():
        raise ConfigError(f"BOT_SEED must be a non-negative integer, got {text!r}")
    return int(text)


def _database_url(values: Mapping[str, str]) -> str | None:
    url = values.get("DATABASE_URL", "").strip()
    if url and not url.startswith(("postgresql://", "postgres://")):
        scheme, colon, _ = url.partition(":")
        got = f", not {scheme}://" if colon and scheme.isalnum() else ""
        raise ConfigError(f"DATABASE_URL must be a postgresql://USER@HOST:PORT/DB URL{got} "
                          "(leave it empty for the SQLite file at DB_PATH)")
    return url or None


@dataclass(frozen=True)
class SharedWebApp:
    """``python -m bot webapp``: one live seat server for every bot (``tokens``) on one
    PostgreSQL store; ``config`` holds the rest (DATABASE_URL, WEBAPP_URL, WEBAPP_PORT,
    WEBAPP_MAX_AGE, WEBAPP_LISTEN, ACTION_TIMEOUT, DEFAULT_LANG, METRICS_PORT, LOG_FORMAT),
    read as the bots read theirs."""

    tokens: tuple[str, ...]
    config: Config

    @property
    def log_json(self) -> bool:
        return self.config.log_json


def load_shared_webapp(environ: Mapping[str, str],
                       env_file: Path | None = Path(".env")) -> SharedWebApp:
    values = _values(environ, env_file)
    tokens = tuple(tok for tok in dict.fromkeys(
        re.split(r"[\s,]+", values.get("WEBAPP_TOKENS", ""))) if tok)
    if not tokens:
        raise ConfigError("WEBAPP_TOKENS is not set: the tokens of every bot whose live seat "
                          "this server serves, separated by commas")
    if not all(TOKEN_RE.fullmatch(tok) for tok in tokens):
        raise ConfigError("WEBAPP_TOKENS holds a malformed token (the values are not shown)")
    config = load_config({**values, "BOT_TOKEN": tokens[0]}, env_file=None)
    if config.database_url is None or config.webapp is None or config.webapp.port is None:
        raise ConfigError("python -m bot webapp needs DATABASE_URL, WEBAPP_URL and WEBAPP_PORT "
                          "(the bots' shared PostgreSQL store and the page's address and port)")
    return SharedWebApp(tokens, config)
