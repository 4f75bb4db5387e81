"""Configuration: .env parsing, the environment winning, a clean exit 2 on a bad token, and
the webhook settings."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, Webhook, load_config, parse_dotenv

ROOT = Path(__file__).resolve().parents[3]
GOOD = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp_-x"


def test_dotenv_lines() -> None:
    text = "# comment\n\nexport BOT_TOKEN = 'abc'\nDB_PATH=\"/x y\"\nNOEQUALS\nEMPTY=\n"
    assert parse_dotenv(text) == {"BOT_TOKEN": "abc", "DB_PATH": "/x y", "EMPTY": ""}


def test_environment_wins_over_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"BOT_TOKEN={GOOD}\nACTION_TIMEOUT=30\nDEFAULT_LANG=en\n"
                        "DB_PATH=/from/file\nREADY_TIMEOUT=300\n")
    config = load_config({"ACTION_TIMEOUT": "45", "READY_TIMEOUT": "10"}, env_file)
    assert config.token == GOOD
    assert config.action_timeout == 45.0
    assert config.ready_timeout == 10.0  # the minimum is allowed
    assert config.default_lang == "en"
    assert config.db_path == Path("/from/file")
    assert config.api_base_url is None
    assert config.pacing.group_interval == 3.5  # the real pacing unless told otherwise
    assert config.pacing.dm_interval == 1.0
    assert config.pacing.send_interval == 0.04


def test_defaults() -> None:
    config = load_config({"BOT_TOKEN": GOOD}, None)
    assert config == Config(token=GOOD)
    assert config.db_path == Path("paohuzi.sqlite3") and config.default_lang == "zh"
    assert config.ready_timeout == 120.0  # two minutes to press 再来一局
    assert config.render_process  # painted on another core
    assert not load_config({"BOT_TOKEN": GOOD, "RENDER_PROCESS": "0"}, None).render_process


def test_the_token_is_not_in_the_repr() -> None:
    assert GOOD not in repr(load_config({"BOT_TOKEN": GOOD}, None))


@pytest.mark.parametrize("env, message", [
    ({"BOT_TOKEN": GOOD, "ACTION_TIMEOUT": "soon"}, "ACTION_TIMEOUT"),
    ({"BOT_TOKEN": GOOD, "READY_TIMEOUT": "later"}, "READY_TIMEOUT"),
    ({"BOT_TOKEN": GOOD, "READY_TIMEOUT": "9.5"}, "READY_TIMEOUT"),
    ({"BOT_TOKEN": GOOD, "DEFAULT_LANG": "fr"}, "DEFAULT_LANG"),
    ({"BOT_TOKEN": GOOD, "GROUP_EDIT_INTERVAL": "1"}, "GROUP_EDIT_INTERVAL"),
    ({"BOT_TOKEN": GOOD, "DM_EDIT_INTERVAL": "0.2"}, "DM_EDIT_INTERVAL"),
    ({"BOT_TOKEN": GOOD, "SEND_INTERVAL": "0.01"}, "SEND_INTERVAL"),
    ({"BOT_TOKEN": GOOD, "RENDER_PROCESS": "yes"}, "RENDER_PROCESS"),
])
def test_bad_settings(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(env, None)


def _run(tmp_path: Path, token: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    if token is not None:
        env["BOT_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def test_missing_token_exits_2(tmp_path: Path) -> None:
    done = _run(tmp_path, None)
    assert done.returncode == 2
    assert "BOT_TOKEN is not set" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("token", ["123:short", "notdigits:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp",
                                   "123456789 AAbbCCddEEffGGhhIIjjKKllMMnnOOpp!!"])
def test_malformed_token_exits_2_without_showing_it(tmp_path: Path, token: str) -> None:
    done = _run(tmp_path, token)
    assert done.returncode == 2
    assert "BOT_TOKEN is malformed" in done.stderr
    assert token not in done.stderr + done.stdout
    assert token.split(":")[-1] not in done.stderr + done.stdout


def test_dotenv_in_the_working_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BOT_TOKEN=999:tooshort\n")
    done = _run(tmp_path, None)
    assert done.returncode == 2 and "malformed" in done.stderr
    assert "tooshort" not in done.stderr


async def test_python_m_bot_serves_and_never_logs_the_token(fake_tg, tmp_path: Path) -> None:
    """The real entry point against the fake Bot API: it answers /start and, stopped with
    SIGINT, has printed no token (httpx's request log would show it in every URL)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOT_")}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=fake_tg.token, BOT_API_BASE_URL=fake_tg.base_url,
               DB_PATH=str(tmp_path / "db.sqlite3"))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await fake_tg.wait_for(lambda: any(c.method == "getUpdates" for c in fake_tg.calls),
                               timeout=30)
        alice = fake_tg.user("Alice")
        reply = await fake_tg.wait_reply(await fake_tg.send_text(alice, alice, "/start"))
        assert reply.text.startswith("你好,Alice")
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 0
    secret = fake_tg.token.split(":")[1]
    assert secret not in out.decode() + err.decode()
    assert "started as @PaohuziTestBot" in err.decode()


def test_long_polling_unless_a_webhook_url_is_set() -> None:
    assert load_config({"BOT_TOKEN": GOOD}, None).webhook is None


def test_webhook_settings() -> None:
    config = load_config({"BOT_TOKEN": GOOD, "WEBHOOK_URL": "https://bot.example:8443/tg/hook",
                          "WEBHOOK_SECRET": "abc_DEF-123"}, None)
    assert config.webhook == Webhook(url="https://bot.example:8443/tg/hook",
                                     secret="abc_DEF-123", port=8443, listen="0.0.0.0")
    assert config.webhook.path == "tg/hook"  # PTB's url_path: the URL's path, no leading /
    assert "abc_DEF-123" not in repr(config)
    local = load_config({"BOT_TOKEN": GOOD, "WEBHOOK_URL": "https://bot.example/",
                         "WEBHOOK_SECRET": "x", "WEBHOOK_PORT": "80",
                         "WEBHOOK_LISTEN": "127.0.0.1"}, None).webhook
    assert local is not None
    assert (local.port, local.listen, local.path) == (80, "127.0.0.1", "")


@pytest.mark.parametrize("env, message", [
    ({"WEBHOOK_URL": "https://bot.example/hook"}, "WEBHOOK_SECRET must be set"),
    ({"WEBHOOK_URL": "https://bot.example/hook", "WEBHOOK_SECRET": "no spaces"},
     "WEBHOOK_SECRET"),
    ({"WEBHOOK_URL": "https://bot.example/hook", "WEBHOOK_SECRET": "x" * 257},
     "WEBHOOK_SECRET"),
    ({"WEBHOOK_URL": "http://bot.example/hook", "WEBHOOK_SECRET": "S3CRET"}, "https://"),
    ({"WEBHOOK_URL": "bot.example/hook", "WEBHOOK_SECRET": "S3CRET"}, "https://"),
    ({"WEBHOOK_URL": "https://bot.example/hook", "WEBHOOK_SECRET": "S3CRET",
      "WEBHOOK_PORT": "70000"}, "WEBHOOK_PORT"),
    ({"WEBHOOK_URL": "https://bot.example/hook", "WEBHOOK_SECRET": "S3CRET",
      "WEBHOOK_PORT": "http"}, "WEBHOOK_PORT"),
])
def test_bad_webhook_settings(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        load_config({"BOT_TOKEN": GOOD, **env}, None)
    assert env.get("WEBHOOK_SECRET", "\0") not in str(caught.value)


def test_a_local_bot_api_server_may_post_to_http() -> None:
    env = {"BOT_TOKEN": GOOD, "WEBHOOK_URL": "http://bot:8443/hook", "WEBHOOK_SECRET": "S3CRET"}
    with pytest.raises(ConfigError, match="https://"):
        load_config(env, None)
    config = load_config({**env, "BOT_API_BASE_URL": "http://localhost:8081/bot"}, None)
    assert config.webhook is not None and config.webhook.url == "http://bot:8443/hook"


def test_env_example_documents_every_webhook_setting_at_its_default() -> None:
    example = ROOT / ".env.example"
    keys = parse_dotenv(example.read_text(encoding="utf-8"))
    assert {"WEBHOOK_URL", "WEBHOOK_SECRET", "WEBHOOK_PORT", "WEBHOOK_LISTEN"} <= keys.keys()
    assert load_config({"BOT_TOKEN": GOOD}, example).webhook is None  # polling as shipped
    hook = load_config({"BOT_TOKEN": GOOD, "WEBHOOK_URL": "https://b.example/h",
                        "WEBHOOK_SECRET": "S3CRET"}, example).webhook
    assert hook is not None and (hook.port, hook.listen) == (8443, "0.0.0.0")


def test_every_setting_read_is_in_env_example_and_every_one_there_is_read() -> None:
    """The settings are the quoted upper-case names bot/config.py reads; compose.yaml reads
    one more (tests/test_container.py)."""
    read = set(re.findall(r'"([A-Z][A-Z0-9_]{2,})"', (ROOT / "bot" / "config.py").read_text()))
    example = parse_dotenv((ROOT / ".env.example").read_text(encoding="utf-8"))
    assert read | {"POSTGRES_PASSWORD"} == example.keys()


def test_metrics_and_log_settings() -> None:
    example = ROOT / ".env.example"
    shipped = load_config({"BOT_TOKEN": GOOD}, example)
    assert (shipped.metrics_port, shipped.metrics_host, shipped.log_json) == \
        (None, "127.0.0.1", False)  # off, this machine only, lines for people
    config = load_config({"BOT_TOKEN": GOOD, "METRICS_PORT": "9100", "METRICS_HOST": "0.0.0.0",
                          "LOG_FORMAT": "json"}, None)
    assert (config.metrics_port, config.metrics_host, config.log_json) == \
        (9100, "0.0.0.0", True)
    for env, message in (({"METRICS_PORT": "http"}, "METRICS_PORT must be a port number"),
                         ({"METRICS_PORT": "70000"}, "METRICS_PORT must be a port number"),
                         ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be one of text, json")):
        with pytest.raises(ConfigError, match=message):
            load_config({"BOT_TOKEN": GOOD, **env}, None)
    page = {"BOT_TOKEN": GOOD, "WEBAPP_PORT": "8080", "WEBAPP_URL": "https://p.example/live"}
    assert load_config(page, example).webapp.listen == "127.0.0.1"  # type: ignore[union-attr]
    assert load_config({**page, "WEBAPP_LISTEN": "0.0.0.0"}, None).webapp.listen == "0.0.0.0"  # type: ignore[union-attr]
