-- A fourth computer level, master (大师: engine.policy's searching player). Neither backend
-- can widen a column's CHECK in place, so the column is made anew with the wider one and the
-- old one dropped (its CHECK goes with it); both accept these four steps.
ALTER TABLE tables ADD COLUMN robot_level_new TEXT NOT NULL DEFAULT 'strong'
    CHECK (robot_level_new IN ('weak', 'medium', 'strong', 'master'));
UPDATE tables SET robot_level_new = robot_level;
ALTER TABLE tables DROP COLUMN robot_level;
ALTER TABLE tables RENAME COLUMN robot_level_new TO robot_level;
