-- An alarm opened with users to notify keeps notify_pending = 1 until its first
-- notification pass has written every decision and message (docs/alarms.md): frames go out
-- before those rows, so a pass cut short by a crash leaves the flag set and the sweep does
-- the pass again.
ALTER TABLE alarms ADD COLUMN notify_pending SMALLINT NOT NULL DEFAULT 0;
CREATE INDEX alarms_notify_pending ON alarms(occurred_at) WHERE notify_pending = 1;
