"""``python -m bot`` / ``paohuzi-bot``: read the configuration, claim the database and run
(long polling, or a webhook with WEBHOOK_URL). Start-up errors are one line and exit 2."""

from __future__ import annotations

import logging
import os
import sys
from typing import NoReturn

from bot.config import ConfigError, load_config


def main() -> None:
    try:
        config = load_config(os.environ)
    except ConfigError as e:
        _fail(str(e))
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        level=logging.INFO)
    # httpx logs every request URL at INFO, and those URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from bot.claim import StartupError, claim_database  # after the config is known good
    from bot.telegram.app import run

    try:
        lock = claim_database(config.db_path)
    except StartupError as e:
        _fail(str(e))
    try:
        run(config)
    finally:
        os.close(lock)


def _fail(message: str) -> NoReturn:
    print(f"paohuzi-bot: {message}", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
