-- Indexes for the sorted alarm and work-order lists (sort=<column>&order=asc|desc, docs/lists.md):
-- each walks the organisation's rows in the column's order, ties by id, forwards for one
-- direction and backwards for the other, so that a page is read in index order, never
-- sorted whole. TestAlarmListSortsInIndexOrder and TestWorkOrderListSortsInIndexOrder
-- explain every sorted list on SQLite and PostgreSQL.

-- Alarms by the time they occurred (sort=time) and by level (sort=level).
CREATE INDEX alarms_org_occurred ON alarms(org_id, occurred_at, id);
CREATE INDEX alarms_org_level ON alarms(org_id, level, id);
-- Alarms by duration (sort=duration): a recovered alarm lasted recovered_at - start_at, a
-- fixed figure; an occurring one lasts until now, so the longest of them is the one that
-- started first (start_at ascending, id descending is duration descending, id descending).
-- The list merges the head of each.
CREATE INDEX alarms_org_recovered_duration ON alarms(org_id, (recovered_at - start_at), id) WHERE recovered_at IS NOT NULL;
CREATE INDEX alarms_org_occurring_start ON alarms(org_id, start_at, id DESC) WHERE recovered_at IS NULL;

-- Work orders by priority, due date (planned end) and status: the sort column and id, then
-- every column a list is narrowed by (as work_orders_org_page), so that a page's ids are
-- read from the index alone.
CREATE INDEX work_orders_org_priority ON work_orders (org_id, priority, id, created_at, station_id, status, planned_end,
    actual_end, submitter_id, assignee_user_id, assignee_dept_id, title, number);
CREATE INDEX work_orders_org_due ON work_orders (org_id, planned_end, id, created_at, station_id, status, priority,
    actual_end, submitter_id, assignee_user_id, assignee_dept_id, title, number);
CREATE INDEX work_orders_org_status ON work_orders (org_id, status, id, created_at, station_id, priority, planned_end,
    actual_end, submitter_id, assignee_user_id, assignee_dept_id, title, number);
