-- Button presses received and not yet answered (bot.telegram.journal): a press is written
-- here as getUpdates brings it, before the next poll tells Telegram that it arrived, and
-- deleted once answered. A start handles those left by a killed run, so a press in flight
-- at a kill is answered (body: the update as the Bot API sent it, JSON).
CREATE TABLE pending_presses (
    bot_id     BIGINT NOT NULL,
    update_id  BIGINT NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (bot_id, update_id)
);
