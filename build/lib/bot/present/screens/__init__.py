"""Screens, pure: what a message shows, from the table, the hand, the seat and the language —
its caption or text, its keyboard, its picture's signature — values a test compares, with no
bot and no I/O. The presenter decides when each is sent (:mod:`bot.present.pacing`)."""
