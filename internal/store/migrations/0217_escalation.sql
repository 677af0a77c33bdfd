-- Escalation (docs/notifications.md): an organisation's rules say which alarms (levels,
-- stations) escalate while nobody deals with them, and to whom after how long: each step
-- names the on-call rota, a user or a department. The rota is the organisation's weekly
-- slots in its time zone. alarm_escalations records each step taken, once per alarm, rule
-- and step (the users it reached, by id, comma-separated).
CREATE TABLE escalation_rules (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    levels TEXT NOT NULL,   -- "1,2"
    stations TEXT NOT NULL, -- "" every station, else "3,5"
    stop_on_recovery INTEGER NOT NULL,
    enabled INTEGER NOT NULL,
    steps TEXT NOT NULL,    -- JSON [{"afterMinutes":15,"target":"oncall","targetId":0}, ...]
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE oncall_slots (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    weekday INTEGER NOT NULL,      -- 1 Monday … 7 Sunday
    start_minute INTEGER NOT NULL, -- 0-1439, in the organisation's zone
    end_minute INTEGER NOT NULL,   -- 1-1440, after start_minute
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX oncall_slots_org ON oncall_slots(org_id, weekday);

CREATE TABLE alarm_escalations (
    alarm_id BIGINT NOT NULL REFERENCES alarms(id) ON DELETE CASCADE,
    rule_id BIGINT NOT NULL REFERENCES escalation_rules(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    org_id BIGINT NOT NULL,
    target TEXT NOT NULL,
    users TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (alarm_id, rule_id, step)
);
CREATE INDEX alarm_escalations_org ON alarm_escalations(org_id, at);

-- the pass reads an organisation's alarms nobody dealt with, by start
CREATE INDEX alarms_org_unprocessed ON alarms(org_id, start_at) WHERE deal_status = 0;
