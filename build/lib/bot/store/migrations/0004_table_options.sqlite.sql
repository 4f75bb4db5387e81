-- Table options: each table keeps its rules key (rule set, seat count and two-seat option:
-- engine.rules.get_rule_set) and its decision timer (seconds; NULL the bot's default, 0
-- 慢速); seats run 0..3, so the seats table is rebuilt for its CHECK.
ALTER TABLE tables ADD COLUMN rules TEXT NOT NULL DEFAULT 'qq';
ALTER TABLE tables ADD COLUMN timer INTEGER;
CREATE TABLE seats_4 (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id      INTEGER NOT NULL REFERENCES users (user_id),
    ready        INTEGER NOT NULL DEFAULT 0,
    autoplay     INTEGER NOT NULL DEFAULT 0,
    hand_msg_id  INTEGER,
    ping_msg_id  INTEGER,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id)
);
INSERT INTO seats_4 SELECT table_id, seat, user_id, ready, autoplay, hand_msg_id,
                           ping_msg_id FROM seats;
DROP TABLE seats;
ALTER TABLE seats_4 RENAME TO seats;
