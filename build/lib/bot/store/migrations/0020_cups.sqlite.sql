-- 群杯 (group cups, bot.table.cups): a group's cup is one row; its sign-up list, its draw's
-- seed (committed by its SHA-256 at sign-up, revealed on the final card), each round's
-- tables and every result are its ``state`` (JSON, written whole in the transaction of each
-- change: bot.table.cup_service). Its tables are ordinary tables of the group.
CREATE TABLE cups (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id        INTEGER NOT NULL DEFAULT 0,
    chat_id       INTEGER NOT NULL,
    thread_id     INTEGER,
    opener_id     INTEGER NOT NULL,
    status        TEXT NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'playing', 'done')),
    state         TEXT NOT NULL,
    card_msg_id   INTEGER,
    final_msg_id  INTEGER,
    created_at    REAL NOT NULL
);
CREATE UNIQUE INDEX one_open_cup ON cups (chat_id) WHERE status != 'done';
