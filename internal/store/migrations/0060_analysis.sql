-- Analysis: compare and report templates (a user's own or shared with the organisation),
-- report records (each one a rendering job that survives a restart and runs once across
-- replicas: a replica claims it with a lease) and the expiring download links of
-- scheduled reports.
CREATE TABLE compare_templates (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    shared INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX compare_templates_org ON compare_templates(org_id, user_id);

CREATE TABLE report_templates (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    shared INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    -- the next scheduled run (unix ms), NULL without a schedule; replicas advance it with
    -- a compare-and-set, so each run is made once
    next_run_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX report_templates_org ON report_templates(org_id, user_id);
CREATE INDEX report_templates_due ON report_templates(next_run_at);

CREATE TABLE report_records (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id),
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    template_id BIGINT,
    name TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    progress DOUBLE PRECISION NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    scheduled INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT NOT NULL DEFAULT '',
    lease_until BIGINT NOT NULL DEFAULT 0,
    blob_id VARCHAR(32) NOT NULL DEFAULT '',
    file_name TEXT NOT NULL DEFAULT '',
    file_size BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    started_at BIGINT NOT NULL DEFAULT 0,
    finished_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX report_records_org ON report_records(org_id, created_at);
CREATE INDEX report_records_status ON report_records(status, lease_until);

CREATE TABLE report_links (
    token_hash VARCHAR(64) PRIMARY KEY,
    record_id BIGINT NOT NULL REFERENCES report_records(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);
