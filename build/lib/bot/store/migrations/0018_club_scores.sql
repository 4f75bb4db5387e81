-- A club's figures, all read from its hands (bot/store/club.py): a season is a span of the
-- group's hand numbers (a hand counts in the season it was dealt in), /stats a span of
-- finish times. A finished hand records what its win was (自摸, 胡息) and whether it was
-- dissolved (解散: no hand played), so that no figure replays a log; a hand finished before
-- these columns reads as no 自摸 and no 胡息 (dissolved is read from its log here, once).
-- A void (/void N) marks the hand, who voided it and why: its record stays.
ALTER TABLE hands ADD COLUMN zimo INTEGER;
ALTER TABLE hands ADD COLUMN huxi INTEGER;
ALTER TABLE hands ADD COLUMN dissolved INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hands ADD COLUMN voided_by BIGINT;
ALTER TABLE hands ADD COLUMN void_reason TEXT;
ALTER TABLE hands ADD COLUMN voided_at TEXT;
UPDATE hands SET dissolved = 1 WHERE EXISTS (
    SELECT 1 FROM actions a WHERE a.hand_id = hands.id AND a.action = 'dissolve');
CREATE INDEX finished_hands_by_time ON hands (chat_id, ended_at) WHERE status = 'done';
CREATE INDEX birds_by_hand ON birds (hand_id) WHERE hand_id IS NOT NULL;
-- A group's seasons: number, name, the group's hand numbers first..last (last NULL: the
-- current one, at most one a group). A group with no row is in season 1 from hand 1.
CREATE TABLE seasons (
    chat_id    BIGINT NOT NULL,
    no         INTEGER NOT NULL,
    name       TEXT,
    first_no   INTEGER NOT NULL,
    last_no    INTEGER,
    closed_by  BIGINT,
    closed_at  TEXT,
    PRIMARY KEY (chat_id, no)
);
