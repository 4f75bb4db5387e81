"""The Telegram side of the bot: the application (:mod:`bot.telegram.app`), the command table
(:mod:`bot.telegram.commands`), the button dispatch (:mod:`bot.telegram.buttons`) and one
handler module per command or button kind, or small groups of related ones."""
