-- Webhooks and the notification outbox (docs/notifications.md). A webhook is an
-- organisation's receiver of events (alarm raised / recovered / dealt, work order created /
-- transitioned, report ready) in Helio's JSON or a Teams or Slack message. Every delivery is
-- a row of notify_outbox, written in the transaction that decided it, and sent by one worker
-- per cluster: at least once, under its id (the receiver's idempotency key); each attempt
-- is logged in notify_attempts.
CREATE TABLE webhooks (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    format TEXT NOT NULL,
    events TEXT NOT NULL, -- ",alarm.raised,alarm.recovered," (commas around each)
    language TEXT NOT NULL,
    secret TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

-- state: pending (next_at is the next attempt), sent, failed (given up after 24 h)
CREATE TABLE notify_outbox (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    target_id BIGINT NOT NULL,
    event TEXT NOT NULL,
    subject_id BIGINT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    done_at BIGINT NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX notify_outbox_due ON notify_outbox(state, next_at);
CREATE INDEX notify_outbox_target ON notify_outbox(channel, target_id, id);

CREATE TABLE notify_attempts (
    id {{ID}},
    outbox_id BIGINT NOT NULL REFERENCES notify_outbox(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    at BIGINT NOT NULL,
    status INTEGER NOT NULL, -- the HTTP status, 0 when none came (refused, timed out)
    duration_ms INTEGER NOT NULL,
    error TEXT NOT NULL
);
CREATE INDEX notify_attempts_outbox ON notify_attempts(outbox_id, attempt);
