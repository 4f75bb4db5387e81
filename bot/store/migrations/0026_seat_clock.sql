-- When a seat's clock last started afresh (托管 switched off, bot.table.play.take_back), as
-- seconds since the epoch: with the times its hand's moves were stored, a restart finds each
-- open decision's deadline where it was (bot.table.clock.restore) instead of starting it anew.
ALTER TABLE seats ADD COLUMN clock_from DOUBLE PRECISION;
