-- A table's computer players (电脑) play at its level: weak, medium or strong (the names of
-- engine.policy's levels; 弱 / 中 / 强 in the lobby's ⚙ and /addbot). 托管 and 提示 always
-- play the strong level, whatever the table's.
ALTER TABLE tables ADD COLUMN robot_level TEXT NOT NULL DEFAULT 'strong'
    CHECK (robot_level IN ('weak', 'medium', 'strong'));
