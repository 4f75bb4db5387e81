"""What the informational commands compute, without Telegram: /calc, /rules, /rank, /me,
/history and the hands /replay shows. Each reads the store or the engine and words the
answer through the catalogs; ``bot.telegram`` only sends it."""
