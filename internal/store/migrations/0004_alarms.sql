-- Alarms, their deal history, alarm rules per organisation, notification settings per
-- user, the notifications sent, and the message centre. docs/alarms.md describes every
-- table. Instants are BIGINT unix milliseconds (UTC).

-- One row per alarm episode. open_key is set while the alarm is occurring (status 1) and
-- cleared when it recovers; its unique index is what keeps a fault from opening twice.
CREATE TABLE alarms (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    -- the device the alarm was raised for (for a collector alarm: one of its devices)
    device_id BIGINT REFERENCES devices(id) ON DELETE SET NULL,
    device_sn TEXT NOT NULL DEFAULT '',
    device_name TEXT NOT NULL DEFAULT '',
    -- inverter, battery, storage, meter or collector
    device_type TEXT NOT NULL DEFAULT '',
    rule_key TEXT NOT NULL,
    -- 1 device alarm, 2 data alarm
    alarm_type SMALLINT NOT NULL,
    -- 0 signal change, 1 alarm, 2 fault
    level SMALLINT NOT NULL,
    -- 1 occurring, 2 recovered
    status SMALLINT NOT NULL DEFAULT 1,
    -- 0 unprocessed, 1 processed
    deal_status SMALLINT NOT NULL DEFAULT 0,
    open_key TEXT,
    -- the description in English, and its message key and arguments for translation
    description TEXT NOT NULL DEFAULT '',
    msg_key TEXT NOT NULL DEFAULT '',
    msg_args TEXT NOT NULL DEFAULT '[]',
    -- when the condition began, when the engine raised the alarm, the last time the
    -- condition was seen, and when it cleared
    start_at BIGINT NOT NULL,
    occurred_at BIGINT NOT NULL,
    last_alarm_at BIGINT NOT NULL,
    recovered_at BIGINT,
    -- the latest deal (the full history is in alarm_deals)
    deal_reason TEXT NOT NULL DEFAULT '',
    deal_method SMALLINT NOT NULL DEFAULT 0,
    dealt_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    dealt_at BIGINT,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX alarms_open_key ON alarms(open_key);
CREATE INDEX alarms_station_start ON alarms(station_id, start_at);
CREATE INDEX alarms_org_start ON alarms(org_id, start_at);
CREATE INDEX alarms_device_start ON alarms(device_id, start_at);
CREATE INDEX alarms_status ON alarms(status);

CREATE TABLE alarm_deals (
    id {{ID}},
    alarm_id BIGINT NOT NULL REFERENCES alarms(id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
    reason TEXT NOT NULL,
    method SMALLINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX alarm_deals_alarm ON alarm_deals(alarm_id);

-- Per-organisation overrides of the built-in rule defaults. params is a JSON object of
-- the rule's thresholds.
CREATE TABLE alarm_rules (
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    rule_key TEXT NOT NULL,
    enabled SMALLINT NOT NULL,
    level SMALLINT NOT NULL,
    params TEXT NOT NULL DEFAULT '{}',
    updated_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (org_id, rule_key)
);

-- A user's alarm notification settings (a user without a row has the defaults).
-- levels and methods are comma-separated lists; frequency low, medium or high.
CREATE TABLE alarm_notify_settings (
    user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    levels TEXT NOT NULL,
    frequency TEXT NOT NULL,
    daily_limit INTEGER NOT NULL,
    methods TEXT NOT NULL,
    allowed SMALLINT NOT NULL,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    updated_at BIGINT NOT NULL
);

-- One row per alarm and user once the user's notification was decided: outcome 'sent'
-- (counted against the daily limit) or 'limited' (the daily limit was reached). The
-- message it became is the user's message with this alarm_id.
CREATE TABLE alarm_notifications (
    alarm_id BIGINT NOT NULL REFERENCES alarms(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'limited')),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (alarm_id, user_id)
);
CREATE INDEX alarm_notifications_user_time ON alarm_notifications(user_id, outcome, created_at);

-- The message centre. title, sub_title and content hold a message key (translated when
-- read) or plain text; args holds their arguments as JSON.
CREATE TABLE messages (
    id {{ID}},
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    -- alarm, workorder or system
    kind TEXT NOT NULL CHECK (kind IN ('alarm', 'workorder', 'system')),
    -- message, notice or todo
    type TEXT NOT NULL CHECK (type IN ('message', 'notice', 'todo')),
    title TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    avatar TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL DEFAULT '',
    args TEXT NOT NULL DEFAULT '{}',
    -- 0 unread, 1 read
    status SMALLINT NOT NULL DEFAULT 0,
    -- 1 low, 2 normal, 3 urgent, 4 very urgent
    priority SMALLINT NOT NULL DEFAULT 2,
    process_status TEXT NOT NULL DEFAULT '',
    timeout_status SMALLINT NOT NULL DEFAULT 0,
    alarm_id BIGINT REFERENCES alarms(id) ON DELETE SET NULL,
    ref_id BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX messages_user_time ON messages(user_id, created_at);
CREATE INDEX messages_alarm ON messages(alarm_id, user_id);
