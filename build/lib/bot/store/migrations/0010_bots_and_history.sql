-- Several bots on one store: a table belongs to the bot that opened it (its Telegram user
-- id; 0 for a store that one bot has always served alone), and a player's seat is found
-- across all of them. Indexes that keep restarts and a player's reads flat however long
-- the history grows: the open tables, the hands and matches whose last message
-- was never posted, and a player's results from his best.
ALTER TABLE tables ADD COLUMN bot_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tables_open ON tables (id) WHERE status != 'closed';
CREATE INDEX seats_by_user ON seats (user_id);
CREATE INDEX unposted_hands ON hands (id) WHERE status = 'done' AND settle_msg_id IS NULL;
CREATE INDEX unposted_matches ON matches (id)
    WHERE status != 'running' AND summary_msg_id IS NULL;
CREATE INDEX results_by_points ON results (user_id, points DESC, hand_id);
