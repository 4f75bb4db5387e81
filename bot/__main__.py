"""``python -m bot`` / ``paohuzi-bot``: read the configuration and run with long polling."""

from __future__ import annotations

import logging
import os
import sys

from bot.config import ConfigError, load_config


def main() -> None:
    try:
        config = load_config(os.environ)
    except ConfigError as e:
        print(f"paohuzi-bot: {e}", file=sys.stderr)
        sys.exit(2)
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        level=logging.INFO)
    # httpx logs every request URL at INFO, and those URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from bot.app import build_application  # after the config is known to be good

    build_application(config).run_polling(allowed_updates=["message", "callback_query"])


if __name__ == "__main__":
    main()
