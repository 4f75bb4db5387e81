-- Votes (解散, replacing an absent seat) and /notify: an open vote's group message, so that
-- a restart can say the vote was cancelled and take its buttons away; who asked a group for
-- a private note when a table opens or lacks one player, and who was told of which table
-- (at most once).
CREATE TABLE votes (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    kind      TEXT NOT NULL CHECK (kind IN ('dissolve', 'replace')),
    proposer  INTEGER NOT NULL,
    msg_id    INTEGER                         -- its group message, once sent
);
CREATE UNIQUE INDEX one_vote_per_table ON votes (table_id);
CREATE TABLE notify (
    chat_id   INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);
CREATE TABLE notified (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    user_id   INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
