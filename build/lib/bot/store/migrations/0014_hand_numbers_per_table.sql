-- What players read is numbered per table (第 k 局 of its 第 n 桌); the group's number
-- (hands.no) stays the id that /replay N and /export name. Existing hands are numbered in
-- order of creation within their table.
ALTER TABLE hands ADD COLUMN table_no INTEGER;
UPDATE hands SET table_no = (
    SELECT n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY table_id ORDER BY id) AS n
                   FROM hands) AS numbered
    WHERE numbered.id = hands.id);
