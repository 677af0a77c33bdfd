-- Alarms raised by judging back-filled history (the demo's year): dated by their samples and
-- never notified.
ALTER TABLE alarms ADD COLUMN replayed SMALLINT NOT NULL DEFAULT 0;
