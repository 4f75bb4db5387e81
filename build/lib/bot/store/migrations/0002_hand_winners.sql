-- The winner's seat on each hand (leaderboards and /me find a best hand without replaying
-- all of a user's hands), backfilled from the results: a win is the only outcome with
-- exactly one seat above zero (逃跑 pays two seats, 荒庄 none).
ALTER TABLE hands ADD COLUMN winner INTEGER;
UPDATE hands SET winner = (SELECT r.seat FROM results r
                           WHERE r.hand_id = hands.id AND r.points > 0)
    WHERE status = 'done'
      AND (SELECT COUNT(*) FROM results r WHERE r.hand_id = hands.id AND r.points > 0) = 1;
CREATE INDEX results_by_user ON results (user_id);
CREATE INDEX hands_by_table ON hands (table_id, status);
CREATE INDEX tables_by_chat ON tables (chat_id);
