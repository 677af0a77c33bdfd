-- Vendor-cloud connectors (docs/ingest.md, "SolarEdge"): an organisation's connection to a
-- vendor's monitoring cloud, with its credentials sealed under the server's secret key
-- (never stored or answered in clear), its state, the day's quota and the next sync time;
-- and per remote device the last instant written (the cursor a restart resumes from).
CREATE TABLE cloud_connections (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    vendor TEXT NOT NULL,
    name TEXT NOT NULL,
    sealed_credentials TEXT NOT NULL,
    state TEXT NOT NULL,
    last_error TEXT NOT NULL DEFAULT '',
    daily_budget INTEGER NOT NULL,
    quota_day TEXT NOT NULL DEFAULT '',
    quota_used INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    next_sync_at BIGINT NOT NULL DEFAULT 0,
    last_sync_at BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

-- synced_to: the last instant (ms) whose readings are written; a restart resumes after it.
CREATE TABLE cloud_cursors (
    connection_id BIGINT NOT NULL REFERENCES cloud_connections(id) ON DELETE CASCADE,
    device_id BIGINT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    site_id TEXT NOT NULL,
    serial TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    synced_to BIGINT NOT NULL,
    PRIMARY KEY (connection_id, device_id)
);
