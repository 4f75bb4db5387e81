"""Before the bot starts: wait until the Bot API answers. Without a network (or with a wrong
BOT_API_BASE_URL) the operator reads one line naming the address per attempt, the attempts
further and further apart, instead of PTB's traceback; a token the Bot API refuses is a
start-up error (exit 2). Later losses of the network are PTB's polling loop's, whose
failures :func:`polling_failed` logs in one line each."""

from __future__ import annotations

import asyncio
import logging

from telegram import Bot
from telegram.error import InvalidToken, TelegramError

from bot.claim import StartupError
from bot.config import Config

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.telegram.org/bot"  # PTB's, shown when BOT_API_BASE_URL is unset
FIRST_WAIT = 1.0  # seconds before the second attempt; doubled each time up to MAX_WAIT
MAX_WAIT = 60.0


def api_address(config: Config) -> str:
    """The Bot API's address as the operator set it (the token is appended to it, unshown)."""
    return config.api_base_url or DEFAULT_BASE_URL


async def reach_bot_api(config: Config) -> None:
    """Return once ``getMe`` answers; retry with backoff while the Bot API cannot be reached."""
    bot = Bot(config.token, base_url=api_address(config))
    wait = FIRST_WAIT
    try:
        while True:
            try:
                await bot.initialize()  # getMe
                return
            except InvalidToken:  # 401 or 404
                raise StartupError(f"the Bot API at {api_address(config)} refuses BOT_TOKEN "
                                   "(revoked or mistyped? or BOT_API_BASE_URL is not a Bot "
                                   "API)") from None
            except TelegramError as e:  # NetworkError, TimedOut, a server's error
                log.warning("cannot reach the Bot API at %s (%s); retrying in %.0f s",
                            api_address(config), e, wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, MAX_WAIT)
    finally:
        await bot.shutdown()


def polling_failed(error: TelegramError) -> None:
    """PTB's polling loop retries by itself (waits up to 30 s) and hands its failures to the
    error handler (:func:`bot.telegram.system.error`): one line per failure."""
    log.warning("getUpdates failed (%s); PTB retries", error)
