-- A group's time zone (/timezone, an admin's setting): the IANA name the bot shows the
-- group's times in, such as a challenge's deadline. A group with no row is in
-- Asia/Shanghai (bot.present.zones.DEFAULT).
CREATE TABLE chat_timezones (
    chat_id  BIGINT PRIMARY KEY,
    zone     TEXT NOT NULL
);
