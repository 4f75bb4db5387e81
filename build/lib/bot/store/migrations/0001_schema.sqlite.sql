-- The first schema: users, chats, tables and their seats, hands with their append-only
-- action log (triggers refuse UPDATE and DELETE on it), results and scores.
CREATE TABLE users (
    user_id   INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    username  TEXT,
    lang      TEXT,
    dm_ok     INTEGER NOT NULL DEFAULT 0,   -- has pressed Start in a private chat
    seen_at   TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE chats (
    chat_id   INTEGER PRIMARY KEY,
    title     TEXT,
    lang      TEXT NOT NULL
);
CREATE TABLE tables (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        INTEGER NOT NULL,
    opener_id      INTEGER NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'between', 'closed')),
    dealer         INTEGER,                 -- NULL until the first hand draws one
    draws_in_row   INTEGER NOT NULL DEFAULT 0,
    version        INTEGER NOT NULL DEFAULT 0,
    base           INTEGER NOT NULL,
    lobby_msg_id   INTEGER,
    created_at     TEXT NOT NULL DEFAULT (datetime('now')),
    closed_at      TEXT
);
CREATE UNIQUE INDEX one_open_table_per_chat ON tables (chat_id) WHERE status != 'closed';
CREATE TABLE seats (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    user_id      INTEGER NOT NULL REFERENCES users (user_id),
    ready        INTEGER NOT NULL DEFAULT 0,
    autoplay     INTEGER NOT NULL DEFAULT 0,
    hand_msg_id  INTEGER,
    ping_msg_id  INTEGER,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id)
);
CREATE TABLE hands (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    no            INTEGER NOT NULL,
    rule_set      TEXT NOT NULL,
    seed          TEXT NOT NULL,            -- decimal: 64-bit seeds overflow INTEGER
    dealer        INTEGER NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('running', 'done', 'aborted')),
    group_msg_id  INTEGER,                  -- the table photo in the group
    settle_msg_id INTEGER,                  -- the settlement message
    started_at    TEXT NOT NULL DEFAULT (datetime('now')),
    ended_at      TEXT,
    UNIQUE (table_id, no)
);
CREATE TABLE actions (
    hand_id  INTEGER NOT NULL REFERENCES hands (id),
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT NOT NULL,
    auto     INTEGER NOT NULL DEFAULT 0,    -- played by the bot (托管)
    at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
    PRIMARY KEY (hand_id, seq)
);
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
    BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
    BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TABLE results (
    hand_id  INTEGER NOT NULL REFERENCES hands (id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    points   INTEGER NOT NULL,
    PRIMARY KEY (hand_id, seat)
);
CREATE TABLE scores (
    chat_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    points   INTEGER NOT NULL DEFAULT 0,
    hands    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, user_id)
);
CREATE VIEW global_scores AS
    SELECT user_id, SUM(points) AS points, SUM(hands) AS hands, SUM(wins) AS wins
    FROM scores GROUP BY user_id;
