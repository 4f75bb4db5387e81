-- /quiet in a private chat: no pings for this player's open decisions (the 托管 warning
-- still comes). Stored per user, across his tables and the bot's restarts.
ALTER TABLE users ADD COLUMN quiet INTEGER NOT NULL DEFAULT 0;
