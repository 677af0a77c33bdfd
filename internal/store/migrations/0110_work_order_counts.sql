-- Work-order totals kept, not counted: one row per organisation, station, status, priority
-- and "finished late" flag, kept by triggers on every insert, update and delete of an order
-- (whatever writes it: the API, the demo, an import). A list's total and the totals call
-- add up these rows for the caller's stations instead of counting every order; only the
-- open orders past their planned end (which time alone makes late) are counted live, from
-- the (org_id, status, planned_end) index. Rows of a deleted station fall to zero with its
-- orders and are never read (lists read the caller's stations only). docs/workorders.md
CREATE TABLE work_order_counts (
    org_id BIGINT NOT NULL,
    station_id BIGINT NOT NULL,
    status SMALLINT NOT NULL,
    priority SMALLINT NOT NULL,
    -- 1 for a finished order whose actual end passed its planned end
    late SMALLINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (org_id, station_id, status, priority, late)
);
INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
    SELECT org_id, station_id, status, priority,
        CASE WHEN status = 4 AND actual_end > planned_end THEN 1 ELSE 0 END, COUNT(*)
    FROM work_orders
    GROUP BY org_id, station_id, status, priority, CASE WHEN status = 4 AND actual_end > planned_end THEN 1 ELSE 0 END;

-- the open orders past due, counted live from an index that holds the columns they are
-- narrowed by
CREATE INDEX work_orders_org_status_due ON work_orders (org_id, status, planned_end, station_id, priority);
-- the list index: newest first, with every column a list is narrowed by (the title and
-- number a search reads included), so that a page's ids (and a bounded count) are read from
-- it alone, never from the orders
CREATE INDEX work_orders_org_page ON work_orders (org_id, created_at, station_id, status, priority, planned_end,
    actual_end, submitter_id, assignee_user_id, assignee_dept_id, title, number);
-- "mine": the caller's own orders, newest first, without reading the orders themselves
CREATE INDEX work_orders_submitter_page ON work_orders (submitter_id, org_id, created_at);
CREATE INDEX work_orders_assignee_page ON work_orders (assignee_user_id, org_id, created_at);
CREATE INDEX work_orders_dept_page ON work_orders (assignee_dept_id, org_id, created_at);
DROP INDEX work_orders_submitter;
DROP INDEX work_orders_assignee;

-- sqlite:begin
CREATE TRIGGER work_order_counts_ins AFTER INSERT ON work_orders BEGIN
    INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
    VALUES (NEW.org_id, NEW.station_id, NEW.status, NEW.priority,
        CASE WHEN NEW.status = 4 AND NEW.actual_end > NEW.planned_end THEN 1 ELSE 0 END, 1)
    ON CONFLICT (org_id, station_id, status, priority, late) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER work_order_counts_del AFTER DELETE ON work_orders BEGIN
    INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
    VALUES (OLD.org_id, OLD.station_id, OLD.status, OLD.priority,
        CASE WHEN OLD.status = 4 AND OLD.actual_end > OLD.planned_end THEN 1 ELSE 0 END, -1)
    ON CONFLICT (org_id, station_id, status, priority, late) DO UPDATE SET n = n - 1;
END;
CREATE TRIGGER work_order_counts_upd AFTER UPDATE OF org_id, station_id, status, priority, actual_end, planned_end
    ON work_orders BEGIN
    INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
    VALUES (OLD.org_id, OLD.station_id, OLD.status, OLD.priority,
        CASE WHEN OLD.status = 4 AND OLD.actual_end > OLD.planned_end THEN 1 ELSE 0 END, -1)
    ON CONFLICT (org_id, station_id, status, priority, late) DO UPDATE SET n = n - 1;
    INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
    VALUES (NEW.org_id, NEW.station_id, NEW.status, NEW.priority,
        CASE WHEN NEW.status = 4 AND NEW.actual_end > NEW.planned_end THEN 1 ELSE 0 END, 1)
    ON CONFLICT (org_id, station_id, status, priority, late) DO UPDATE SET n = n + 1;
END;
-- sqlite:end
-- postgres:begin
CREATE FUNCTION work_order_count() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
        VALUES (OLD.org_id, OLD.station_id, OLD.status, OLD.priority,
            CASE WHEN OLD.status = 4 AND OLD.actual_end > OLD.planned_end THEN 1 ELSE 0 END, -1)
        ON CONFLICT (org_id, station_id, status, priority, late) DO UPDATE SET n = work_order_counts.n - 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO work_order_counts (org_id, station_id, status, priority, late, n)
        VALUES (NEW.org_id, NEW.station_id, NEW.status, NEW.priority,
            CASE WHEN NEW.status = 4 AND NEW.actual_end > NEW.planned_end THEN 1 ELSE 0 END, 1)
        ON CONFLICT (org_id, station_id, status, priority, late) DO UPDATE SET n = work_order_counts.n + 1;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER work_order_counts_ins_del AFTER INSERT OR DELETE ON work_orders
    FOR EACH ROW EXECUTE FUNCTION work_order_count();
CREATE TRIGGER work_order_counts_upd AFTER UPDATE OF org_id, station_id, status, priority, actual_end, planned_end
    ON work_orders FOR EACH ROW EXECUTE FUNCTION work_order_count();
-- postgres:end
