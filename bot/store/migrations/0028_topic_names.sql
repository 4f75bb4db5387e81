-- The names of a forum group's topics as the bot last saw them: from the service message of a
-- topic created or renamed in the group (forum_topic_created, forum_topic_edited) and from the
-- topics the bot creates itself (a standing table's, a 群杯 table's), so that /tables names a
-- table's topic. A topic with no row is named by its number.
CREATE TABLE topic_names (
    chat_id    BIGINT NOT NULL,
    thread_id  INTEGER NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (chat_id, thread_id)
);
