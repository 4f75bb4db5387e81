"""The live seat's settings: none without WEBAPP_PORT; an https WEBAPP_URL (http for this
machine alone), its path served; WEBAPP_MAX_AGE."""

import asyncio
import sys

import pytest

from bot.config import ConfigError, WebAppConfig, load_config, load_shared_webapp

TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp_-x"


def webapp(**env: str) -> WebAppConfig | None:
    return load_config({"BOT_TOKEN": TOKEN, **env}, env_file=None).webapp


def test_no_port_no_server():
    assert webapp() is None
    assert webapp(WEBAPP_URL="https://bot.example.org/paohuzi/") is None


def test_https_url_and_port():
    config = webapp(WEBAPP_URL="https://bot.example.org/paohuzi/", WEBAPP_PORT="8090")
    assert config == WebAppConfig("https://bot.example.org/paohuzi/", 8090, 86400.0)
    assert config.path == "/paohuzi/"
    assert webapp(WEBAPP_URL="https://bot.example.org", WEBAPP_PORT="8090").path == "/"
    assert webapp(WEBAPP_URL="http://127.0.0.1:8090/app/", WEBAPP_PORT="8090",
                  WEBAPP_MAX_AGE="3600").max_age == 3600.0


@pytest.mark.parametrize(("env", "message"), [
    ({"WEBAPP_PORT": "8090"}, "WEBAPP_URL must be"),
    ({"WEBAPP_PORT": "8090", "WEBAPP_URL": "http://bot.example.org/"}, "https://"),
    ({"WEBAPP_PORT": "8090", "WEBAPP_URL": "https://bot.example.org/?a=1"}, "no ?query"),
    ({"WEBAPP_PORT": "http", "WEBAPP_URL": "https://bot.example.org/"}, "WEBAPP_PORT must"),
    ({"WEBAPP_PORT": "70000", "WEBAPP_URL": "https://bot.example.org/"}, "WEBAPP_PORT must"),
    ({"WEBAPP_PORT": "8090", "WEBAPP_URL": "https://bot.example.org/",
      "WEBAPP_MAX_AGE": "5"}, "WEBAPP_MAX_AGE must be at least"),
])
def test_bad_settings(env, message):
    with pytest.raises(ConfigError, match=message.replace("?", r"\?")):
        webapp(**env)


def test_short_name_for_groups_links():
    base = {"WEBAPP_URL": "https://bot.example.org/paohuzi/", "WEBAPP_PORT": "8090"}
    assert webapp(**base).short_name is None
    assert webapp(**base, WEBAPP_SHORT_NAME="live_seat").short_name == "live_seat"
    with pytest.raises(ConfigError, match="WEBAPP_SHORT_NAME must be"):
        webapp(**base, WEBAPP_SHORT_NAME="a/b")


PG = "postgresql://bot@127.0.0.1:5432/paohuzi"
TOKEN_B = "987654321:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp_-y"


def test_served_by_the_shared_server():
    """With DATABASE_URL, WEBAPP_URL without WEBAPP_PORT: python -m bot webapp serves it."""
    config = webapp(WEBAPP_URL="https://bot.example.org/paohuzi/", DATABASE_URL=PG)
    assert config == WebAppConfig("https://bot.example.org/paohuzi/", None)


def test_shared_server_settings():
    env = {"WEBAPP_TOKENS": f"{TOKEN}, {TOKEN_B}", "DATABASE_URL": PG,
           "WEBAPP_URL": "https://bot.example.org/paohuzi/", "WEBAPP_PORT": "8090"}
    shared = load_shared_webapp(env, env_file=None)
    assert shared.tokens == (TOKEN, TOKEN_B)
    assert shared.config.webapp == WebAppConfig("https://bot.example.org/paohuzi/", 8090)
    for missing, message in (("WEBAPP_TOKENS", "WEBAPP_TOKENS is not set"),
                             ("DATABASE_URL", "needs DATABASE_URL"),
                             ("WEBAPP_PORT", "needs DATABASE_URL, WEBAPP_URL and WEBAPP_PORT")):
        with pytest.raises(ConfigError, match=message):
            load_shared_webapp({k: v for k, v in env.items() if k != missing}, env_file=None)
    with pytest.raises(ConfigError, match="malformed token"):
        load_shared_webapp({**env, "WEBAPP_TOKENS": "nope"}, env_file=None)


async def test_shared_server_refuses_to_start_without_its_settings(tmp_path):
    from support.botproc import bot_env

    env = {k: v for k, v in bot_env(TOKEN, "http://127.0.0.1:9/bot").items()
           if not k.startswith(("WEBAPP_", "DATABASE_"))}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "webapp", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 2 and out == b""
    assert err.decode().startswith("paohuzi-bot: WEBAPP_TOKENS is not set")
