-- An organisation's time zone (IANA): the zone its scheduled reports keep unless a schedule
-- names another, and what the console proposes for new schedules. Empty until an
-- administrator sets it.
ALTER TABLE organizations ADD COLUMN timezone TEXT NOT NULL DEFAULT '';
