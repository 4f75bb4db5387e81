-- Reserved on this branch for another branch's migration 0017, which replaces this file
-- when the branches merge (bot/store/schema.py refuses two files of one number).
SELECT 1;
