-- Matches (局数): a table plays single hands (match_hands 1) or matches of 4, 8 or 16 hands;
-- each match is a row, its hands point at it, and its 总结算 message id is kept so that it
-- is posted once (after a restart too). leaver: the user whose leaving ended it early;
-- status stopped when /stop ended it.
ALTER TABLE tables ADD COLUMN match_hands INTEGER NOT NULL DEFAULT 1;
CREATE TABLE matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id        INTEGER NOT NULL REFERENCES tables (id),
    hands           INTEGER NOT NULL,
    status          TEXT NOT NULL DEFAULT 'running'
                    CHECK (status IN ('running', 'done', 'left', 'stopped')),
    leaver          INTEGER,
    summary_msg_id  INTEGER
);
CREATE UNIQUE INDEX one_running_match ON matches (table_id) WHERE status = 'running';
ALTER TABLE hands ADD COLUMN match_id INTEGER REFERENCES matches (id);
CREATE INDEX hands_by_match ON hands (match_id);
