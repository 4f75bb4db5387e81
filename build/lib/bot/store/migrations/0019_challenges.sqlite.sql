-- 复式挑战 (duplicate challenges, bot.table.challenges): a group's challenge is its rules, its
-- deals' seeds (committed by their SHA-256 on the card, revealed on the final card), its
-- deadline and its two messages; each participant is a row, and each decision he made is a
-- move (append-only): the computer players' moves follow from them (engine.policy with a
-- fixed rng), so the moves rebuild every game after a restart.
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id        INTEGER NOT NULL DEFAULT 0,
    chat_id       INTEGER NOT NULL,
    thread_id     INTEGER,
    opener_id     INTEGER NOT NULL,
    rules         TEXT NOT NULL,
    seeds         TEXT NOT NULL,
    deadline      REAL NOT NULL,
    status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
    card_msg_id   INTEGER,
    final_msg_id  INTEGER,
    created_at    REAL NOT NULL
);
CREATE UNIQUE INDEX one_open_challenge ON challenges (chat_id) WHERE status = 'open';
CREATE TABLE challenge_players (
    challenge_id  INTEGER NOT NULL REFERENCES challenges (id),
    user_id       INTEGER NOT NULL,
    name          TEXT NOT NULL,
    lang          TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'done', 'left')),
    msg_id        INTEGER,
    joined_at     REAL NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);
CREATE TABLE challenge_moves (
    challenge_id  INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    deal          INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    action        TEXT NOT NULL,
    off           INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, user_id, deal, seq),
    FOREIGN KEY (challenge_id, user_id) REFERENCES challenge_players (challenge_id, user_id)
);
