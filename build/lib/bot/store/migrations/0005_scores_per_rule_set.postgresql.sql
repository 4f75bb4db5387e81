-- Leaderboards per rule set (a 湖南 囤 is not a QQ point): scores are kept per (chat, rule
-- set id, user); those before were all played by qq. A bird (打鸟) adds its points and
-- counts in birds, not in hands. The birds table holds each one: placed for a table's next
-- deal (hand_id NULL), bound to the hand when it is dealt, and given the seat it followed
-- and its points at the settlement.
CREATE TABLE scores_by_rules (
    chat_id   BIGINT NOT NULL,
    rule_set  TEXT NOT NULL,                -- RuleSet.id: qq | hunan | four14
    user_id   BIGINT NOT NULL,
    points    INTEGER NOT NULL DEFAULT 0,
    hands     INTEGER NOT NULL DEFAULT 0,
    wins      INTEGER NOT NULL DEFAULT 0,
    birds     INTEGER NOT NULL DEFAULT 0,   -- hands followed as a bird (打鸟)
    PRIMARY KEY (chat_id, rule_set, user_id)
);
INSERT INTO scores_by_rules (chat_id, rule_set, user_id, points, hands, wins)
    SELECT chat_id, 'qq', user_id, points, hands, wins FROM scores;
DROP VIEW global_scores;
DROP TABLE scores;
ALTER TABLE scores_by_rules RENAME TO scores;
CREATE VIEW global_scores AS
    SELECT rule_set, user_id, SUM(points) AS points, SUM(hands) AS hands,
           SUM(wins) AS wins, SUM(birds) AS birds
    FROM scores GROUP BY rule_set, user_id;
CREATE INDEX scores_by_rule_set ON scores (rule_set, user_id);
CREATE INDEX scores_by_user ON scores (user_id);
CREATE TABLE birds (
    table_id  BIGINT NOT NULL REFERENCES tables (id),
    hand_id   BIGINT REFERENCES hands (id),  -- NULL: placed for the table's next deal
    user_id   BIGINT NOT NULL,
    seat      INTEGER,                        -- the seat it followed (at settlement)
    points    INTEGER,                        -- its result (at settlement)
    placed_at TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'))
);
CREATE UNIQUE INDEX one_waiting_bird ON birds (table_id, user_id) WHERE hand_id IS NULL;
CREATE UNIQUE INDEX one_bird_a_hand ON birds (hand_id, user_id) WHERE hand_id IS NOT NULL;
