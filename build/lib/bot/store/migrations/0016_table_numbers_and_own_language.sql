-- A group numbers its own tables (第 1 桌 is its first; ``tables.id`` stays the id that
-- links and the store use). Existing tables are numbered in order of creation within
-- their group.
ALTER TABLE tables ADD COLUMN no INTEGER NOT NULL DEFAULT 1;
UPDATE tables SET no = (
    SELECT n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY chat_id ORDER BY id) AS n
                   FROM tables) AS numbered
    WHERE numbered.id = tables.id);
-- The language a player chose privately (/lang zh|en), which wins over his Telegram
-- language (users.lang, updated from every update he sends); NULL: he chose none.
ALTER TABLE users ADD COLUMN lang_choice TEXT;
