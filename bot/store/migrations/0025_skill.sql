-- Two measures of skill beside the points (docs/club_scores.md), neither money nor
-- convertible. The skill rating (技术评级): OpenSkill's Plackett–Luce over whole matches
-- (bot/table/skill.py). skill_matches lists the matches folded into a rule set's ratings in
-- the order they were (seq); skill_ratings holds the result. A void marks the rule set
-- stale, and the ratings are folded again from those matches as they stand (bot/table/rater.py).
CREATE TABLE skill_matches (
    rule_set   TEXT NOT NULL,
    match_key  BIGINT NOT NULL,            -- matches.id, or minus hands.id for a single hand
    seq        INTEGER NOT NULL,
    PRIMARY KEY (rule_set, match_key)
);
CREATE TABLE skill_ratings (
    rule_set   TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    matches    INTEGER NOT NULL,
    PRIMARY KEY (rule_set, user_id)
);
CREATE TABLE skill_stale (
    rule_set   TEXT PRIMARY KEY
);
-- 技术分: each human seat's 复盘 of a finished hand, computed in the background
-- (bot/table/reviewer.py): its decisions and the points they lost against the strong player.
CREATE TABLE seat_reviews (
    hand_id    BIGINT NOT NULL REFERENCES hands (id),
    seat       INTEGER NOT NULL,
    user_id    BIGINT NOT NULL,
    decisions  INTEGER NOT NULL,
    loss       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (hand_id, seat)
);
-- what the rater scans from (bot/table/rater.py): the oldest hand still being played
CREATE INDEX running_hands ON hands (id) WHERE status = 'running';
