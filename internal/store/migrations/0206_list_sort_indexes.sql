-- Indexes for the sorted lists (sort=<column>&order=asc|desc, docs/lists.md):
-- each walks the organisation's rows in the column's order, ties by id, forwards for one
-- direction and backwards for the other, so that a page is read in index order, never
-- sorted whole. TestAlarmListSortsInIndexOrder explains every sorted alarm list on SQLite
-- and PostgreSQL.

-- Alarms by the time they occurred (sort=time) and by level (sort=level).
CREATE INDEX alarms_org_occurred ON alarms(org_id, occurred_at, id);
CREATE INDEX alarms_org_level ON alarms(org_id, level, id);
-- Alarms by duration (sort=duration): a recovered alarm lasted recovered_at - start_at, a
-- fixed figure; an occurring one lasts until now, so the longest of them is the one that
-- started first (start_at ascending, id descending is duration descending, id descending).
-- The list merges the head of each.
CREATE INDEX alarms_org_recovered_duration ON alarms(org_id, (recovered_at - start_at), id) WHERE recovered_at IS NOT NULL;
CREATE INDEX alarms_org_occurring_start ON alarms(org_id, start_at, id DESC) WHERE recovered_at IS NULL;

