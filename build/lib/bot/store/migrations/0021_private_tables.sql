-- A private table (a 群杯's in a group without topics, bot.table.cup_service): a table of
-- its group played only in its players' private chats, posting nothing in the group. It
-- takes no place in the group, so several share one group beside the group's own table:
-- the one-open-table rule of a topic holds for the other tables only.
ALTER TABLE tables ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
DROP INDEX one_open_table_per_topic;
CREATE UNIQUE INDEX one_open_table_per_topic ON tables (chat_id, COALESCE(thread_id, 0))
    WHERE status != 'closed' AND private = 0;
