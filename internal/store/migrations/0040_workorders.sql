-- Work orders: what to fix on a station, who owns it and whether it is late. docs/workorders.md
-- describes the tables. Instants are BIGINT unix milliseconds (UTC).

CREATE TABLE work_orders (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    -- WO-yyyyMMdd-<id>, unique in the organisation
    number TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    -- 1 pending accept, 2 pending process, 3 executing, 4 finished, 5 rejected
    status SMALLINT NOT NULL DEFAULT 1,
    -- 1 low, 2 normal, 3 urgent, 4 very urgent
    priority SMALLINT NOT NULL DEFAULT 2,
    -- the alarm the order was opened from; open_alarm_id is set while the order is open
    -- (statuses 1-3), and its unique index keeps a fault to one open order
    alarm_id BIGINT REFERENCES alarms(id) ON DELETE SET NULL,
    open_alarm_id BIGINT,
    submitter_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    -- the processor: a user, or a department whose member accepts it
    assignee_user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    assignee_dept_id BIGINT REFERENCES departments(id) ON DELETE SET NULL,
    planned_start BIGINT NOT NULL,
    planned_end BIGINT NOT NULL,
    actual_start BIGINT,
    actual_end BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX work_orders_number ON work_orders (org_id, number);
CREATE UNIQUE INDEX work_orders_open_alarm ON work_orders (open_alarm_id);
CREATE INDEX work_orders_station_created ON work_orders (station_id, created_at);
CREATE INDEX work_orders_org_created ON work_orders (org_id, created_at);
CREATE INDEX work_orders_submitter ON work_orders (submitter_id);
CREATE INDEX work_orders_assignee ON work_orders (assignee_user_id);

-- Users a work order is copied to.
CREATE TABLE work_order_cc (
    order_id BIGINT NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (order_id, user_id)
);
CREATE INDEX work_order_cc_user ON work_order_cc (user_id);

-- Every status change (and assignment), with who, when and the comment.
CREATE TABLE work_order_events (
    id {{ID}},
    order_id BIGINT NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    from_status SMALLINT NOT NULL,
    to_status SMALLINT NOT NULL,
    user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    comment TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX work_order_events_order ON work_order_events (order_id, created_at);

CREATE TABLE work_order_comments (
    id {{ID}},
    order_id BIGINT NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX work_order_comments_order ON work_order_comments (order_id, created_at);

-- Attachments: the bytes live in the blob store (blobs table).
CREATE TABLE work_order_attachments (
    id {{ID}},
    order_id BIGINT NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    blob_id VARCHAR(32) NOT NULL,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size BIGINT NOT NULL,
    user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX work_order_attachments_order ON work_order_attachments (order_id);
