-- Hands are numbered per group (1, 2, 3… over all of a group's tables), not per table:
-- renumbered in order of creation (through negatives, so that no two hands of a table
-- share a number on the way).
UPDATE hands SET no = -no;
UPDATE hands SET no = (
    SELECT n FROM (SELECT h.id AS id, ROW_NUMBER() OVER (PARTITION BY t.chat_id
                                                         ORDER BY h.id) AS n
                   FROM hands h JOIN tables t ON t.id = h.table_id) AS numbered
    WHERE numbered.id = hands.id);
