-- Uploaded files (avatars, work-order attachments, report files, documents) kept in the
-- database, so every replica serves the same bytes without shared disk.
CREATE TABLE blobs (
    id VARCHAR(32) PRIMARY KEY,
    org_id BIGINT NOT NULL,
    kind VARCHAR(32) NOT NULL,
    name VARCHAR(255) NOT NULL,
    content_type VARCHAR(100) NOT NULL,
    size BIGINT NOT NULL,
    sha256 VARCHAR(64) NOT NULL,
    created_at BIGINT NOT NULL,
    data {{BLOB}} NOT NULL
);
CREATE INDEX blobs_org_kind ON blobs (org_id, kind);
