-- Several bots on one store: the tables no bot has claimed yet (bot_id 0, those of a store
-- one bot served before tables named their bot), found at once when a bot starts and takes
-- them (Writes.claim_tables); the index empties with the first start.
CREATE INDEX unowned_tables ON tables (id) WHERE bot_id = 0;
