-- Keys every backend has: a bird gets an id of its own (the order birds were placed in,
-- which was SQLite's rowid), and a user's results are indexed newest hand first (/me's
-- last hands and the leaderboard's sparklines walk it back from the newest).
CREATE TABLE birds_keyed (
    id        INTEGER PRIMARY KEY,
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    hand_id   INTEGER REFERENCES hands (id),  -- NULL: placed for the table's next deal
    user_id   INTEGER NOT NULL,
    seat      INTEGER,                        -- the seat it followed (at settlement)
    points    INTEGER,                        -- its result (at settlement)
    placed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
);
INSERT INTO birds_keyed (id, table_id, hand_id, user_id, seat, points, placed_at)
    SELECT rowid, table_id, hand_id, user_id, seat, points, placed_at FROM birds;
DROP TABLE birds;
ALTER TABLE birds_keyed RENAME TO birds;
CREATE UNIQUE INDEX one_waiting_bird ON birds (table_id, user_id) WHERE hand_id IS NULL;
CREATE UNIQUE INDEX one_bird_a_hand ON birds (hand_id, user_id) WHERE hand_id IS NOT NULL;
DROP INDEX results_by_user;
CREATE INDEX results_by_user ON results (user_id, hand_id);
