-- A club's settings, one row a group (none: every setting off), set by its admins with
-- /club (docs/club.md): 自动准备 (auto_ready: at a standing table, whoever is seated when a
-- match ends is ready for the next at once), a limit on the 解散 votes each member may
-- propose a day (dissolve_limit, NULL: no limit) and 禁止解散 at a 群杯's tables
-- (cup_no_dissolve).
CREATE TABLE club_settings (
    chat_id          BIGINT PRIMARY KEY,
    auto_ready       INTEGER NOT NULL DEFAULT 0,
    dissolve_limit   INTEGER,
    cup_no_dissolve  INTEGER NOT NULL DEFAULT 0,
    set_by           BIGINT NOT NULL
);
-- Each 解散 vote proposed in a group, by whom and when (UTC, as the schema keeps times):
-- the daily limit counts them over the club's day.
CREATE TABLE dissolve_asks (
    chat_id   BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    asked_at  TEXT NOT NULL
);
CREATE INDEX dissolve_asks_by_member ON dissolve_asks (chat_id, user_id, asked_at);
