-- Table options: each table keeps its rules key (rule set, seat count and two-seat option:
-- engine.rules.get_rule_set) and its decision timer (seconds; NULL the bot's default, 0
-- 慢速); seats run 0..3.
ALTER TABLE tables ADD COLUMN rules TEXT NOT NULL DEFAULT 'qq';
ALTER TABLE tables ADD COLUMN timer INTEGER;
ALTER TABLE seats DROP CONSTRAINT seats_seat_check;
ALTER TABLE seats ADD CONSTRAINT seats_seat_check CHECK (seat BETWEEN 0 AND 3);
