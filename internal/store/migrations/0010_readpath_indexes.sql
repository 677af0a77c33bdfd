-- Indexes for the list and dashboard reads (docs/architecture.md, "Fleet figures"): each
-- reads an index range of what it shows. internal/server/plans_test.go explains every
-- query of those calls on SQLite and PostgreSQL.

-- Station authority ("own" and "granted"): the stations a department created.
CREATE INDEX stations_dept ON stations(created_by_dept);
-- The alarm list, newest first, per organisation: the page is read in index order.
CREATE INDEX alarms_org_time ON alarms(org_id, start_at, id);
DROP INDEX alarms_org_start;
-- Occurring alarms per station (the station list's alarm flag).
CREATE INDEX alarms_station_status ON alarms(station_id, status);
