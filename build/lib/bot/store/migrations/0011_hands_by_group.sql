-- A hand names its group (its table's chat, moved with it when a group becomes a supergroup),
-- so that a group's last hands (/history), its next hand number and a hand by its number
-- are read from that group's own hands, newest first, however many tables and hands it had.
ALTER TABLE hands ADD COLUMN chat_id BIGINT;
UPDATE hands SET chat_id = (SELECT t.chat_id FROM tables t WHERE t.id = hands.table_id);
CREATE INDEX hands_by_chat ON hands (chat_id, no);
CREATE INDEX finished_hands_by_chat ON hands (chat_id, id) WHERE status = 'done';
