"""The live seat (a Telegram Mini App): a web page beside the pictures, served by the bot's
own process (:mod:`bot.webapp.server`). It knows the table service and the present room's
seat screens, never Telegram's library nor a database driver (pyproject's contracts)."""
