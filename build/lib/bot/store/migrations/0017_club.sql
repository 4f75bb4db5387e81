-- A club's controls. A standing table (常驻桌, 代开) keeps its rules and lobby until an
-- admin /stops it: it never closes when its last player leaves.
ALTER TABLE tables ADD COLUMN standing INTEGER NOT NULL DEFAULT 0;
-- /apart: two players who never sit at one table of the group (user_lo < user_hi).
CREATE TABLE apart (
    chat_id  BIGINT NOT NULL,
    user_lo  BIGINT NOT NULL,
    user_hi  BIGINT NOT NULL,
    set_by   BIGINT NOT NULL,
    PRIMARY KEY (chat_id, user_lo, user_hi)
);
-- /apart @name finds a player by his Telegram username, in any case.
CREATE INDEX users_by_username ON users (lower(username));
