-- Forum topics: a table belongs to the topic it was opened in (its message_thread_id; NULL
-- outside forums and in a forum's General topic), and each topic of a group may hold an
-- open table of its own.
ALTER TABLE tables ADD COLUMN thread_id INTEGER;
DROP INDEX one_open_table_per_chat;
CREATE UNIQUE INDEX one_open_table_per_topic ON tables (chat_id, COALESCE(thread_id, 0))
    WHERE status != 'closed';
