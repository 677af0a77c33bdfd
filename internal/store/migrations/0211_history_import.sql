-- History import (internal/importer): uploaded exports kept in the database in parts of at
-- most 4 MiB, so that any replica can run the import and no request or job holds a file
-- whole; templates (a mapping saved per vendor format); import jobs with their checkpoint and
-- the lease that lets one replica run each.
CREATE TABLE import_files (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name VARCHAR(255) NOT NULL,
    -- csv or xlsx
    kind VARCHAR(8) NOT NULL,
    size BIGINT NOT NULL,
    sha256 VARCHAR(64) NOT NULL,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX import_files_org ON import_files (org_id);

CREATE TABLE import_file_parts (
    file_id BIGINT NOT NULL REFERENCES import_files(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data {{BLOB}} NOT NULL,
    PRIMARY KEY (file_id, seq)
);

CREATE TABLE import_templates (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name VARCHAR(100) NOT NULL,
    vendor VARCHAR(100) NOT NULL DEFAULT '',
    -- the importer.Mapping as JSON
    mapping TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE import_jobs (
    id {{ID}},
    org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    -- queued, running, paused, done, failed, cancelled
    state VARCHAR(16) NOT NULL,
    -- the importer.Plan as JSON
    plan TEXT NOT NULL,
    total_bytes BIGINT NOT NULL,
    -- the importer.Checkpoint as JSON: every row before it is committed
    checkpoint TEXT NOT NULL,
    error TEXT NOT NULL DEFAULT '',
    -- the replica running it and until when its lease holds (ms); renewed every slice
    lease_owner VARCHAR(64) NOT NULL DEFAULT '',
    lease_until BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX import_jobs_org ON import_jobs (org_id, id);
CREATE INDEX import_jobs_state ON import_jobs (state);
