-- Daily limits per notification method (docs/alarms.md): daily_limit stays the in-site
-- (method 1) limit; push_limit and email_limit bound app push (2) and e-mail (3). Each
-- decision records the methods its notification went out by (methods) and those the limit
-- held back (held), as bit masks (1 << method), so each method counts its own day.
ALTER TABLE alarm_notify_settings ADD COLUMN push_limit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alarm_notify_settings ADD COLUMN email_limit INTEGER NOT NULL DEFAULT 0;
UPDATE alarm_notify_settings SET push_limit = daily_limit, email_limit = daily_limit;
ALTER TABLE alarm_notifications ADD COLUMN methods INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alarm_notifications ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
-- Decisions taken before: one limit for every method.
UPDATE alarm_notifications SET methods = 14 WHERE outcome = 'sent';
UPDATE alarm_notifications SET held = 14 WHERE outcome = 'limited';
